/* Starts a command inside a cgroup v2 from its first instruction: clone3(CLONE_INTO_CGROUP | CLONE_PARENT).
 *
 * usage: acpt-cgroup-spawn [--job-namespace] CGROUP_DIR COMMAND [ARG...]
 *        acpt-cgroup-spawn --serve
 *
 * Moving a running process into a cgroup waits for an RCU grace period in the kernel (6-13 ms here); a process
 * born inside waits for nothing. The command becomes a child of this helper's parent (CLONE_PARENT), in a new
 * session, with SIGPIPE and SIGXFSZ at their defaults. Descriptor 3 (close-on-exec; a Unix socket) is the report:
 * the command's process writes "<pid>\n" just before it executes the command (and "error exec <errno> <pid>\n" if
 * that fails); the report closes once it has been executed. A step that fails before reports "error <where>
 * <errno>\n" ("... <pid>\n" where the command's process had been made: the driver reaps it). The helper exits 0 (1 on
 * a bad call). The command gets this helper's environment and descriptors 0-2. Built and used by
 * acpt_estimator/backends/local/cgroup_spawn.py.
 *
 * --job-namespace: the command's process first enters a new mount namespace whose mounts do not propagate back (the
 * driver later binds the job's views into it, joining it by the descriptor of it sent along with "<pid>\n",
 * SCM_RIGHTS: that works even when the command has ended already, unlike its /proc/PID/ns/mnt), and drops
 * CAP_SYS_ADMIN and CAP_SYS_PTRACE from the bounding and inheritable sets, so neither the command nor anything it
 * starts can undo those binds or reach the driver's view through /proc (mount_ns.drop_job_capabilities is the same for
 * a thread). Done here, the driver starts a job from the thread that submits it, without handing the launch to a
 * thread of its own. A failure reports "error unshare|private|capabilities <errno> <pid>" and runs nothing.
 *
 * --serve: the same for a driver's every job, without a helper process per job: descriptor 3 is a SOCK_SEQPACKET
 * socket from the driver, and each message on it is one request, until the driver closes its end. A request carries
 * two descriptors (SCM_RIGHTS): its report socket (the one-shot mode's descriptor 3) and the command's output (its
 * descriptors 1 and 2; 0 is /dev/null); its text is NUL-terminated fields: "ns" or "plain" (--job-namespace or not),
 * the cgroup folder, the number of arguments, the arguments, then the command's environment (NAME=value).
 * A request whose text is only "ns-wait" or "plain-wait" and the cgroup folder, with its report socket alone, makes the
 * command's process ahead of its command (the driver plans the launch meanwhile): the clone reports "<pid>\n" (with
 * the namespace's descriptor) at once, then reads the rest from the report socket until the driver shuts its side:
 * the output descriptor with the number of arguments, the arguments and the environment as above, and executes that;
 * nothing read (the driver gave the launch up) ends it quietly. The server runs at SCHED_BATCH where it was started at
 * SCHED_OTHER (yield_to_jobs) and puts each clone back first ("error policy <errno> <pid>" where that fails), unless
 * the request's first field ends with "-batch" ("ns-batch", "plain-wait-batch", ...): that launcher starts its ranks
 * only through the C rank launcher, which gives each rank's command the driver's policy back (rank_exec.c says why
 * mpiexec itself stays at SCHED_BATCH). Given the driver's CPUs ("--serve 0,1"), the driver may narrow the server's
 * CPUs before a request (to keep its clone off the driver's CPU, _Server.prepare says why): every clone gets the
 * driver's CPUs back first. A first field ending with "-new" ("ns-wait-batch-new", ...) has the server make the cgroup
 * folder itself (mode 0755) before the clone, on its CPU while the driver plans the job (a cgroup's mkdir costs the
 * driver ~0.1 ms of a trivial job's start here); one that exists already, or cannot be made, fails as "error mkdir
 * <errno>" and nothing runs.
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
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

static int report_to = 3;  /* the report socket: descriptor 3, or a request's own (--serve) */

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
    while (sendmsg(report_to, &message, 0) < 0 && errno == EINTR) continue;
}

/* What a command from a shell starts with: Python ignores SIGPIPE and SIGXFSZ, and ignored signals stay ignored
 * across exec (subprocess's restore_signals undoes that; posix_spawn does not), so a job's pipelines would see
 * EPIPE where they die quietly under a plain mpiexec. */
static void default_signals(void) {
    signal(SIGPIPE, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
}

static long failing_pid;  /* a --serve request's child: its pid goes with its failure, so the driver reaps it */

/* --serve runs at SCHED_BATCH where it was started at SCHED_OTHER (driver_priority.py says why): its wake-ups never
 * preempt the driver's thread or a job. What it clones is put back to SCHED_OTHER first (a process inherits its
 * parent's policy), so jobs run as under a plain mpiexec. Used only where both switches are allowed here. */
static int restore_policy = -1;

/* The driver's CPUs, given as --serve's second argument ("0,1,5"): what each clone runs on, whatever the driver
 * narrowed the server to meanwhile (the server may start after its first narrowing, so it does not read its own). */
static cpu_set_t serve_cpus;
static int restore_cpus;

static int parse_cpus(const char *list, cpu_set_t *cpus) {
    CPU_ZERO(cpus);
    for (const char *at = list; *at;) {
        char *end;
        long cpu = strtol(at, &end, 10);
        if (end == at || cpu < 0 || cpu >= CPU_SETSIZE || (*end != ',' && *end != '\0')) return -1;
        CPU_SET((int)cpu, cpus);
        at = *end ? end + 1 : end;
    }
    return CPU_COUNT(cpus) > 0 ? 0 : -1;
}

static void yield_to_jobs(void) {
    struct sched_param none = {0};
    if (sched_getscheduler(0) != SCHED_OTHER) return;
    if (sched_setscheduler(0, SCHED_BATCH, &none) != 0) return;
    /* Back and forth once: a clone must be able to return to SCHED_OTHER, or none of this is done. */
    if (sched_setscheduler(0, SCHED_OTHER, &none) != 0 || sched_setscheduler(0, SCHED_BATCH, &none) != 0) {
        sched_setscheduler(0, SCHED_OTHER, &none);
        return;
    }
    restore_policy = SCHED_OTHER;
}

static int fail(const char *where, int code) {
    char line[96];
    if (failing_pid) snprintf(line, sizeof line, "error %s %d %ld\n", where, code, failing_pid);
    else snprintf(line, sizeof line, "error %s %d\n", where, code);
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

/* The command's session and descriptors (``output`` as 1 and 2, /dev/null as 0; where it is -1, this helper's own),
 * with ``announce`` its report ("<pid>\n", with ``namespace`` attached), then the command. Never returns. */
static void exec_command(int output, char **argv, char **envp, int announce, int namespace) {
    int nothing = output < 0 ? 0 : open("/dev/null", O_RDONLY | O_CLOEXEC);
    char line[64];
    int code = 0;
    if (setsid() < 0 || nothing < 0 || (output >= 0 && (dup2(nothing, 0) < 0 || dup2(output, 1) < 0
                                                        || dup2(output, 2) < 0))) {
        code = errno;
    } else {
        if (announce) {
            snprintf(line, sizeof line, "%ld\n", (long)getpid());
            report(line, namespace);
        }
        default_signals();
        execve(argv[0], argv, envp);
        code = errno;
    }
    snprintf(line, sizeof line, "error exec %d %ld\n", code, (long)getpid());
    report(line, -1);
    _exit(127);
}

/* The job's namespace (with ``job_namespace``) for the command's process-to-be (a clone of this helper): -1 where
 * there is none, else a descriptor of it; exits (its failure reported) where it cannot be made. The driver's policy
 * first, unless ``keep_batch``. */
static int job_namespace_of_this_process(int job_namespace, int keep_batch) {
    failing_pid = (long)getpid();
    if (restore_cpus) sched_setaffinity(0, sizeof serve_cpus, &serve_cpus);  /* (a job on fewer CPUs still runs) */
    struct sched_param none = {0};
    if (restore_policy >= 0 && !keep_batch && sched_setscheduler(0, restore_policy, &none) != 0) {
        fail("policy", errno);
        _exit(0);
    }
    if (!job_namespace) return -1;
    if (enter_job_namespace() != 0) _exit(0);
    int namespace = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    if (namespace < 0) {
        fail("private", errno);
        _exit(0);
    }
    return namespace;
}

/* The command's process-to-be (a clone of this helper): its policy and namespace (job_namespace_of_this_process), then
 * exec_command. Never returns. */
static void become_command(int job_namespace, int keep_batch, int output, char **argv, char **envp) {
    exec_command(output, argv, envp, 1, job_namespace_of_this_process(job_namespace, keep_batch));
}

/* The NUL-terminated fields of ``text`` (``size`` bytes) from ``first`` on as the command: the number of arguments,
 * the arguments, then the environment (NAME=value); argv and envp point into ``text``. 0, or -1 if malformed. */
static int command_fields(char *text, size_t size, size_t first, char ***argv, char ***envp) {
    char **fields = calloc(size + 2, sizeof *fields);  /* every field, and room for the NULL ending argv */
    size_t count = 0;
    for (size_t start = 0, i = 0; fields && i < size; i++) {
        if (text[i] == '\0') {
            fields[count++] = text + start;
            start = i + 1;
        }
    }
    char *end = NULL;
    long argc = count > first ? strtol(fields[first], &end, 10) : -1;
    if (!fields || count <= first || !end || *end != '\0' || argc < 1 || (size_t)argc > count - first - 1) {
        free(fields);
        return -1;
    }
    size_t variables = count - first - 1 - (size_t)argc;
    *argv = fields + first + 1;
    memmove(*argv + argc + 1, *argv + argc, variables * sizeof *fields);  /* the variables move up for argv's NULL */
    (*argv)[argc] = NULL;
    *envp = *argv + argc + 1;
    (*envp)[variables] = NULL;
    return 0;
}

/* A --serve "-wait" request's process (a clone of this helper): its namespace and its pid reported at once, then the
 * rest of the request read from the report socket until the driver shuts its side: the command's output (one
 * descriptor, SCM_RIGHTS) and command_fields; exec_command then. Nothing read (the driver canceled the launch): it
 * exits quietly. Never returns. */
static void become_waiting(int job_namespace, int keep_batch) {
    int namespace = job_namespace_of_this_process(job_namespace, keep_batch);
    char line[64];
    snprintf(line, sizeof line, "%ld\n", (long)getpid());
    report(line, namespace);
    if (namespace >= 0) close(namespace);
    size_t capacity = 16384, size = 0;
    char *text = malloc(capacity);
    int output = -1;
    for (;;) {
        if (!text) _exit(0);
        if (size == capacity) {
            capacity *= 2;
            text = realloc(text, capacity);
            continue;
        }
        struct iovec part = {.iov_base = text + size, .iov_len = capacity - size};
        union {
            char bytes[CMSG_SPACE(2 * sizeof(int))];
            struct cmsghdr align;
        } control;
        struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.bytes,
                                 .msg_controllen = sizeof control.bytes};
        ssize_t got = recvmsg(report_to, &message, MSG_CMSG_CLOEXEC);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) _exit(0);
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
            if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
            size_t n = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < n; i++) {
                int fd;
                memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof fd);
                if (output < 0) output = fd;
                else close(fd);
            }
        }
        if (got == 0) break;
        size += (size_t)got;
    }
    char **argv, **envp;
    if (size == 0 || output < 0) _exit(0);
    if (command_fields(text, size, 0, &argv, &envp) != 0) {
        fail("request", EINVAL);
        _exit(0);
    }
    exec_command(output, argv, envp, 0, -1);
}

/* A clone of this helper inside ``cgroup`` as this helper's sibling, running become_command (``argv`` NULL:
 * become_waiting). */
static void launch(int job_namespace, int keep_batch, int make_group, const char *cgroup, int output, char **argv,
                   char **envp) {
    if (make_group && mkdir(cgroup, 0755) != 0) {
        fail("mkdir", errno);
        return;
    }
    int group = open(cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (group < 0) {
        fail("open", errno);
        return;
    }
    struct clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = CLONE_INTO_CGROUP | CLONE_PARENT;
    args.cgroup = (uint64_t)group;
    /* exit_signal stays 0: with CLONE_PARENT the kernel gives the child this helper's own exit signal */
    long pid = syscall(SYS_clone3, &args, sizeof args);
    if (pid == 0) {
        if (argv) become_command(job_namespace, keep_batch, output, argv, envp);
        become_waiting(job_namespace, keep_batch);
    }
    if (pid < 0) fail("clone3", errno);
    close(group);
}

/* A request's first field: "ns" or "plain", then "-wait" (the process made ahead of its command), then "-batch", then
 * "-new" (the server makes the cgroup). 0, or -1 for anything else. */
static int request_kind(const char *kind, int *job_namespace, int *waiting, int *keep_batch, int *make_group) {
    const char *rest = strncmp(kind, "ns", 2) == 0 ? kind + 2 : strncmp(kind, "plain", 5) == 0 ? kind + 5 : NULL;
    if (!rest) return -1;
    *job_namespace = rest == kind + 2;
    *waiting = strncmp(rest, "-wait", 5) == 0;
    rest += *waiting ? 5 : 0;
    *keep_batch = strncmp(rest, "-batch", 6) == 0;
    rest += *keep_batch ? 6 : 0;
    *make_group = strncmp(rest, "-new", 4) == 0;
    rest += *make_group ? 4 : 0;
    return *rest == '\0' ? 0 : -1;
}

/* One request of --serve (see the top): its fields in ``text`` (``size`` bytes), its descriptors already taken
 * (``output`` -1 for a "-wait" request). */
static void serve_one(char *text, size_t size, int output) {
    size_t first = strnlen(text, size);
    int job_namespace, waiting, keep_batch, make_group;
    if (first + 1 >= size || request_kind(text, &job_namespace, &waiting, &keep_batch, &make_group) != 0) {
        fail("request", EINVAL);
        return;
    }
    const char *cgroup = text + first + 1;
    if (waiting) {
        launch(job_namespace, keep_batch, make_group, cgroup, -1, NULL, NULL);
        return;
    }
    char **argv, **envp;
    if (output < 0 || command_fields(text, size, 2, &argv, &envp) != 0) {
        fail("request", EINVAL);
        return;
    }
    launch(job_namespace, keep_batch, make_group, cgroup, output, argv, envp);
    free(argv - 3);
}

/* --serve: requests until the driver closes its end of descriptor 3. */
static int serve(void) {
    for (;;) {
        ssize_t size = recv(3, NULL, 0, MSG_PEEK | MSG_TRUNC);
        if (size < 0 && errno == EINTR) continue;
        if (size <= 0) return 0;
        char *text = malloc((size_t)size + 1);
        if (!text) return 1;
        union {
            char bytes[CMSG_SPACE(2 * sizeof(int))];
            struct cmsghdr align;
        } control;
        struct iovec whole = {.iov_base = text, .iov_len = (size_t)size};
        struct msghdr message = {.msg_iov = &whole, .msg_iovlen = 1, .msg_control = control.bytes,
                                 .msg_controllen = sizeof control.bytes};
        ssize_t got;
        while ((got = recvmsg(3, &message, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) continue;
        if (got <= 0) return got == 0 ? 0 : 1;
        text[got] = '\0';  /* (a request ends with a NUL; this one guards a malformed one) */
        int descriptors[2] = {-1, -1};
        size_t taken = 0;
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
            if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS) {
                size_t n = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                for (size_t i = 0; i < n; i++) {
                    int fd;
                    memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof fd);
                    if (taken < 2) descriptors[taken++] = fd;
                    else close(fd);
                }
            }
        }
        if (taken >= 1) {
            report_to = descriptors[0];
            serve_one(text, (size_t)got, taken == 2 ? descriptors[1] : -1);
        }
        for (size_t i = 0; i < taken; i++) close(descriptors[i]);
        free(text);
    }
}

int main(int argc, char **argv) {
    /* The report descriptor must not reach the command: the driver reads it until the helper has exited. */
    if (fcntl(3, F_SETFD, FD_CLOEXEC) != 0) return 1;
    if ((argc == 2 || argc == 3) && strcmp(argv[1], "--serve") == 0) {
        yield_to_jobs();
        restore_cpus = argc == 3 && parse_cpus(argv[2], &serve_cpus) == 0;
        return serve();
    }
    int job_namespace = argc > 1 && strcmp(argv[1], "--job-namespace") == 0;
    argv += job_namespace;
    argc -= job_namespace;
    if (argc < 3) return 1;
    launch(job_namespace, 0, 0, argv[1], -1, argv + 2, environ);
    return 0;
}
