// Tesseract's LSTM engine keeps every line image it cuts from the page (`Tesseract::GetRectImage`)
// as a PNG in memory: `ImageData::SetPixInternal` calls Leptonica's `pixWriteMem(..., IFF_PNG)`,
// and `ImageData::GetPix` decodes it again before the line is scaled and read. Tesseract can keep
// the Pix itself instead (`TESSERACT_IMAGEDATA_AS_PIX`, tesseract-ocr/tesseract#2965), but
// Debian's build does not. With zlib at its default level that round trip is a third of the CPU
// on a large grey page of noisy paper (docs/measurements/speed.md).
//
// This file defines `pixWriteMem`: the executable's definition comes before Leptonica's for every
// library that calls it (ELF symbol interposition; libtesseract references the symbol, so the
// linker exports it). Inside a reading (`line_images_store_begin`, a thread-local count) a PNG is
// written with zlib compression level 0 — stored blocks, the same pixels, as Leptonica's
// `pixSetZlibCompression` documents — and decoding it is a copy. Everything else goes to
// Leptonica's own `pixWriteMem` (`dlsym(RTLD_NEXT)`).
//
// Stored rows gain nothing from PNG's row filters, which libpng still chooses among for each row
// of a grey image (all five tried, the smallest kept) and which decoding undoes: libpng's
// `png_set_compression_level` is interposed the same way (exported by a linker flag in
// Package.swift: Leptonica's versioned reference to it does not make the linker export it), and
// when Leptonica sets level 0 inside a reading, the rows are written unfiltered too
// (`png_set_filter(…, PNG_FILTER_NONE)`).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <leptonica/allheaders.h>
#include <png.h>
#include "tuning.h"
#include "line_images.h"

static __thread int store_depth;
static __thread long stored_count;

void line_images_store_begin(void) { tuning_scope_begin(TUNING_LINE_IMAGES, &store_depth); }
void line_images_store_end(void) { tuning_scope_end(&store_depth); }
long line_images_stored_count(void) { return stored_count; }

typedef l_ok (*write_mem_function)(l_uint8 **, size_t *, PIX *, l_int32);
static write_mem_function leptonica_write_mem;
static pthread_once_t found_leptonica = PTHREAD_ONCE_INIT;
static void find_leptonica(void) {
    leptonica_write_mem = (write_mem_function)dlsym(RTLD_NEXT, "pixWriteMem");
}

typedef void (*set_level_function)(png_structrp, int);
typedef void (*set_filter_function)(png_structrp, int, int);
static set_level_function libpng_set_level;
static set_filter_function libpng_set_filter;
static pthread_once_t found_libpng = PTHREAD_ONCE_INIT;
static void find_libpng(void) {
    libpng_set_level = (set_level_function)dlsym(RTLD_NEXT, "png_set_compression_level");
    libpng_set_filter = (set_filter_function)dlsym(RTLD_DEFAULT, "png_set_filter");
}

void png_set_compression_level(png_structrp png_ptr, int level) {
    pthread_once(&found_libpng, find_libpng);
    if (libpng_set_level != NULL) libpng_set_level(png_ptr, level);
    if (store_depth > 0 && level == 0 && libpng_set_filter != NULL) {
        libpng_set_filter(png_ptr, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    }
}

l_ok pixWriteMem(l_uint8 **pdata, size_t *psize, PIX *pix, l_int32 format) {
    if (store_depth > 0 && format == IFF_PNG && pix != NULL && pdata != NULL && psize != NULL) {
        // The compression level is a field of the Pix (`special`): set on a copy (a line's
        // pixels, copied in microseconds), so that the caller's Pix is left as it was.
        PIX *stored = pixCopy(NULL, pix);
        if (stored == NULL) return 1;
        pixSetZlibCompression(stored, 0);
        l_ok failed = pixWriteMemPng(pdata, psize, stored, 0.0);
        pixDestroy(&stored);
        if (!failed) stored_count++;
        return failed;
    }
    pthread_once(&found_leptonica, find_leptonica);
    if (leptonica_write_mem == NULL) return 1;  // Leptonica's error value
    return leptonica_write_mem(pdata, psize, pix, format);
}
