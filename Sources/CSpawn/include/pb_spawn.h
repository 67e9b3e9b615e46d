// posix_spawn for the test support, with what Swift's Glibc module hides (it is imported
// without _GNU_SOURCE): close every descriptor above 2 in the child, and pipes made close-on-exec.
// Imported only by PushboxTestSupport.
#ifndef PB_SPAWN_H
#define PB_SPAWN_H
#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (NULL-terminated), in `cwd` when not NULL, with
/// `in`, `out` and `err` as its descriptors 0, 1 and 2 and no other descriptor open, default
/// signal dispositions and an empty signal mask. Returns 0 and sets `*pid`, or an errno value.
int pb_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
             const char *cwd, int in, int out, int err);

/// pipe2(fds, O_CLOEXEC): neither end leaks into a child spawned by anything else in the process.
int pb_pipe_cloexec(int fds[2]);

#endif
