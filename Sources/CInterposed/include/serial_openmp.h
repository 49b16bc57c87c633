#ifndef LOVESNAP_SERIAL_OPENMP_H
#define LOVESNAP_SERIAL_OPENMP_H

/// libgomp's thread limit (`omp_get_thread_limit`, from OMP_THREAD_LIMIT); 0 when libgomp is not
/// loaded.
int serial_openmp_thread_limit(void);

/// While the calling thread is between `serial_openmp_inline_begin()` and
/// `serial_openmp_inline_end()` (they nest), the OpenMP parallel regions it reaches run on it
/// alone, as in a team of one thread, without libgomp's team. See serial_openmp.c.
void serial_openmp_inline_begin(void);
void serial_openmp_inline_end(void);

/// How many parallel regions the calling thread has run inline so far, and how many it has
/// handed to libgomp (for tests).
long serial_openmp_inline_count(void);
long serial_openmp_forwarded_count(void);

/// From now on `serial_openmp_thread_limit()` answers 1, and libgomp makes teams of one thread
/// (`omp_set_num_threads(1)`): for an OCR worker forked from a process whose libgomp read its
/// settings from an environment without OMP_THREAD_LIMIT when it was loaded (libgomp reads them
/// once, then), as if the worker had been started with OMP_THREAD_LIMIT=1.
void serial_openmp_assume_one_thread(void);

#endif
