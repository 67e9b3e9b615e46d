// Linux namespaces for `pushbox exec`: a child process in new network and mount namespaces (and a
// user namespace when not root), with only loopback up, files bind-mounted over the system's,
// listening sockets made inside and handed back, then the command exec'd.
// Imported only by PushboxSandbox.
#ifndef PB_NAMESPACE_H
#define PB_NAMESPACE_H
#include <sys/types.h>

/// The steps of making the namespaces, in the order the child takes them.
enum pb_sandbox_step {
    PB_STEP_NONE = 0,
    PB_STEP_FORK,
    PB_STEP_USER_NAMESPACE,
    PB_STEP_UID_MAP,
    PB_STEP_NETWORK_NAMESPACE,
    PB_STEP_MOUNT_NAMESPACE,
    PB_STEP_PRIVATE_MOUNTS,
    PB_STEP_LOOPBACK,
    PB_STEP_LISTEN,
    PB_STEP_BIND_MOUNT,
    PB_STEP_HAND_OVER,
    PB_STEP_EXEC,
};

/// At most this many listeners (ports × {127.0.0.1, ::1}).
#define PB_SANDBOX_MAX_LISTENERS 8
/// At most this many bind mounts.
#define PB_SANDBOX_MAX_BINDS 32

/// What to make. Every string and array is prepared by the caller before the fork: the child
/// only makes system calls.
typedef struct pb_sandbox_spec {
    /// The command (argv[0] looked up in envp's PATH); NULL for a check that execs nothing.
    char *const *argv;
    /// The command's environment.
    char *const *envp;
    /// 1: a user namespace too, mapping `uid_map` / `gid_map` ("0 1000 1"); 0 when root.
    int new_user;
    const char *uid_map;
    const char *gid_map;
    /// Ports to listen on inside, on 127.0.0.1 and (when it exists) ::1.
    const unsigned short *ports;
    int port_count;
    /// Files bound over system files: source[i] over target[i]. A target that does not exist is
    /// skipped (reported in `skipped_binds`).
    const char *const *bind_sources;
    const char *const *bind_targets;
    int bind_count;
    /// Bound over `hosts_target` when ::1 exists inside, else `hosts_v4_source` (no ::1 lines).
    const char *hosts_source;
    const char *hosts_v4_source;
    const char *hosts_target;
} pb_sandbox_spec;

/// What came of it.
typedef struct pb_sandbox_result {
    /// The child (the command, once exec'd); 0 when none is running.
    pid_t pid;
    /// Listening sockets made inside, now the caller's; `ports_of[i]` is listener i's port and
    /// `ipv6_of[i]` whether it is on ::1.
    int listeners[PB_SANDBOX_MAX_LISTENERS];
    unsigned short ports_of[PB_SANDBOX_MAX_LISTENERS];
    int ipv6_of[PB_SANDBOX_MAX_LISTENERS];
    int listener_count;
    /// Bitmask of binds skipped because their target does not exist (bit i: bind i).
    unsigned int skipped_binds;
    /// The step that failed (PB_STEP_NONE when none) and its errno.
    int failed_step;
    int error;
    /// Index of the bind or port the failed step was on, else -1.
    int failed_index;
    /// The control channel to the child until `pb_sandbox_wait_exec` closes it.
    int control;
} pb_sandbox_result;

/// Starts the child and waits until its namespaces are made and its listeners handed over (or a
/// step failed: then `failed_step` says which, and the child has been reaped). With argv NULL
/// the child exits 0 once everything is made (a check). Returns 0 on success, -1 on failure.
/// After success, `pb_sandbox_wait_exec` tells whether the command itself could be exec'd.
int pb_sandbox_start(const pb_sandbox_spec *spec, pb_sandbox_result *result);

/// Waits until the child has exec'd the command (0) or could not (-1, with `failed_step` =
/// PB_STEP_EXEC and `error` its errno; the child exits 127). Closes the control channel.
int pb_sandbox_wait_exec(pb_sandbox_result *result);

/// waitpid that retries on EINTR; gives the status as waitpid's, or -1.
int pb_wait_child(pid_t pid, int *status);

/// WIFEXITED/WEXITSTATUS/WIFSIGNALED/WTERMSIG as functions (macros do not import).
int pb_exited(int status);
int pb_exit_status(int status);
int pb_signaled(int status);
int pb_term_signal(int status);

#endif
