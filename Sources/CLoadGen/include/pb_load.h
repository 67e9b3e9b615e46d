// A C-speed load generator for pushbox-bench intake: keep-alive HTTP/1.1 clients on a Unix
// socket, each on its own thread, posting bodies in turn and timing every answer.
#ifndef PB_LOAD_H
#define PB_LOAD_H

#include <stdint.h>

typedef struct {
    int64_t acknowledged;  // answers with status 200
    int64_t failed;        // other statuses, or a request that got no answer
    double seconds;        // wall time of the whole run
} pb_load_result;

/// Posts `total` requests (bodies taken in turn) from `clients` connections to
/// `POST /3/device/<token>` on the socket at `path`, with `apns-topic` and `apns-push-type`.
/// `latencies_ms` (room for `total`) receives each request's latency; `ids` (room for
/// total * 37 bytes, may be NULL) the apns-id of each acknowledged request, NUL-separated.
pb_load_result pb_load_run(const char *path, int clients, int total, const char *const *bodies, const int *lengths, int nbodies,
                           double *latencies_ms, char *ids);

#endif
