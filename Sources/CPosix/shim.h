// libc functions Swift's Glibc module hides (it is imported without _GNU_SOURCE).
// Imported only by PushboxIntake.
#include <sys/types.h>
#include <sys/resource.h>

// glibc 2.30+ defines gettid() but declares it only under _GNU_SOURCE.
pid_t gettid(void);

// Lowers the calling thread's scheduling priority (Linux keeps a nice value per thread).
static inline int pb_set_thread_nice(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)gettid(), nice);
}

#include <sys/random.h>

// Fills `buffer` with `length` random bytes from the kernel in as few calls as it takes
// (`getrandom` returns at most 32 MB a call and may be interrupted); 0 on success.
static inline int pb_random_bytes(void *buffer, size_t length) {
    size_t done = 0;
    while (done < length) {
        ssize_t got = getrandom((char *)buffer + done, length - done, 0);
        if (got < 0) return -1;
        done += (size_t)got;
    }
    return 0;
}

#include <sched.h>
#ifndef SCHED_IDLE
#define SCHED_IDLE 5
#endif

// Puts the calling thread in Linux's SCHED_IDLE class: it runs only on a core nothing else wants.
static inline int pb_set_thread_idle(void) {
    struct sched_param param = {0};
    return sched_setscheduler(0, SCHED_IDLE, &param);
}

#include <sys/socket.h>

// The pid of the process at the other end of a connected Unix socket (SO_PEERCRED, 17 on Linux;
// `struct ucred` is hidden without _GNU_SOURCE, so its layout is spelled here), or -1.
static inline pid_t pb_peer_pid(int fd) {
    struct { pid_t pid; uid_t uid; gid_t gid; } cred;
    socklen_t length = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, 17, &cred, &length) != 0) return -1;
    return cred.pid;
}
