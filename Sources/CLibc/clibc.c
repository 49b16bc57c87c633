#define _GNU_SOURCE
#include <string.h>
#include <sys/prctl.h>
#include <wchar.h>
#include "clibc.h"

int clibc_wcwidth(wchar_t wc) { return wcwidth(wc); }

void *clibc_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

int clibc_set_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0, 0, 0); }
