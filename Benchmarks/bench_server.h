/*
 * What both C servers of `make bench` share (ceiling.c, reference.c): how
 * they fail, read their numeric flags, and start the daemon. Define
 * PROGRAM_NAME (their messages' prefix) before including this file.
 *
 * The daemon is feed-server's:
 * feed-server's own flags (internal polling thread, epoll, suspend/resume
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

/* The daemon on 127.0.0.1:port (0: a free port) with `threads` threads,
 * answering with `answer`; `uri_log`, when not NULL, sees each request
 * target first. Sets *bound_port to the port it listens on; NULL when
 * libmicrohttpd refuses to start. */
static struct MHD_Daemon *start_feed_daemon(unsigned int port, unsigned int threads, MHD_AccessHandlerCallback answer,
                                            void *(*uri_log)(void *, const char *, struct MHD_Connection *),
                                            unsigned int *bound_port)
{
    struct sockaddr_in address = { 0 };
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    struct MHD_OptionItem options[8] = {
        { MHD_OPTION_CONNECTION_TIMEOUT, 15, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, 1024, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, 256, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, 36 * 1024, NULL },
        { MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024, NULL },
    };
    size_t count = 5;
    /* As feed-server: a pool of one is left out (libmicrohttpd warns about it). */
    if (threads > 1)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, threads, NULL };
    if (uri_log != NULL)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log, NULL };
    options[count] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };

    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                         MHD_USE_ERROR_LOG;
    struct MHD_Daemon *daemon = MHD_start_daemon(flags, 0, NULL, NULL, answer, NULL,
                                                 MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                                 MHD_OPTION_ARRAY, options,
                                                 MHD_OPTION_END);
    if (daemon != NULL) {
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
        *bound_port = info != NULL ? (unsigned int)info->port : port;
    }
    return daemon;
}

#endif
