// libmicrohttpd for pushbox's APNs-shaped intake. MHD_start_daemon is variadic, which Swift
// cannot call, so pb_mhd_start_external passes a fixed set of options. Imported only by PushboxIntake.
#ifndef PB_MHD_H
#define PB_MHD_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

typedef enum MHD_Result (*pb_mhd_handler)(void *cls, struct MHD_Connection *connection, const char *url,
                                          const char *method, const char *version, const char *upload_data,
                                          size_t *upload_data_size, void **request_context);
typedef void (*pb_mhd_completed)(void *cls, struct MHD_Connection *connection, void **request_context,
                                 enum MHD_RequestTerminationCode code);

/// A daemon with an internal epoll thread pool that listens on nothing and serves the connections
/// handed to it with pb_mhd_add: those pushbox accepted from its Unix socket, or from its TCP port
/// and told apart as HTTP/1.1 (in clear, or one end of a socket pair whose other end carries the
/// plaintext of a TLS connection). idle_timeout: seconds before an idle connection is closed;
/// connection_limit: open connections at most; memory_limit: bytes per connection for the
/// request line and headers.
struct MHD_Daemon *pb_mhd_start_external(unsigned int threads, unsigned int idle_timeout,
                                         unsigned int connection_limit, size_t memory_limit,
                                         pb_mhd_handler handler, pb_mhd_completed completed, void *cls);

/// Hands an accepted socket to the daemon, which owns (and closes) it from then on.
/// Returns MHD_YES or MHD_NO (the socket is then closed too).
int pb_mhd_add(struct MHD_Daemon *daemon, int fd);

/// The socket of a connection (MHD_CONNECTION_INFO_CONNECTION_FD; variadic, so Swift cannot call
/// it); -1 when unknown.
int pb_mhd_connection_fd(struct MHD_Connection *connection);

/// A response whose body is copied.
struct MHD_Response *pb_mhd_response(const void *body, size_t length);

typedef ssize_t (*pb_mhd_reader)(void *cls, uint64_t pos, char *buf, size_t max);
typedef void (*pb_mhd_free)(void *cls);

/// A response of unknown length (chunked) whose body `reader` writes as it comes: it returns 0
/// after suspending the connection when nothing is ready yet, -1 at the end; `done` frees `cls`.
struct MHD_Response *pb_mhd_stream_response(void *cls, pb_mhd_reader reader, pb_mhd_free done);

#endif
