// lovesnap's allocator for Leptonica's image data (`setPixMemoryManager`, installed by
// `pix_memory_install`, which the OCR worker and its reader call before their first image):
// `malloc` and `free`, but for the rasters shared with another process below. (It also wrote a
// zero to each page of a new block before Leptonica read its pad bits, to spare the other core
// a TLB shootdown per page; measured in session 25 it saved nothing of the speed benchmark's
// wall time (×0.991 without it, docs/measurements/speed.md) and was removed.)
//
// Rasters shared with another process: while `pix_memory_share_rasters(1)` is in force on a
// thread, its blocks of 1 MiB and more are mapped from memory files (`memfd_create`, MAP_SHARED)
// instead of taken from malloc, so that another process can map the same pages
// (`pix_memory_shared_file`; the worker's reader maps the photo it loaded instead of decoding it
// again or copying it). `pix_memory_adopt` maps such a file privately (copy-on-write) as a block
// of this process's. Both are unmapped when Leptonica frees them.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <leptonica/allheaders.h>
#include "pix_memory.h"

static __thread long allocated_blocks;
static int installed;
long pix_memory_allocated_blocks(void) { return allocated_blocks; }

// The mapped blocks: their start, size and memory file (-1 for an adopted one).
#define MAPPED_MAX 64
static struct mapped { void *block; size_t size; int fd; } mapped[MAPPED_MAX];
static int mapped_count;
static pthread_mutex_t mapped_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int share_rasters;

void pix_memory_share_rasters(int on) { share_rasters = on; }

static void *map_block(int fd, size_t size, int flags, int keep_fd) {
    void *block = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, fd, 0);
    if (block == MAP_FAILED) return NULL;
    pthread_mutex_lock(&mapped_lock);
    int full = mapped_count == MAPPED_MAX;
    if (!full) mapped[mapped_count++] = (struct mapped){block, size, keep_fd ? fd : -1};
    pthread_mutex_unlock(&mapped_lock);
    if (full) {
        munmap(block, size);
        return NULL;
    }
    return block;
}

static void *allocate_shared(size_t size) {
    int fd = memfd_create("lovesnap-raster", MFD_CLOEXEC);
    if (fd < 0) return NULL;
    void *block = ftruncate(fd, (off_t)size) == 0 ? map_block(fd, size, MAP_SHARED, 1) : NULL;
    if (block == NULL) close(fd);
    return block;
}

int pix_memory_shared_file(const void *block, size_t *size) {
    int fd = -1;
    pthread_mutex_lock(&mapped_lock);
    for (int i = 0; i < mapped_count; i++) {
        if (mapped[i].block == block && mapped[i].fd >= 0) {
            fd = mapped[i].fd;
            *size = mapped[i].size;
        }
    }
    pthread_mutex_unlock(&mapped_lock);
    return fd;
}

void *pix_memory_adopt(const char *path, size_t size) {
    if (!installed) return NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    void *block = map_block(fd, size, MAP_PRIVATE, 0);
    close(fd);
    return block;
}

void pix_memory_free(void *block) {
    if (block == NULL) return;
    if (__atomic_load_n(&mapped_count, __ATOMIC_RELAXED) > 0) {
        struct mapped found = {NULL, 0, -1};
        pthread_mutex_lock(&mapped_lock);
        for (int i = 0; i < mapped_count; i++) {
            if (mapped[i].block == block) {
                found = mapped[i];
                mapped[i] = mapped[--mapped_count];
                break;
            }
        }
        pthread_mutex_unlock(&mapped_lock);
        if (found.block != NULL) {
            munmap(found.block, found.size);
            if (found.fd >= 0) close(found.fd);
            return;
        }
    }
    free(block);
}

void *pix_memory_allocate(size_t size) {
    if (share_rasters && size >= (1 << 20)) {
        void *shared = allocate_shared(size);
        if (shared != NULL) {
            allocated_blocks++;
            return shared;
        }
    }
    void *block = malloc(size);
    if (block != NULL) allocated_blocks++;
    return block;
}

void pix_memory_install(void) {
    if (!installed) setPixMemoryManager(pix_memory_allocate, pix_memory_free);
    installed = 1;
}
