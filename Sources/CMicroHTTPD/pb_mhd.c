#include "pb_mhd.h"

struct MHD_Daemon *pb_mhd_start(int listen_fd, unsigned int threads, unsigned int idle_timeout,
                                unsigned int connection_limit, size_t memory_limit,
                                pb_mhd_handler handler, pb_mhd_completed completed, void *cls) {
    return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0,
                            NULL, NULL, handler, cls,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_END);
}

struct MHD_Response *pb_mhd_response(const void *body, size_t length) {
    return MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
}
