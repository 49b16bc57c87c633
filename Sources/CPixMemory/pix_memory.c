// Leptonica creates an image (`pixCreateNoInit`, and `pixCreate` before clearing it) by
// allocating its pixels and then clearing the pad bits at the end of each row
// (`pixSetPadBits(pixd, 0)`): it reads the last word of every row, then writes it. A new block of
// a few MiB comes fresh from the kernel, so that read maps each page to the kernel's shared zero
// page, and the write that follows replaces it with a page of its own. Replacing a mapping
// flushes it from the TLB of every core that runs the process (`do_wp_page` →
// `ptep_clear_flush`): while the second engine reads on the other core (a photo read as it is
// beside its preparation), each page of each new image interrupted it. Counted in
// /proc/interrupts, one phone photo of a page on a dark table made about 7 900 TLB shootdowns
// (the tuned CLI, one thread, none), and took 676 ms; 17 and 616 ms with this allocator
// (hyperfine, 15 runs; README "Speed").
//
// The allocator Leptonica is given (`setPixMemoryManager`, at load: before any image exists)
// writes a zero to each page of the block first, which a new block's undefined contents allow:
// the first touch of each page is a write, which gets a page of its own at once, with nothing to
// flush. Freeing is `free`.
#include <stdlib.h>
#include <leptonica/allheaders.h>
#include "pix_memory.h"

// The smallest page size of the systems lovesnap runs on; touching more often costs nothing more.
#define PAGE 4096

static __thread long allocated_blocks;
long pix_memory_allocated_blocks(void) { return allocated_blocks; }

void *pix_memory_allocate(size_t size) {
    volatile char *block = malloc(size);
    if (block == NULL) return NULL;
    for (size_t offset = 0; offset < size; offset += PAGE) block[offset] = 0;
    if (size > 0) block[size - 1] = 0;
    allocated_blocks++;
    return (void *)block;
}

__attribute__((constructor)) static void install(void) { setPixMemoryManager(pix_memory_allocate, free); }
