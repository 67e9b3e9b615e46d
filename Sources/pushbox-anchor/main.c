// pushbox-anchor: the cheapest durable intake, the yardstick of `pushbox-bench intake`.
// libmicrohttpd on a Unix socket (the same options as pushbox's server) answering every POST
// after one SQLite insert of the body in WAL mode with synchronous=NORMAL, autocommit.
//   pushbox-anchor SOCKET DATABASE THREADS        (runs until SIGTERM or SIGINT)
#include <microhttpd.h>
#include <sqlite3.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static sqlite3 *db;
static sqlite3_stmt *insert;
static pthread_mutex_t db_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct { char *body; size_t length, capacity; } request;

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *data, size_t *size, void **state) {
    (void)cls; (void)url; (void)method; (void)version;
    request *r = *state;
    if (!r) {
        r = calloc(1, sizeof *r);
        *state = r;
        return MHD_YES;
    }
    if (*size) {
        if (r->length + *size > 65536) return MHD_NO;
        if (r->length + *size > r->capacity) {
            r->capacity = (r->length + *size) * 2;
            r->body = realloc(r->body, r->capacity);
        }
        memcpy(r->body + r->length, data, *size);
        r->length += *size;
        *size = 0;
        return MHD_YES;
    }
    char id[40];
    unsigned char random[16];
    for (int i = 0; i < 16; i++) random[i] = (unsigned char)rand();
    snprintf(id, sizeof id, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", random[0], random[1], random[2], random[3],
             random[4], random[5], random[6], random[7], random[8], random[9], random[10], random[11], random[12], random[13], random[14], random[15]);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    pthread_mutex_lock(&db_lock);
    sqlite3_bind_text(insert, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(insert, 2, (double)now.tv_sec + now.tv_nsec / 1e9);
    sqlite3_bind_blob(insert, 3, r->body ? r->body : "", (int)r->length, SQLITE_TRANSIENT);
    int rc = sqlite3_step(insert);
    sqlite3_reset(insert);
    pthread_mutex_unlock(&db_lock);
    struct MHD_Response *response = MHD_create_response_from_buffer(0, "", MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "apns-id", id);
    enum MHD_Result queued = MHD_queue_response(connection, rc == SQLITE_DONE ? 200 : 500, response);
    MHD_destroy_response(response);
    return queued;
}

static void completed(void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code) {
    (void)cls; (void)connection; (void)code;
    request *r = *state;
    if (r) { free(r->body); free(r); }
    *state = NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: pushbox-anchor SOCKET DATABASE THREADS\n"); return 2; }
    if (sqlite3_open(argv[2], &db) != SQLITE_OK) { fprintf(stderr, "cannot open %s\n", argv[2]); return 1; }
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                     "CREATE TABLE IF NOT EXISTS notifications (id INTEGER PRIMARY KEY, apns_id TEXT NOT NULL, received_at REAL NOT NULL, raw BLOB NOT NULL);",
                 NULL, NULL, NULL);
    if (sqlite3_prepare_v2(db, "INSERT INTO notifications (apns_id, received_at, raw) VALUES (?, ?, ?)", -1, &insert, NULL) != SQLITE_OK) return 1;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
    unlink(argv[1]);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 256) != 0) { perror("bind"); return 1; }
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    struct MHD_Daemon *daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, NULL, NULL, answer, NULL,
                                                 MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)atoi(argv[3]),
                                                 MHD_OPTION_CONNECTION_TIMEOUT, 30u, MHD_OPTION_CONNECTION_LIMIT, 256u,
                                                 MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
                                                 MHD_OPTION_END);
    if (!daemon) { fprintf(stderr, "libmicrohttpd could not start\n"); return 1; }
    fprintf(stderr, "pushbox-anchor: listening on %s\n", argv[1]);
    int received;
    sigwait(&signals, &received);
    MHD_stop_daemon(daemon);
    sqlite3_finalize(insert);
    sqlite3_close(db);
    unlink(argv[1]);
    return 0;
}
