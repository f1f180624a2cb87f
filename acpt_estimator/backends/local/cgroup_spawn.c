/* Starts a command inside a cgroup v2 from its first instruction: clone3(CLONE_INTO_CGROUP | CLONE_PARENT).
 *
 * usage: acpt-cgroup-spawn [--job-namespace] CGROUP_DIR COMMAND [ARG...]
 *
 * Moving a running process into a cgroup waits for an RCU grace period in the kernel (6-13 ms here); a process
 * born inside waits for nothing. The command becomes a child of this helper's parent (CLONE_PARENT), in a new
 * session, with this helper's descriptors 0-2; descriptor 3 (close-on-exec; a Unix socket) is where the helper
 * reports "<pid>\n" once the command has been executed, or "error <where> <errno>\n"; it then exits 0 (1 on a bad
 * call).
 * The command gets this helper's environment. Built and used by acpt_estimator/backends/local/cgroup_spawn.py.
 *
 * --job-namespace: first enter a new mount namespace whose mounts do not propagate back (the driver later binds the
 * job's views into it, joining it by the descriptor of it sent along with "<pid>\n", SCM_RIGHTS: that works even
 * when the command has ended already, unlike its /proc/PID/ns/mnt), and drop CAP_SYS_ADMIN and CAP_SYS_PTRACE
 * from the bounding and inheritable sets, so neither the command nor anything it starts can undo those binds or
 * reach the driver's view through /proc (mount_ns.drop_job_capabilities is the same for a thread). Done here, the
 * driver starts a job from the thread that submits it, without handing the launch to a thread of its own.
 * A failure reports "error unshare|private|capabilities <errno>" and starts nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/* One line on the report socket, with descriptor ``fd`` attached (SCM_RIGHTS) unless it is -1; a line this short
 * goes in one message. */
static void report(const char *text, int fd) {
    struct iovec line = {.iov_base = (void *)text, .iov_len = strlen(text)};
    union {
        char bytes[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &line, .msg_iovlen = 1};
    if (fd >= 0) {
        message.msg_control = control.bytes;
        message.msg_controllen = sizeof control.bytes;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &fd, sizeof fd);
    }
    while (sendmsg(3, &message, 0) < 0 && errno == EINTR) continue;
}

static int fail(const char *where, int code) {
    char line[96];
    snprintf(line, sizeof line, "error %s %d\n", where, code);
    report(line, -1);
    return 0;
}

static int step_failed(const char *where) {
    fail(where, errno);
    return -1;
}

/* The job's own mount namespace (private: nothing mounted in it reaches the machine's), then the capabilities to
 * undo its read-only binds left out of everything this process executes. 0, or the failing step's report. */
static int enter_job_namespace(void) {
    if (unshare(CLONE_NEWNS) != 0) return step_failed("unshare");
    if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return step_failed("private");
    static const int drops[] = {CAP_SYS_ADMIN, CAP_SYS_PTRACE};
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    for (size_t i = 0; i < sizeof drops / sizeof *drops; i++) {
        if (prctl(PR_CAPBSET_DROP, drops[i], 0, 0, 0) != 0) return step_failed("capabilities");
    }
    if (syscall(SYS_capget, &header, data) != 0) return step_failed("capabilities");
    for (size_t i = 0; i < sizeof drops / sizeof *drops; i++) {
        data[drops[i] / 32].inheritable &= ~(1U << (drops[i] % 32));
    }
    if (syscall(SYS_capset, &header, data) != 0) return step_failed("capabilities");
    return 0;
}

int main(int argc, char **argv) {
    /* The report descriptor must not reach the command: the driver reads it until the helper has exited. */
    if (fcntl(3, F_SETFD, FD_CLOEXEC) != 0) return 1;
    int job_namespace = argc > 1 && strcmp(argv[1], "--job-namespace") == 0;
    argv += job_namespace;
    argc -= job_namespace;
    if (argc < 3) return 1;
    if (job_namespace && enter_job_namespace() != 0) return 0;
    int namespace = job_namespace ? open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC) : -1;
    if (job_namespace && namespace < 0) return fail("private", errno);
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
    report(line, got == (ssize_t)sizeof code ? -1 : namespace);
    return 0;
}
