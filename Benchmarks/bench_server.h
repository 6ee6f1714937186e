/*
 * What the C servers of `make bench` share (ceiling.c, reference.c,
 * feed_sqlite.c): how they fail, read their numeric flags, and start the
 * daemon. Define PROGRAM_NAME (their messages' prefix) before including this file.
 *
 * The daemons are feed-server's: one a worker thread, each on its own
 * SO_REUSEPORT socket (or, to compare, a thread pool sharing one socket),
 * with feed-server's own flags (internal polling thread, epoll, suspend/resume
 * allowed, error log) and hardening options (Sources/HTTPServer's
 * ServerConfiguration: connection timeout 15 s, 1024 connections, 256 per
 * client address, 36 KiB of memory per connection, a listen backlog of
 * 1024), on 127.0.0.1, so that a comparison measures the answers only.
 */
#ifndef BENCH_SERVER_H
#define BENCH_SERVER_H

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/* Says what went wrong (and about what, when `detail` is set) and exits 2. */
static void die(const char *message, const char *detail)
{
    fprintf(stderr, PROGRAM_NAME ": %s%s%s\n", message, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

/* The value of a numeric flag, at most `max`; a bad one ends the program. */
static unsigned int number(const char *text, const char *flag, unsigned long max)
{
    char *end;
    errno = 0;
    unsigned long value = strtoul(text, &end, 10);
    if (errno != 0 || *text == '\0' || *end != '\0' || value > max)
        die("bad number for", flag);
    return (unsigned int)value;
}

/* One thread per core, as feed-server's default. */
static unsigned int default_threads(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (unsigned int)cores : 1;
}

/* Blocks SIGINT and SIGTERM for this thread and those it starts later (call
 * it before the daemon starts its workers); sigwait on the set it returns. */
static sigset_t block_stop_signals(void)
{
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    return stop_signals;
}

/* How the worker threads take connections. As feed-server: a daemon each,
 * each with a listening socket of its own on the same port (SO_REUSEPORT),
 * so that the kernel spreads connections evenly over them. Shared: one
 * daemon whose thread pool shares one socket, the threads racing for each
 * connection (feed-server's layout before; `make bench` reports both). */
enum layout { DAEMON_PER_THREAD, SHARED_SOCKET };

#define MAX_DAEMONS 256
struct feed_daemons {
    struct MHD_Daemon *each[MAX_DAEMONS];
    unsigned int count;
};

static void stop_feed_daemons(struct feed_daemons *daemons)
{
    while (daemons->count > 0)
        MHD_stop_daemon(daemons->each[--daemons->count]);
}

/* `threads` worker threads on 127.0.0.1:port (0: a free port) laid out as
 * `layout` says, answering with `answer`; `uri_log`, when not NULL, sees
 * each request target first; `answer_cls`, when not NULL, holds the `cls`
 * each daemon's `answer` is called with (one a daemon: `threads` of them
 * with DAEMON_PER_THREAD). Sets *bound_port to the port they listen on;
 * 0 when libmicrohttpd refuses to start a daemon (the others are stopped). */
static int start_feed_daemons_with(unsigned int port, unsigned int threads, enum layout layout,
                                   MHD_AccessHandlerCallback answer,
                                   void *(*uri_log)(void *, const char *, struct MHD_Connection *),
                                   void *const *answer_cls, unsigned int *bound_port, struct feed_daemons *daemons)
{
    struct sockaddr_in address = { 0 };
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    unsigned int per_thread = layout == DAEMON_PER_THREAD;
    /* feed-server's limits are for the whole server: each daemon has its share. */
    unsigned int daemon_count = per_thread ? threads : 1;
    struct MHD_OptionItem options[8] = {
        { MHD_OPTION_CONNECTION_TIMEOUT, 15, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, (1024 + daemon_count - 1) / daemon_count, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, 256, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, 36 * 1024, NULL },
        { MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024, NULL },
    };
    size_t count = 5;
    if (per_thread)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_LISTENING_ADDRESS_REUSE, 1, NULL };
    /* As feed-server did: a pool of one is left out (libmicrohttpd warns about it). */
    else if (threads > 1)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, threads, NULL };
    if (uri_log != NULL)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log, NULL };
    options[count] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };

    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                         MHD_USE_ERROR_LOG;
    daemons->count = 0;
    for (unsigned int i = 0; i < daemon_count && i < MAX_DAEMONS; i++) {
        struct MHD_Daemon *daemon = MHD_start_daemon(flags, 0, NULL, NULL, answer, answer_cls ? answer_cls[i] : NULL,
                                                     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                                     MHD_OPTION_ARRAY, options,
                                                     MHD_OPTION_END);
        if (daemon == NULL) {
            stop_feed_daemons(daemons);
            return 0;
        }
        daemons->each[daemons->count++] = daemon;
        /* The first picks the port when asked for 0; the others join it. */
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
        if (info == NULL || info->port == 0) {
            stop_feed_daemons(daemons);
            return 0;
        }
        address.sin_port = htons(info->port);
        *bound_port = info->port;
    }
    return 1;
}

/* start_feed_daemons_with, every daemon's `answer` called with a NULL `cls`. */
static inline int start_feed_daemons(unsigned int port, unsigned int threads, enum layout layout,
                                     MHD_AccessHandlerCallback answer,
                                     void *(*uri_log)(void *, const char *, struct MHD_Connection *),
                                     unsigned int *bound_port, struct feed_daemons *daemons)
{
    return start_feed_daemons_with(port, threads, layout, answer, uri_log, NULL, bound_port, daemons);
}

/* A daemon per worker thread, as feed-server, each answering with its own
 * `cls` (answer_cls[i] for the i-th of `threads`): state of its thread's own. */
static inline int start_feed_daemons_each(unsigned int port, unsigned int threads, MHD_AccessHandlerCallback answer,
                                          void *const *answer_cls, unsigned int *bound_port,
                                          struct feed_daemons *daemons)
{
    return start_feed_daemons_with(port, threads, DAEMON_PER_THREAD, answer, NULL, answer_cls, bound_port, daemons);
}

/* Whether to answer now, in an access handler: the first call only marks
 * the request seen (queuing then would close the connection after this
 * request), and a request body is read and ignored. */
static inline int ready_to_answer(void **con_cls, size_t *upload_data_size)
{
    static char head_seen;
    if (*con_cls == NULL) {
        *con_cls = &head_seen;
        return 0;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0;
        return 0;
    }
    return 1;
}

#endif
