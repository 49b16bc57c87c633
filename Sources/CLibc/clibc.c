#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <wchar.h>
#include "clibc.h"

int clibc_wcwidth(wchar_t wc) { return wcwidth(wc); }

int clibc_set_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0, 0, 0); }

int clibc_set_malloc_thresholds(size_t mmap_threshold, size_t trim_threshold) {
    return mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, (int)trim_threshold) == 1;
}

int clibc_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC); }

int clibc_close_on_exec_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int clibc_spawn(const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, int err_fd,
                int new_session, int *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) return rc;
    rc = posix_spawnattr_init(&attributes);
    if (rc != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return rc;
    }
    int fds[3] = {in_fd, out_fd, err_fd};
    for (int target = 0; target < 3 && rc == 0; target++) {
        rc = fds[target] >= 0
                 ? posix_spawn_file_actions_adddup2(&actions, fds[target], target)
                 : posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0);
    }
    if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    if (rc == 0) rc = posix_spawnattr_setsigmask(&attributes, &none);
    if (rc == 0) rc = posix_spawnattr_setsigdefault(&attributes, &all);
    if (rc == 0 && !new_session) rc = posix_spawnattr_setpgroup(&attributes, 0);
    if (rc == 0)
        rc = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
                                                       (new_session ? POSIX_SPAWN_SETSID : POSIX_SPAWN_SETPGROUP));
    pid_t child = 0;
    if (rc == 0) rc = posix_spawn(&child, path, &actions, &attributes, argv, envp);
    if (rc == 0) *pid = child;
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return rc;
}

int clibc_wait_child(int pid, int no_hang, int *signal_number, int *exit_status) {
    int status = 0;
    pid_t got;
    do {
        got = waitpid(pid, &status, no_hang ? WNOHANG : 0);
    } while (got == -1 && errno == EINTR);
    if (got == -1) return -1;
    if (got == 0) return 1;
    *signal_number = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    *exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    return 0;
}

int clibc_fork_child(int out_fd, int err_fd) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0 && devnull != 0) { dup2(devnull, 0); }
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    closefrom(3);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int s = 1; s < NSIG; s++) signal(s, SIG_DFL);
    setpgid(0, 0);
    return 0;
}

int clibc_thread_count(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    int n = -1;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "Threads: %d", &n) == 1) break;
    }
    fclose(f);
    return n;
}
