/* One rank of a local job: what rank.sh does (launch.render_rank_script), without starting a shell.
 *
 * usage: acpt-rank PLAN_FILE DRIVER_PID        (mpiexec runs it once per rank)
 *
 * mpiexec starts before the plan is written (job.start: the driver plans the run while mpiexec starts), so each rank
 * first waits at the run's gate, beside PLAN_FILE (whose folder, and the FIFO in it, the driver may make only after
 * mpiexec's start: a rank that finds no FIFO looks again every 0.1 ms for 5 ms, then less often): until the driver
 * writes one line per rank into the "gate" FIFO
 * (each rank takes one) or makes the "ready" file, giving up when the driver (DRIVER_PID) is gone. Only then is
 * PLAN_FILE read (written by launch.render_rank_plan, readable by this user only): a sequence of NUL-terminated
 * strings: the format tag, the variables naming this process's rank (space-separated, first set wins), the job's
 * cgroup as /proc/self/cgroup names it ("" when not tracked by cgroup), the working directory, the status folder,
 * the number of the job's variables, those variables (NAME=value), the number of ranks; then per rank: its number,
 * its log file, the number of its variables, the variables, the number of its arguments, the arguments.
 *
 * As rank.sh: refuse to run outside the job's cgroup, enter the working directory, set the job's and the rank's
 * variables, close inherited descriptors, run the command with stdin from /dev/null and stdout+stderr appended to
 * the log, then leave status/rank_<rank>_exit_<code> and exit with the command's code (128+N when killed by signal N;
 * 127/126 when it could not be executed). Exit codes 94-97 and their messages are rank.sh's. A shell costs about
 * 1.5 ms more per rank to start (launch overhead). In a spare run folder the log and the marker are files made
 * ahead, renamed into place (adopt).
 *
 * The command runs at the driver's scheduling policy (as under a plain mpiexec started by the driver): mpiexec, its
 * proxies and this launcher may run at SCHED_BATCH (cgroup_spawn.c keeps them there, as they start only through this
 * launcher), so that mpiexec, woken by its exiting proxy, does not preempt it and then spin in waitpid(WNOHANG) until
 * the load balancer moves the proxy away (up to a scheduler tick, ~4 ms, in about a fifth of jobs).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if !defined(SYS_close_range) && (defined(__x86_64__) || defined(__aarch64__))
#define SYS_close_range 436  /* older C libraries' headers lack it (Linux 5.9) */
#endif

#define TAG "acpt-rank-plan-2"
enum { EXIT_NO_DRIVER = 94, EXIT_UNTRACKED = 95, EXIT_NO_WORKDIR = 96, EXIT_NO_RANK = 97 };

static char **fields;
static size_t field_count, next_field;

static const char *field(void) {
    if (next_field >= field_count) {
        fprintf(stderr, "acpt-estimator: the rank plan is truncated\n");
        exit(EXIT_NO_RANK);
    }
    return fields[next_field++];
}

static long number(void) {
    const char *text = field();
    char *end;
    long value = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0') {
        fprintf(stderr, "acpt-estimator: the rank plan has %s where a number belongs\n", text);
        exit(EXIT_NO_RANK);
    }
    return value;
}

static void read_plan(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0) {
        fprintf(stderr, "acpt-estimator: cannot read the rank plan %s: %s\n", path, strerror(errno));
        exit(EXIT_NO_RANK);
    }
    char *text = malloc((size_t)info.st_size + 1);
    size_t got = 0;
    while (text && got < (size_t)info.st_size) {
        ssize_t n = read(fd, text + got, (size_t)info.st_size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fd);
    if (!text || got != (size_t)info.st_size) {
        fprintf(stderr, "acpt-estimator: cannot read the rank plan %s\n", path);
        exit(EXIT_NO_RANK);
    }
    text[got] = '\0';
    for (size_t i = 0; i < got; i++) field_count += text[i] == '\0';
    fields = calloc(field_count + 1, sizeof *fields);
    if (!fields) exit(EXIT_NO_RANK);
    for (size_t i = 0, start = 0, k = 0; i < got; i++) {
        if (text[i] == '\0') {
            fields[k++] = text + start;
            start = i + 1;
        }
    }
    if (strcmp(field(), TAG) != 0) {
        fprintf(stderr, "acpt-estimator: %s is not a rank plan of this version\n", path);
        exit(EXIT_NO_RANK);
    }
}

static void append_line(const char *log, const char *text) {
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) fd = dup(2);  /* no log folder (the run was never prepared): the launcher's log has it */
    if (fd < 0) return;
    (void)!write(fd, text, strlen(text));
    close(fd);
}

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

/* A spare run folder (spare_folders.py) holds a file made ahead for each rank's log and exit marker, as
 * status/.<kind>-<rank>: renamed to ``path`` here (never over a file already there), it spares the rank the creation
 * of an inode (~10-40 us on a local disk, up to ~1 ms on an ext4 without a journal after removals, a round trip on
 * NFS), and its time is set to now, as a file made now has it (read_exits orders the ranks' ends by it). Whether it
 * was there to take. */
static int adopt(const char *status_dir, const char *kind, const char *rank, const char *path) {
    char premade[PATH_MAX];
    if (!*rank || strspn(rank, "0123456789") != strlen(rank)) return 0;
    if (snprintf(premade, sizeof premade, "%s/.%s-%s", status_dir, kind, rank) >= (int)sizeof premade) return 0;
    if (syscall(SYS_renameat2, AT_FDCWD, premade, AT_FDCWD, path, RENAME_NOREPLACE) != 0) return 0;
    utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW);
    return 1;
}

static void mark_exit(const char *status_dir, const char *rank, int code) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/rank_%s_exit_%d", status_dir, rank, code);
    if (adopt(status_dir, "exit", rank, path)) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd >= 0) close(fd);
}

/* The rank's number as the launcher set it, before the plan (which names the flavour's variables) is read. */
static const char *launcher_rank(void) {
    static const char *names[] = {"PMI_RANK", "PMI_ID", "OMPI_COMM_WORLD_RANK"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *value = getenv(names[i]);
        if (value && *value) return value;
    }
    return "?";
}

/* Until the gate beside the plan opens: this rank has taken one of the lines the driver writes into the gate FIFO,
 * one per rank, or the ready file exists (a job with more ranks than the FIFO holds lines). Waits at most 50 ms at
 * a time, then checks the driver: nothing of the user's starts in a run that was never prepared. */
static void wait_at_gate(const char *plan, long driver) {
    char folder[PATH_MAX - 8], gate[PATH_MAX], ready[PATH_MAX];
    const char *slash = strrchr(plan, '/');
    if (strlen(plan) >= sizeof folder) {
        fprintf(stderr, "acpt-estimator: the rank plan's path is too long: %s\n", plan);
        exit(EXIT_NO_RANK);
    }
    if (slash) snprintf(folder, sizeof folder, "%.*s", (int)(slash - plan), plan);
    else snprintf(folder, sizeof folder, ".");
    snprintf(gate, sizeof gate, "%s/gate", folder);
    snprintf(ready, sizeof ready, "%s/ready", folder);
    /* The gate is mostly open already when a rank gets here: its line is taken first, without the ready file's
     * look-up (~17 us of each rank's start). */
    int fifo = open(gate, O_RDWR | O_NONBLOCK | O_CLOEXEC);  /* read-write: never EOF, never blocks */
    char byte;
    if (fifo >= 0 && read(fifo, &byte, 1) == 1) {
        close(fifo);
        return;
    }
    /* The FIFO not made yet: the driver makes it right after mpiexec's command, so it is looked for every 0.1 ms for
     * 5 ms (a rank then passes at most 0.1 ms after it appears), then twice as long each time up to every 10 ms. */
    useconds_t absent = 100;
    int looks = 0;
    while (access(ready, F_OK) != 0) {
        if (fifo < 0) fifo = open(gate, O_RDWR | O_NONBLOCK | O_CLOEXEC);  /* read-write: never EOF, never blocks */
        if (fifo >= 0) {
            struct pollfd wake = {.fd = fifo, .events = POLLIN};
            if (poll(&wake, 1, 50) > 0) {
                if (read(fifo, &byte, 1) == 1) break;  /* the driver's lines are single newlines */
            }
        } else {
            usleep(absent);
            if (++looks > 50 && absent < 10000) absent *= 2;
        }
        if (driver > 0 && kill((pid_t)driver, 0) != 0) {
            /* No log folder yet (the run was never prepared): the launcher's log (stderr) has it. */
            fprintf(stderr, "acpt-estimator: rank %s: its driver ended before the run was prepared, so its command "
                    "was not started\n", launcher_rank());
            exit(EXIT_NO_DRIVER);
        }
    }
    if (fifo >= 0) close(fifo);
}

static void check_cgroup(const char *cgroup, const char *rank, const char *log, const char *status_dir) {
    /* Read whole with read(2): stdio's buffer costs an mmap and a munmap (~15 us of each rank's start). */
    static char listing[2 * PATH_MAX + 4096];
    char line[PATH_MAX + 8] = "";
    size_t got = 0;
    int own = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
    while (own >= 0 && got < sizeof listing - 1) {
        ssize_t n = read(own, listing + got, sizeof listing - 1 - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    if (own >= 0) close(own);
    listing[got] = '\0';
    for (char *start = listing; *start; ) {
        char *end = strchr(start, '\n');
        size_t length = end ? (size_t)(end - start) : strlen(start);
        if (strncmp(start, "0::", 3) == 0 && length < sizeof line) {
            memcpy(line, start, length);
            line[length] = '\0';
            break;
        }
        if (!end) break;
        start = end + 1;
    }
    size_t length = strlen(cgroup);
    const char *inside = line + 3;
    if (strncmp(line, "0::", 3) == 0 && strncmp(inside, cgroup, length) == 0
            && (inside[length] == '\0' || inside[length] == '/'))
        return;
    char text[PATH_MAX + 160];
    snprintf(text, sizeof text, "acpt-estimator: rank %s is not inside the job's cgroup (%s), so its command was "
             "not started\n", rank, line);
    append_line(log, text);
    mark_exit(status_dir, rank, EXIT_UNTRACKED);
    exit(EXIT_UNTRACKED);
}

static void close_inherited(void) {
    /* What the launcher's proxy left open would keep mpiexec waiting on a rank's background children. */
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
    long last = sysconf(_SC_OPEN_MAX);
    for (int fd = 3; fd < (last > 0 && last < 65536 ? last : 65536); fd++) close(fd);
}

/* Writes "acpt-estimator: WHAT: REASON" to stderr with write(2) alone: it runs in a vfork child too. */
static void say_failed(const char *what, int code) {
    const char *parts[] = {"acpt-estimator: ", what, ": ", strerror(code), "\n"};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) (void)!write(2, parts[i], strlen(parts[i]));
}

/* The driver's scheduling policy and parameters, for the command (read before vfork: the child only sets them). Raw
 * system calls: musl's sched_getscheduler, sched_getparam and sched_setscheduler always return ENOSYS. */
static long driver_policy = -1;
static struct sched_param driver_param;

static void read_driver_policy(long driver) {
    long policy = syscall(SYS_sched_getscheduler, (pid_t)driver);
    if (policy < 0 || syscall(SYS_sched_getparam, (pid_t)driver, &driver_param) != 0) return;
    long own = syscall(SYS_sched_getscheduler, 0);
    policy &= ~(long)SCHED_RESET_ON_FORK;
    if (own >= 0 && (own & ~(long)SCHED_RESET_ON_FORK) != policy) driver_policy = policy;
}

/* The command, with stdin from /dev/null and stdout+stderr appended to the log; its exit code (as run()'s caller
 * reports it). The descriptors are opened here and the child made with vfork: it shares this process's memory until
 * it executes the command, so starting it copies nothing (a fork copied this launcher's page tables, ~0.1 ms per
 * rank), and it only moves descriptors and executes. */
static int run(char **argv, const char *log, const char *status_dir, const char *rank) {
    int in = open("/dev/null", O_RDONLY);
    if (in < 0) {
        say_failed("/dev/null", errno);
        return 1;
    }
    adopt(status_dir, "log", rank, log);
    int out = open(log, O_WRONLY | O_APPEND | O_CREAT, 0666);
    if (out < 0) {
        say_failed(log, errno);
        close(in);
        return 1;
    }
    /* A file without a #! line runs under the shell, as glibc's execvp does and musl's does not (a rank's command is
     * always a path: the job's interpreter or /bin/sh). Its command line is made here: the child only moves
     * descriptors and executes. */
    char **as_script = NULL;
    if (strchr(argv[0], '/')) {
        size_t count = 0;
        while (argv[count]) count++;
        as_script = calloc(count + 2, sizeof *as_script);
        if (as_script) {
            as_script[0] = "/bin/sh";
            memcpy(as_script + 1, argv, (count + 1) * sizeof *argv);
        }
    }
    pid_t child = vfork();
    if (child == 0) {
        /* The child's descriptor table is its own (only memory is shared): what it closes stays open here. */
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) {
            say_failed("dup2", errno);
            _exit(126);
        }
        if (in > 2) close(in);
        if (out > 2) close(out);
        /* Where that fails (a policy this user may not take), the command keeps this launcher's: the same CPU share. */
        if (driver_policy >= 0) syscall(SYS_sched_setscheduler, 0, (int)driver_policy, &driver_param);
        execvp(argv[0], argv);
        int code = errno;
        if (code == ENOEXEC && as_script) {
            execv(as_script[0], as_script);
            code = errno;
        }
        say_failed(argv[0], code);  /* into the rank's log: it is stderr now */
        _exit(code == ENOENT ? 127 : 126);
    }
    int failed_fork = child < 0 ? errno : 0;
    free(as_script);
    close(in);
    close(out);
    if (child < 0) {
        say_failed("vfork", failed_fork);
        return 126;
    }
    int status;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) return 126;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv) {
    char *end = NULL;
    long driver = argc == 3 ? strtol(argv[2], &end, 10) : 0;
    if (argc != 3 || *argv[2] == '\0' || *end != '\0') {
        fprintf(stderr, "usage: %s PLAN_FILE DRIVER_PID\n", argv[0]);
        return EXIT_NO_RANK;
    }
    wait_at_gate(argv[1], driver);
    read_plan(argv[1]);
    char *names = strdup(field());
    const char *rank = "";
    for (char *name = strtok(names, " "); name; name = strtok(NULL, " ")) {
        const char *value = getenv(name);
        if (value && *value) {
            rank = value;
            break;
        }
    }
    const char *cgroup = field(), *workdir = field(), *status_dir = field();
    long job_variables = number();
    for (long k = 0; k < job_variables; k++) putenv((char *)field());
    long world = number();
    for (long i = 0; i < world; i++) {
        const char *this_rank = field(), *log = field();
        long variables = number();
        int mine = strcmp(this_rank, rank) == 0;
        for (long k = 0; k < variables; k++) {
            const char *assignment = field();
            if (mine) putenv((char *)assignment);
        }
        long count = number();
        if (!mine) {
            next_field += (size_t)count;
            continue;
        }
        char **command = calloc((size_t)count + 1, sizeof *command);
        for (long k = 0; command && k < count; k++) command[k] = (char *)field();
        if (!command || count < 1) return EXIT_NO_RANK;
        if (*cgroup) check_cgroup(cgroup, rank, log, status_dir);
        if (chdir(workdir) != 0) {
            fprintf(stderr, "acpt-estimator: cd %s: %s\n", workdir, strerror(errno));
            return EXIT_NO_WORKDIR;
        }
        setenv("PWD", workdir, 1);  /* as the shell's cd: the command's $PWD is its working directory */
        close_inherited();
        read_driver_policy(driver);
        int code = run(command, log, status_dir, rank);
        mark_exit(status_dir, rank, code);
        return code;
    }
    fprintf(stderr, "acpt-estimator: no MPI rank in this process (rank='%s'); was rank.sh started by mpiexec?\n", rank);
    return EXIT_NO_RANK;
}
