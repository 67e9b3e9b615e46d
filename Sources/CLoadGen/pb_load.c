#define _GNU_SOURCE
#include "pb_load.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    const char *path;
    int first, count, stride;
    const char *const *bodies;
    const int *lengths;
    int nbodies;
    double *latencies;
    char *ids;
    int64_t ok, failed;
} worker;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

static int connect_unix(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { close(fd); return -1; }
    return fd;
}

/// Reads one response (headers and a Content-Length body); returns the status, or -1.
static int read_response(int fd, char *buffer, size_t capacity, size_t *kept, char *id) {
    size_t have = *kept;
    for (;;) {
        buffer[have] = 0;
        char *end = strstr(buffer, "\r\n\r\n");
        if (end) {
            size_t head = (size_t)(end - buffer) + 4;
            long length = 0;
            char *cl = strcasestr(buffer, "\r\ncontent-length:");
            if (cl && cl < end) length = strtol(cl + 17, NULL, 10);
            while (have < head + (size_t)length) {
                ssize_t n = recv(fd, buffer + have, capacity - have - 1, 0);
                if (n <= 0) return -1;
                have += (size_t)n;
            }
            int status = (int)strtol(buffer + 9, NULL, 10);
            char *found = strcasestr(buffer, "\r\napns-id:");
            if (id && found && found < end) {
                found += 10;
                while (*found == ' ') found++;
                memcpy(id, found, 36);
                id[36] = 0;
            }
            size_t used = head + (size_t)length;
            memmove(buffer, buffer + used, have - used);
            *kept = have - used;
            return status;
        }
        if (have + 1 >= capacity) return -1;
        ssize_t n = recv(fd, buffer + have, capacity - have - 1, 0);
        if (n <= 0) return -1;
        have += (size_t)n;
    }
}

static void *run_worker(void *argument) {
    worker *w = argument;
    int fd = -1;
    char request[70000], response[16384];
    size_t kept = 0;
    for (int i = 0; i < w->count; i++) {
        int index = w->first + i * w->stride;
        if (fd < 0) { fd = connect_unix(w->path); kept = 0; }
        const char *body = w->bodies[index % w->nbodies];
        int length = w->lengths[index % w->nbodies];
        int head = snprintf(request, sizeof request,
                            "POST /3/device/5e1ec7ed00000000000000000000000000000000000000000000000000000000 HTTP/1.1\r\nHost: localhost\r\n"
                            "apns-topic: dev.pushbox.sample\r\napns-push-type: alert\r\nContent-Length: %d\r\n\r\n", length);
        if (length > (int)sizeof request - head) length = (int)sizeof request - head;
        memcpy(request + head, body, (size_t)length);
        double start = now_ms();
        char id[37] = {0};
        int status = -1;
        if (fd >= 0 && send(fd, request, (size_t)(head + length), MSG_NOSIGNAL) == head + length) {
            status = read_response(fd, response, sizeof response, &kept, id);
        }
        w->latencies[index] = now_ms() - start;
        if (status == 200) {
            w->ok++;
            if (w->ids) memcpy(w->ids + (size_t)index * 37, id, 37);
        } else {
            w->failed++;
            if (fd >= 0) { close(fd); fd = -1; }
        }
    }
    if (fd >= 0) close(fd);
    return NULL;
}

pb_load_result pb_load_run(const char *path, int clients, int total, const char *const *bodies, const int *lengths, int nbodies,
                           double *latencies_ms, char *ids) {
    pb_load_result result = {0, 0, 0};
    if (clients < 1) clients = 1;
    worker *workers = calloc((size_t)clients, sizeof *workers);
    pthread_t *threads = calloc((size_t)clients, sizeof *threads);
    double start = now_ms();
    for (int c = 0; c < clients; c++) {
        workers[c] = (worker){path, c, total / clients + (c < total % clients ? 1 : 0), clients, bodies, lengths, nbodies, latencies_ms, ids, 0, 0};
        pthread_create(&threads[c], NULL, run_worker, &workers[c]);
    }
    for (int c = 0; c < clients; c++) {
        pthread_join(threads[c], NULL);
        result.acknowledged += workers[c].ok;
        result.failed += workers[c].failed;
    }
    result.seconds = (now_ms() - start) / 1000.0;
    free(workers);
    free(threads);
    return result;
}
