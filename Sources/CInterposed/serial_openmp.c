// Tesseract's LSTM engine computes every time step of every line in OpenMP parallel regions:
// `LSTM::Forward` runs its four gates as `#pragma omp parallel sections`, and the fully
// connected layers their outputs as `#pragma omp parallel for`, which GCC compiles to calls of
// libgomp's `GOMP_parallel_sections` and `GOMP_parallel`, one per time step. lovesnap's OCR
// worker runs with `OMP_THREAD_LIMIT=1` (WorkerClient: more threads fight its two engines for two
// cores), and libgomp then makes a team of one thread for each region: it allocates and starts
// the team, runs the region on the calling thread, and ends it at a barrier whose last thread
// wakes the others with a futex system call even when there are none: about 20 000 calls per
// engine on a clean scan (`strace -c` on the worker), and system time 0.165 → 0.058 s on a letter
// page with the tuned CLI. With one thread all that is bookkeeping:
//
// - a `parallel for` region's function asks `omp_get_num_threads()` (1 outside a team too) and
//   `omp_get_thread_num()` (0) for its share of the loop, so called alone it runs the whole loop,
//   as in a team of one;
// - a `parallel sections` region's function takes section numbers from `GOMP_sections_next()`
//   (1 to count, then 0) until there are none left, then calls `GOMP_sections_end_nowait()`;
//   here they come from a count kept per thread, as libgomp's work share of a one-thread team
//   hands them out.
//
// This file defines those four functions: libtesseract calls them through its PLT, so the
// executable's definitions come first (ELF symbol interposition; exported by linker flags in
// Package.swift, as Tesseract's references are versioned, `GOMP_parallel@GOMP_4.0`). Inside
// `serial_openmp_inline_begin/end` (a thread-local count, set around `TessBaseAPIRecognize` by an
// engine whose process has a thread limit of 1, where libgomp would make a team of one anyway)
// the regions run inline as above; everything else goes to libgomp's own functions
// (`dlsym(RTLD_NEXT)`).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include "tuning.h"
#include "serial_openmp.h"

typedef void (*region_function)(void *);
typedef void (*parallel_function)(region_function, void *, unsigned, unsigned);
typedef void (*parallel_sections_function)(region_function, void *, unsigned, unsigned, unsigned);
typedef unsigned (*sections_next_function)(void);
typedef void (*sections_end_function)(void);
typedef int (*thread_limit_function)(void);

static parallel_function libgomp_parallel;
static parallel_sections_function libgomp_parallel_sections;
static sections_next_function libgomp_sections_next;
static sections_end_function libgomp_sections_end_nowait;
static thread_limit_function libgomp_thread_limit;
static pthread_once_t found_libgomp = PTHREAD_ONCE_INIT;

static void find_libgomp(void) {
    libgomp_parallel = (parallel_function)dlsym(RTLD_NEXT, "GOMP_parallel");
    libgomp_parallel_sections = (parallel_sections_function)dlsym(RTLD_NEXT, "GOMP_parallel_sections");
    libgomp_sections_next = (sections_next_function)dlsym(RTLD_NEXT, "GOMP_sections_next");
    libgomp_sections_end_nowait = (sections_end_function)dlsym(RTLD_NEXT, "GOMP_sections_end_nowait");
    libgomp_thread_limit = (thread_limit_function)dlsym(RTLD_DEFAULT, "omp_get_thread_limit");
}

static int assume_one_thread;

void serial_openmp_assume_one_thread(void) {
    assume_one_thread = 1;
    void (*set_threads)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    if (set_threads != NULL) set_threads(1);
}

int serial_openmp_thread_limit(void) {
    if (assume_one_thread) return 1;
    pthread_once(&found_libgomp, find_libgomp);
    return libgomp_thread_limit != NULL ? libgomp_thread_limit() : 0;
}

static __thread int inline_depth;
static __thread long inline_count;
static __thread long forwarded_count;
// The sections of the region this thread runs inline: whether there is one, the next number to
// hand out and the last.
static __thread int sections_inline;
static __thread unsigned sections_next, sections_last;

void serial_openmp_inline_begin(void) { tuning_scope_begin(TUNING_SERIAL_OPENMP, &inline_depth); }
void serial_openmp_inline_end(void) { tuning_scope_end(&inline_depth); }
long serial_openmp_inline_count(void) { return inline_count; }
long serial_openmp_forwarded_count(void) { return forwarded_count; }

// void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags)
void GOMP_parallel(region_function fn, void *data, unsigned num_threads, unsigned flags) {
    if (inline_depth > 0) {
        inline_count++;
        // A nested region's sections are its own: the enclosing ones' are put back after.
        int outer = sections_inline;
        sections_inline = 0;
        fn(data);
        sections_inline = outer;
        return;
    }
    pthread_once(&found_libgomp, find_libgomp);
    forwarded_count++;
    libgomp_parallel(fn, data, num_threads, flags);
}

// void GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned num_threads,
//                             unsigned count, unsigned flags)
void GOMP_parallel_sections(region_function fn, void *data, unsigned num_threads, unsigned count, unsigned flags) {
    if (inline_depth > 0) {
        inline_count++;
        int outer = sections_inline;
        unsigned outer_next = sections_next, outer_last = sections_last;
        sections_inline = 1;
        sections_next = 1;
        sections_last = count;
        fn(data);
        sections_inline = outer;
        sections_next = outer_next;
        sections_last = outer_last;
        return;
    }
    pthread_once(&found_libgomp, find_libgomp);
    forwarded_count++;
    libgomp_parallel_sections(fn, data, num_threads, count, flags);
}

// unsigned GOMP_sections_next(void): the next section to run, from 1; 0 when none is left.
unsigned GOMP_sections_next(void) {
    if (sections_inline) return sections_next <= sections_last ? sections_next++ : 0;
    pthread_once(&found_libgomp, find_libgomp);
    return libgomp_sections_next();
}

// void GOMP_sections_end_nowait(void)
void GOMP_sections_end_nowait(void) {
    if (sections_inline) return;
    pthread_once(&found_libgomp, find_libgomp);
    libgomp_sections_end_nowait();
}
