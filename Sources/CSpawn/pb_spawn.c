#define _GNU_SOURCE
#include "pb_spawn.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

int pb_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
             const char *cwd, int in, int out, int err) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) return rc;
    rc = posix_spawnattr_init(&attr);
    if (rc != 0) { posix_spawn_file_actions_destroy(&actions); return rc; }
    // dup2 onto 0, 1, 2 clears close-on-exec on the copies; the originals close with the rest.
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, in, 0);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, out, 1);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, err, 2);
    // A daemon the child starts (tmux's server) must not inherit anything of the test process.
    if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (rc == 0 && cwd != NULL) rc = posix_spawn_file_actions_addchdir_np(&actions, cwd);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    if (rc == 0) rc = posix_spawnattr_setsigmask(&attr, &none);
    if (rc == 0) rc = posix_spawnattr_setsigdefault(&attr, &all);
    if (rc == 0) rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (rc == 0) rc = posix_spawn(pid, path, &actions, &attr, argv, envp);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    return rc;
}

int pb_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC) == 0 ? 0 : errno;
}
