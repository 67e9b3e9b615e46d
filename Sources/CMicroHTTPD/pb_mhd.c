#include "pb_mhd.h"
#include <string.h>
#include <sys/un.h>
#include <unistd.h>


struct MHD_Response *pb_mhd_response(const void *body, size_t length) {
    return MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
}

struct MHD_Response *pb_mhd_stream_response(void *cls, pb_mhd_reader reader, pb_mhd_free done) {
    return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, reader, cls, done);
}

/// The one kind of daemon pushbox starts: it listens on nothing and serves the connections
/// handed over with pb_mhd_add, spread over its pool by descriptor (ITC wakes the pool for them).
struct MHD_Daemon *pb_mhd_start_external(unsigned int threads, unsigned int idle_timeout,
                                         unsigned int connection_limit, size_t memory_limit,
                                         pb_mhd_handler handler, pb_mhd_completed completed, void *cls) {
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_THREAD_POOL_SIZE, threads, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)memory_limit, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, cls},
        {MHD_OPTION_END, 0, NULL},
    };
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC | MHD_USE_NO_LISTEN_SOCKET |
                         MHD_ALLOW_SUSPEND_RESUME;
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

int pb_mhd_add(struct MHD_Daemon *daemon, int fd) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    memset(&address, 0, sizeof address);
    if (getpeername(fd, (struct sockaddr *)&address, &length) != 0 || address.ss_family == AF_UNIX) {
        // A socket pair has no peer name: an AF_UNIX address with an empty path stands in.
        memset(&address, 0, sizeof address);
        address.ss_family = AF_UNIX;
        length = sizeof(struct sockaddr_un);
    }
    if (MHD_add_connection(daemon, fd, (const struct sockaddr *)&address, length) != MHD_YES) {
        return MHD_NO;  // libmicrohttpd has closed the socket
    }
    return MHD_YES;
}

int pb_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}
