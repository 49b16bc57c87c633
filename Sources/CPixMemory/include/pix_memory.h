#ifndef LOVESNAP_PIX_MEMORY_H
#define LOVESNAP_PIX_MEMORY_H

#include <stddef.h>

/// Makes `pix_memory_allocate` and `pix_memory_free` Leptonica's allocator for image data
/// (`setPixMemoryManager`; call before the first image; later calls do nothing).
void pix_memory_install(void);

/// Leptonica's allocator for image data once installed (see pix_memory.c): `malloc`, or a
/// memory file's mapping while rasters are shared.
void *pix_memory_allocate(size_t size);

/// How many blocks `pix_memory_allocate` has handed out on the calling thread, for tests.
long pix_memory_allocated_blocks(void);

/// Frees what `pix_memory_allocate` or `pix_memory_adopt` gave (Leptonica's deallocator).
void pix_memory_free(void *block);

/// While `on` is 1, the calling thread's blocks of 1 MiB and more are mapped from memory files
/// another process can map (`pix_memory_shared_file`).
void pix_memory_share_rasters(int on);

/// The memory file behind `block` (the start of a block mapped while sharing), its size in bytes
/// through `size`; -1 when it is not such a block.
int pix_memory_shared_file(const void *block, size_t *size);

/// The memory file at `path` (another process's, `/proc/PID/fd/N`) mapped copy-on-write as a
/// block of `size` bytes, freed by `pix_memory_free`; NULL when it cannot be, or when the
/// allocator is not installed (Leptonica would `free` the mapping).
void *pix_memory_adopt(const char *path, size_t size);

#endif
