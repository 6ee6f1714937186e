// Non-variadic doors into libmicrohttpd: Swift cannot call C variadic functions.
#ifndef SECTIONAL_CMICROHTTPD_SHIM_H
#define SECTIONAL_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/resource.h>

/// MHD_SIZE_UNKNOWN is a macro, which Swift does not import.
static const uint64_t sectional_size_unknown = MHD_SIZE_UNKNOWN;

/// Starts a daemon with no listening socket of its own (connections reach it
/// through MHD_add_connection), with the accept policy,
/// the access handler, the per-request URI and completion callbacks, the
/// logger of libmicrohttpd's own messages, and further options in an
/// MHD_OPTION_END-terminated array.
static inline struct MHD_Daemon *
sectional_start_daemon(unsigned int flags,
                       MHD_AcceptPolicyCallback accept_policy, void *accept_policy_cls,
                       MHD_AccessHandlerCallback handler, void *handler_cls,
                       void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection),
                       void *uri_log_cls,
                       MHD_RequestCompletedCallback completed, void *completed_cls,
                       MHD_NotifyConnectionCallback connection_notify, void *connection_notify_cls,
                       MHD_LogCallback logger, void *logger_cls,
                       const struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC, 0, accept_policy, accept_policy_cls, handler, handler_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, connection_notify, connection_notify_cls,
                            MHD_OPTION_EXTERNAL_LOGGER, logger, logger_cls,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// The socket of a connection; -1 if libmicrohttpd cannot tell.
static inline int
sectional_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// What the connection-notify callback stored for the connection; NULL if none.
static inline void *
sectional_connection_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// The client's address as accepted; NULL if libmicrohttpd cannot tell.
static inline const struct sockaddr *
sectional_connection_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// The number of connections the daemon holds open (all worker threads).
static inline unsigned int
sectional_daemon_connection_count(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

/// Gives the calling thread (not the process) a nice value: Linux takes a thread id for PRIO_PROCESS.
static inline void
sectional_set_thread_nice(int nice)
{
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}
#endif
