// libc calls that Glibc's Swift module does not declare: glibc puts wcwidth behind _XOPEN_SOURCE,
// pipe2 and memfd_create behind _GNU_SOURCE, and prctl in <sys/prctl.h>, which the module does not include.
#ifndef LOVESNAP_CLIBC_H
#define LOVESNAP_CLIBC_H
#include <stddef.h>
#include <wchar.h>

/// wcwidth(3): the number of terminal columns of `wc` in the calling thread's locale; -1 if unprintable.
int clibc_wcwidth(wchar_t wc);

/// prctl(PR_SET_PDEATHSIG, signal): the kernel sends `signal` to the caller when its parent thread dies.
/// Returns 0, or -1 with errno set.
int clibc_set_parent_death_signal(int signal);

/// mallopt(M_MMAP_THRESHOLD, mmap_threshold) and mallopt(M_TRIM_THRESHOLD, trim_threshold), in bytes:
/// glibc's malloc serves blocks below the first from its heaps, and gives back to the kernel
/// only free memory above the second at a heap's top. Returns 1 when glibc took both, else 0.
int clibc_set_malloc_thresholds(size_t mmap_threshold, size_t trim_threshold);

/// A new anonymous memory file (`memfd_create(2)`, close-on-exec): its pages live in memory, and
/// go when the last descriptor (or /proc/PID/fd/N open of it) is closed. Returns the descriptor,
/// or -1 with errno set.
int clibc_memory_file(const char *name);

/// pipe2(fds, O_CLOEXEC) (glibc declares it behind _GNU_SOURCE): a pipe whose two ends are closed
/// on exec; fds[0] reads, fds[1] writes. Returns 0, or -1 with errno set.
int clibc_close_on_exec_pipe(int fds[2]);

/// posix_spawn(3) of `path` with `argv` and `envp` (NULL-terminated), its standard input, output
/// and error duplicated from `in_fd`, `out_fd` and `err_fd` (-1: /dev/null), every other
/// descriptor closed (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34), no signal blocked
/// and every signal's action the default, in a process group of its own
/// (`POSIX_SPAWN_SETPGROUP`), or with `new_session` 1 in a session of its own, without a
/// controlling terminal (`POSIX_SPAWN_SETSID`, glibc 2.26). Returns 0 with `*pid` set, or an
/// errno value.
int clibc_spawn(const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, int err_fd,
                int new_session, int *pid);

/// waitpid(2) for `pid`, retried on EINTR; with `no_hang` 1 it does not wait (`WNOHANG`).
/// Returns 0 with `*signal_number` the signal that ended the child (0 if it exited) and
/// `*exit_status` its exit status (0 if signalled), 1 when `no_hang` and the child still runs, or
/// -1 with errno set.
int clibc_wait_child(int pid, int no_hang, int *signal_number, int *exit_status);

/// fork(2), the child set up as `clibc_spawn` sets up its child: `out_fd` and `err_fd` duplicated
/// onto its standard output and error, /dev/null as its standard input, every other descriptor
/// closed (`closefrom(3)`), no signal blocked and every signal's action the default (the Swift
/// runtime's crash handlers too: a crash ends the child at once), in a process group of its own.
/// Only for a process of one thread (`clibc_thread_count`): a child forked beside other threads
/// could inherit a lock one of them held. Returns the child's pid in the parent and 0 in the
/// child, or -1 with errno set.
int clibc_fork_child(int out_fd, int err_fd);

/// The number of threads of this process (`Threads:` in /proc/self/status), or -1 when unknown.
int clibc_thread_count(void);

#endif
