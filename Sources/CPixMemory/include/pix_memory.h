#ifndef LOVESNAP_PIX_MEMORY_H
#define LOVESNAP_PIX_MEMORY_H

#include <stddef.h>

/// Leptonica's allocator for image data while lovesnap runs (see pix_memory.c): `malloc`, then a
/// zero written to each 4096-byte page of the block (a new block's contents are undefined).
void *pix_memory_allocate(size_t size);

/// How many blocks `pix_memory_allocate` has handed out on the calling thread, for tests.
long pix_memory_allocated_blocks(void);

#endif
