#define _GNU_SOURCE
#include <malloc.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <fcntl.h>
#include <unistd.h>
#include <wchar.h>
#include "clibc.h"

int clibc_wcwidth(wchar_t wc) { return wcwidth(wc); }

void *clibc_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

int clibc_set_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0, 0, 0); }

int clibc_set_malloc_thresholds(size_t mmap_threshold, size_t trim_threshold) {
    return mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, (int)trim_threshold) == 1;
}

int clibc_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC); }

int clibc_close_on_exec_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
