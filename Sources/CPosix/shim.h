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
