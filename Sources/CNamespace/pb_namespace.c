#define _GNU_SOURCE
#include "pb_namespace.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/// One message from the child: a failed step, or (with the listeners as SCM_RIGHTS) success.
struct pb_message {
    int step;
    int error;
    int index;
    int count;
    unsigned short ports[PB_SANDBOX_MAX_LISTENERS];
    int ipv6[PB_SANDBOX_MAX_LISTENERS];
    unsigned int skipped;
};

/// In the child: says which step failed and exits.
static void child_fail(int control, int step, int index, int code) {
    struct pb_message m;
    memset(&m, 0, sizeof m);
    m.step = step;
    m.error = errno;
    m.index = index;
    send(control, &m, sizeof m, MSG_NOSIGNAL);
    _exit(code);
}

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t length = strlen(text);
    ssize_t n = write(fd, text, length);
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)length ? 0 : -1;
}

static int bring_loopback_up(void) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
    int rc = ioctl(fd, SIOCGIFFLAGS, &ifr);
    if (rc == 0) {
        ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
        rc = ioctl(fd, SIOCSIFFLAGS, &ifr);
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

static int listen_on(int family, unsigned short port) {
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    int rc;
    if (family == AF_INET) {
        struct sockaddr_in a;
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    } else {
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &yes, sizeof yes);
        struct sockaddr_in6 a;
        memset(&a, 0, sizeof a);
        a.sin6_family = AF_INET6;
        a.sin6_port = htons(port);
        a.sin6_addr = in6addr_loopback;
        rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    }
    if (rc != 0 || listen(fd, 256) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/// Binds `source` over `target`; 1 when the target does not exist (skipped), 0 done, -1 failed.
static int bind_over(const char *source, const char *target) {
    struct stat info;
    if (stat(target, &info) != 0) return errno == ENOENT ? 1 : -1;
    return mount(source, target, NULL, MS_BIND, NULL) == 0 ? 0 : -1;
}

/// Everything the child does; never returns.
static void child(const pb_sandbox_spec *spec, int control, pid_t parent) {
    // The command must not outlive pushbox, whose relays are its only network.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(126);
    // pushbox blocks the signals it waits for and ignores SIGPIPE; the command starts clean.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig != SIGKILL && sig != SIGSTOP) signal(sig, SIG_DFL);
    }
    if (spec->new_user) {
        if (unshare(CLONE_NEWUSER) != 0) child_fail(control, PB_STEP_USER_NAMESPACE, -1, 126);
        if (write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT) child_fail(control, PB_STEP_UID_MAP, 0, 126);
        if (write_file("/proc/self/uid_map", spec->uid_map) != 0) child_fail(control, PB_STEP_UID_MAP, 1, 126);
        if (write_file("/proc/self/gid_map", spec->gid_map) != 0) child_fail(control, PB_STEP_UID_MAP, 2, 126);
    }
    if (unshare(CLONE_NEWNET) != 0) child_fail(control, PB_STEP_NETWORK_NAMESPACE, -1, 126);
    if (unshare(CLONE_NEWNS) != 0) child_fail(control, PB_STEP_MOUNT_NAMESPACE, -1, 126);
    // Nothing mounted here may reach the host's mount table.
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) child_fail(control, PB_STEP_PRIVATE_MOUNTS, -1, 126);
    if (bring_loopback_up() != 0) child_fail(control, PB_STEP_LOOPBACK, -1, 126);

    struct pb_message m;
    memset(&m, 0, sizeof m);
    int fds[PB_SANDBOX_MAX_LISTENERS];
    int count = 0;
    int have_v6 = 0;
    for (int i = 0; i < spec->port_count && count + 2 <= PB_SANDBOX_MAX_LISTENERS; i++) {
        int fd = listen_on(AF_INET, spec->ports[i]);
        if (fd < 0) child_fail(control, PB_STEP_LISTEN, i, 126);
        m.ports[count] = spec->ports[i];
        m.ipv6[count] = 0;
        fds[count++] = fd;
        int fd6 = listen_on(AF_INET6, spec->ports[i]);
        if (fd6 >= 0) {
            have_v6 = 1;
            m.ports[count] = spec->ports[i];
            m.ipv6[count] = 1;
            fds[count++] = fd6;
        }
    }
    for (int i = 0; i < spec->bind_count && i < PB_SANDBOX_MAX_BINDS; i++) {
        int rc = bind_over(spec->bind_sources[i], spec->bind_targets[i]);
        if (rc < 0) child_fail(control, PB_STEP_BIND_MOUNT, i, 126);
        if (rc > 0) m.skipped |= 1U << i;
    }
    if (spec->hosts_target != NULL) {
        const char *source = have_v6 ? spec->hosts_source : spec->hosts_v4_source;
        int rc = bind_over(source, spec->hosts_target);
        if (rc < 0) child_fail(control, PB_STEP_BIND_MOUNT, spec->bind_count, 126);
        if (rc > 0) m.skipped |= 1U << (PB_SANDBOX_MAX_BINDS - 1);
    }

    // The listeners go to pushbox, which accepts on them from outside.
    m.step = PB_STEP_NONE;
    m.count = count;
    char space[CMSG_SPACE(sizeof(int) * PB_SANDBOX_MAX_LISTENERS)];
    memset(space, 0, sizeof space);
    struct iovec iov = {.iov_base = &m, .iov_len = sizeof m};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (count > 0) {
        msg.msg_control = space;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)count);
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)count);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)count);
    }
    if (sendmsg(control, &msg, MSG_NOSIGNAL) < 0) child_fail(control, PB_STEP_HAND_OVER, -1, 126);
    for (int i = 0; i < count; i++) close(fds[i]);
    if (spec->argv == NULL) _exit(0);
    // Only 0, 1 and 2 reach the command: every other descriptor of pushbox closes on exec.
    if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
        for (int fd = 3; fd < 4096; fd++) fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    execvpe(spec->argv[0], spec->argv, spec->envp);
    child_fail(control, PB_STEP_EXEC, -1, 127);
}

int pb_sandbox_start(const pb_sandbox_spec *spec, pb_sandbox_result *result) {
    memset(result, 0, sizeof *result);
    result->failed_index = -1;
    result->control = -1;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
        result->failed_step = PB_STEP_FORK;
        result->error = errno;
        return -1;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        result->failed_step = PB_STEP_FORK;
        result->error = errno;
        close(pair[0]);
        close(pair[1]);
        return -1;
    }
    if (pid == 0) {
        close(pair[0]);
        child(spec, pair[1], parent);
    }
    close(pair[1]);
    struct pb_message m;
    memset(&m, 0, sizeof m);
    char space[CMSG_SPACE(sizeof(int) * PB_SANDBOX_MAX_LISTENERS)];
    struct iovec iov = {.iov_base = &m, .iov_len = sizeof m};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = space;
    msg.msg_controllen = sizeof space;
    ssize_t n;
    do { n = recvmsg(pair[0], &msg, MSG_CMSG_CLOEXEC); } while (n < 0 && errno == EINTR);
    if (n != (ssize_t)sizeof m || m.step != PB_STEP_NONE) {
        result->failed_step = n == (ssize_t)sizeof m ? m.step : PB_STEP_HAND_OVER;
        result->error = n == (ssize_t)sizeof m ? m.error : (n < 0 ? errno : 0);
        result->failed_index = n == (ssize_t)sizeof m ? m.index : -1;
        close(pair[0]);
        int status;
        pb_wait_child(pid, &status);
        return -1;
    }
    result->pid = pid;
    result->skipped_binds = m.skipped;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    if (m.count > 0 && c != NULL && c->cmsg_type == SCM_RIGHTS) {
        int got = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        memcpy(result->listeners, CMSG_DATA(c), sizeof(int) * (size_t)got);
        result->listener_count = got;
        for (int i = 0; i < got; i++) {
            result->ports_of[i] = m.ports[i];
            result->ipv6_of[i] = m.ipv6[i];
        }
    }
    result->control = pair[0];
    return 0;
}

int pb_sandbox_wait_exec(pb_sandbox_result *result) {
    if (result->control < 0) return 0;
    struct pb_message m;
    ssize_t n;
    do { n = recv(result->control, &m, sizeof m, 0); } while (n < 0 && errno == EINTR);
    close(result->control);
    result->control = -1;
    if (n == (ssize_t)sizeof m && m.step != PB_STEP_NONE) {
        result->failed_step = m.step;
        result->error = m.error;
        return -1;
    }
    return 0;
}

int pb_wait_child(pid_t pid, int *status) {
    pid_t got;
    do { got = waitpid(pid, status, 0); } while (got < 0 && errno == EINTR);
    return got < 0 ? -1 : 0;
}

int pb_exited(int status) { return WIFEXITED(status); }
int pb_exit_status(int status) { return WEXITSTATUS(status); }
int pb_signaled(int status) { return WIFSIGNALED(status); }
int pb_term_signal(int status) { return WTERMSIG(status); }
