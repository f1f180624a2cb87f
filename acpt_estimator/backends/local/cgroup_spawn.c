/* Starts a command inside a cgroup v2 from its first instruction: clone3(CLONE_INTO_CGROUP | CLONE_PARENT).
 *
 * usage: acpt-cgroup-spawn CGROUP_DIR COMMAND [ARG...]
 *
 * Moving a running process into a cgroup waits for an RCU grace period in the kernel (6-13 ms here); a process
 * born inside waits for nothing. The command becomes a child of this helper's parent (CLONE_PARENT), in a new
 * session, with this helper's descriptors 0-2; descriptor 3 (close-on-exec) is where the helper reports
 * "<pid>\n" once the command has been executed, or "error <where> <errno>\n"; it then exits 0 (1 on a bad call).
 * The command gets this helper's environment. Built and used by acpt_estimator/backends/local/cgroup_spawn.py.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

static void report(const char *text) {
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t written = write(3, text, left);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        left -= (size_t)written;
    }
}

static int fail(const char *where, int code) {
    char line[96];
    snprintf(line, sizeof line, "error %s %d\n", where, code);
    report(line);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) return 1;
    /* The report descriptor must not reach the command: the driver reads it until the helper has exited. */
    if (fcntl(3, F_SETFD, FD_CLOEXEC) != 0) return 1;
    int group = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (group < 0) return fail("open", errno);
    int exec_pipe[2];  /* the child's execve errno, if it fails; EOF when it succeeds (close-on-exec) */
    if (pipe2(exec_pipe, O_CLOEXEC) != 0) return fail("pipe", errno);

    struct clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = CLONE_INTO_CGROUP | CLONE_PARENT;
    args.cgroup = (uint64_t)group;
    /* exit_signal stays 0: with CLONE_PARENT the kernel gives the child this helper's own exit signal */
    long pid = syscall(SYS_clone3, &args, sizeof args);
    if (pid < 0) return fail("clone3", errno);
    if (pid == 0) {
        close(exec_pipe[0]);
        if (setsid() < 0) {
            int code = errno;
            (void)!write(exec_pipe[1], &code, sizeof code);
            _exit(127);
        }
        execv(argv[2], argv + 2);
        int code = errno;
        (void)!write(exec_pipe[1], &code, sizeof code);
        _exit(127);
    }
    close(exec_pipe[1]);
    int code = 0;
    ssize_t got;
    do {
        got = read(exec_pipe[0], &code, sizeof code);
    } while (got < 0 && errno == EINTR);
    char line[64];
    if (got == (ssize_t)sizeof code) {
        snprintf(line, sizeof line, "error exec %d %ld\n", code, pid);
    } else {
        snprintf(line, sizeof line, "%ld\n", pid);
    }
    report(line);
    return 0;
}
