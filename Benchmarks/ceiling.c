/*
 * ceiling: the fastest server libmicrohttpd allows for feed-server's answers.
 *
 * `make bench` measures feed-server against this program. It loads, once at
 * start, the exact response bytes (body and headers) feed-server returned for
 * each measured route, and answers every request for that request target
 * with them, pre-rendered: one MHD_Response per route, built once, queued on
 * every connection. Nothing is computed, allocated or copied per request.
 *
 * Everything else matches feed-server's daemons (Sources/HTTPServer): the
 * same flags (internal polling thread, epoll, suspend/resume allowed, error
 * log), one single-threaded daemon a worker thread, each on its own socket of
 * the same port (--shared-socket: one daemon's thread pool sharing one socket,
 * as feed-server ran before), the same hardening options (connection
 * timeout 15 s, 1024 connections, 256 per client address, 36 KiB of memory
 * per connection) and a listen backlog of 1024. Keep-alive is done right: the
 * response is queued on the handler's second call, never the first.
 *
 * Usage:
 *   ceiling [--port N] [--threads N] [--shared-socket] --route TARGET BODY HEADERS ...
 *
 *   TARGET   the request target as sent, query included: /feed?sections=a,b
 *   BODY     a file with the response body
 *   HEADERS  a file of "Name: value" lines (as curl -D writes them; the status
 *            line gives the status, 200 without one; Date, Content-Length,
 *            Connection, Transfer-Encoding and Keep-Alive are skipped, since
 *            libmicrohttpd writes those)
 *
 * Prints "ceiling: listening on http://127.0.0.1:PORT/" on standard error once
 * it answers (--port 0, the default, picks a free port). Any other target gets
 * a 404. SIGINT or SIGTERM stops it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define PROGRAM_NAME "ceiling"
#include "bench_server.h"

#define MAX_ROUTES 32

/*
 * Per-request state without allocation: the URI callback points *con_cls at
 * a route's `pending` marker; the handler's first call moves it to `ready`;
 * later calls queue the route's response.
 */
struct route {
    const char *target;
    struct MHD_Response *response;
    unsigned int status;
    char *body;
    char pending;
    char ready;
};

static struct route routes[MAX_ROUTES];
static size_t route_count;
static struct route not_found = { .target = "(any other target)" };

static char *read_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL)
        die(strerror(errno), path);
    size_t capacity = 1 << 16, used = 0;
    char *data = malloc(capacity);
    if (data == NULL)
        die("out of memory", NULL);
    size_t got;
    while ((got = fread(data + used, 1, capacity - used, file)) > 0) {
        used += got;
        if (used == capacity) {
            capacity *= 2;
            data = realloc(data, capacity);
            if (data == NULL)
                die("out of memory", NULL);
        }
    }
    if (ferror(file))
        die("cannot read", path);
    fclose(file);
    *size = used;
    return data;
}

static int header_is_written_by_mhd(const char *name)
{
    static const char *const skipped[] = {
        "Date", "Content-Length", "Connection", "Transfer-Encoding", "Keep-Alive",
    };
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        if (strcasecmp(name, skipped[i]) == 0)
            return 1;
    return 0;
}

/* Adds each "Name: value" line of the file to the response; returns the status line's code, 200 without one. */
static unsigned int add_headers(struct MHD_Response *response, const char *path)
{
    unsigned int status = MHD_HTTP_OK;
    size_t size;
    char *text = read_file(path, &size);
    text = realloc(text, size + 1);
    if (text == NULL)
        die("out of memory", NULL);
    text[size] = '\0';
    char *save = NULL;
    for (char *line = strtok_r(text, "\r\n", &save); line != NULL; line = strtok_r(NULL, "\r\n", &save)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "HTTP/", 5) == 0) {
            const char *code = strchr(line, ' ');
            if (code != NULL)
                status = (unsigned int)strtoul(code + 1, NULL, 10);
            continue;
        }
        if (colon == NULL)
            continue;
        *colon = '\0';
        char *value = colon + 1;
        while (*value == ' ' || *value == '\t')
            value++;
        if (header_is_written_by_mhd(line))
            continue;
        if (MHD_add_response_header(response, line, value) != MHD_YES)
            die("header refused", line);
    }
    free(text);
    return status;
}

static void add_route(const char *target, const char *body_path, const char *headers_path)
{
    if (route_count == MAX_ROUTES)
        die("too many routes", NULL);
    struct route *route = &routes[route_count++];
    size_t size;
    route->target = target;
    route->body = read_file(body_path, &size);
    route->response = MHD_create_response_from_buffer(size, route->body, MHD_RESPMEM_PERSISTENT);
    if (route->response == NULL)
        die("cannot create a response for", target);
    route->status = add_headers(route->response, headers_path);
}

static void *request_started(void *cls, const char *uri, struct MHD_Connection *connection)
{
    (void)cls;
    (void)connection;
    for (size_t i = 0; i < route_count; i++)
        if (strcmp(uri, routes[i].target) == 0)
            return &routes[i].pending;
    return &not_found.pending;
}

static struct route *route_of(const char *marker, int *ready)
{
    if (marker == &not_found.pending || marker == &not_found.ready) {
        *ready = marker == &not_found.ready;
        return &not_found;
    }
    for (size_t i = 0; i < route_count; i++)
        if (marker == &routes[i].pending || marker == &routes[i].ready) {
            *ready = marker == &routes[i].ready;
            return &routes[i];
        }
    return NULL;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **con_cls)
{
    (void)cls;
    (void)url;
    (void)method;
    (void)version;
    (void)upload_data;
    int ready;
    struct route *route = route_of(*con_cls, &ready);
    if (route == NULL)
        return MHD_NO;
    if (!ready) {
        /* First call: queuing now would close the connection after this request. */
        *con_cls = &route->ready;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        /* A request body: ignore it, answer once it is all read. */
        *upload_data_size = 0;
        return MHD_YES;
    }
    return MHD_queue_response(connection, route == &not_found ? MHD_HTTP_NOT_FOUND : route->status, route->response);
}

int main(int argc, char **argv)
{
    unsigned int port = 0;
    unsigned int threads = default_threads();
    enum layout layout = DAEMON_PER_THREAD;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
            port = number(argv[++i], "--port", 65535);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = number(argv[++i], "--threads", 256);
            if (threads == 0)
                die("--threads must be at least 1", NULL);
        } else if (strcmp(argv[i], "--shared-socket") == 0) {
            layout = SHARED_SOCKET;
        } else if (strcmp(argv[i], "--route") == 0 && i + 3 < argc) {
            add_route(argv[i + 1], argv[i + 2], argv[i + 3]);
            i += 3;
        } else {
            die("usage: ceiling [--port N] [--threads N] [--shared-socket] --route TARGET BODY HEADERS ...", NULL);
        }
    }
    if (route_count == 0)
        die("no --route given", NULL);

    static const char not_found_body[] = "Not Found\n";
    not_found.response = MHD_create_response_from_buffer(sizeof not_found_body - 1, (void *)not_found_body,
                                                         MHD_RESPMEM_PERSISTENT);
    if (not_found.response == NULL ||
        MHD_add_response_header(not_found.response, "Content-Type", "text/plain; charset=utf-8") != MHD_YES)
        die("cannot create the 404 response", NULL);

    /* Block the stop signals before any worker thread starts, then wait for one. */
    sigset_t stop_signals = block_stop_signals();
    unsigned int bound_port = port;
    struct feed_daemons daemons;
    if (!start_feed_daemons(port, threads, layout, answer, request_started, &bound_port, &daemons))
        die("libmicrohttpd refused to start (port in use?)", NULL);
    fprintf(stderr, "ceiling: listening on http://127.0.0.1:%u/ (%zu routes, %u threads%s)\n",
            bound_port, route_count, threads, layout == SHARED_SOCKET ? " sharing one socket" : "");

    int signal_number;
    sigwait(&stop_signals, &signal_number);
    stop_feed_daemons(&daemons);
    for (size_t i = 0; i < route_count; i++) {
        MHD_destroy_response(routes[i].response);
        free(routes[i].body);
    }
    MHD_destroy_response(not_found.response);
    return 0;
}
