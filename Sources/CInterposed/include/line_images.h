#ifndef LOVESNAP_LINE_IMAGES_H
#define LOVESNAP_LINE_IMAGES_H

/// While the calling thread is between `line_images_store_begin()` and `line_images_store_end()`
/// (they nest), PNGs written to memory through Leptonica's `pixWriteMem` are stored without zlib
/// compression (`pixSetZlibCompression(pix, 0)`, then `pixWriteMemPng`), and libpng writes their
/// rows unfiltered (`png_set_filter(…, PNG_FILTER_NONE)`). See line_images.c.
void line_images_store_begin(void);
void line_images_store_end(void);

/// How many PNGs the calling thread has stored uncompressed so far (for tests).
long line_images_stored_count(void);

#endif
