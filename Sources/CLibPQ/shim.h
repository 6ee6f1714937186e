// libpq, PostgreSQL's C client, as Swift sees it: its types and constants
// from the header, its functions looked up at run time (see sectional_libpq_open).
#ifndef SECTIONAL_CLIBPQ_SHIM_H
#define SECTIONAL_CLIBPQ_SHIM_H

#include <dlfcn.h>
#include <postgresql/libpq-fe.h>
// For the pipeline's reading thread: another thread wakes it with an eventfd.
#include <sys/eventfd.h>

#pragma clang assume_nonnull begin

/// The libpq functions Sectional calls.
#define SECTIONAL_LIBPQ_FUNCTIONS(F)                                                                                   \
    F(PQcancel) F(PQclear) F(PQconnectdb) F(PQconsumeInput) F(PQenterPipelineMode) F(PQerrorMessage) F(PQexec)         \
    F(PQfinish) F(PQflush) F(PQfreeCancel) F(PQfreemem) F(PQgetCancel) F(PQgetisnull) F(PQgetResult) F(PQgetvalue)      \
    F(PQisBusy) F(PQnfields) F(PQnotifies) F(PQntuples) F(PQpipelineSync) F(PQprepare) F(PQreset) F(PQresultErrorField) \
    F(PQresultErrorMessage) F(PQresultStatus) F(PQsendPrepare) F(PQsendQueryPrepared) F(PQsetNoticeProcessor)          \
    F(PQsetnonblocking) F(PQsocket) F(PQstatus)

/// libpq's functions, found in libpq.so.5 when the first PostgreSQL
/// connection is made rather than linked: a server on SQLite or in memory
/// then never maps libpq and the TLS, Kerberos and LDAP libraries it brings
/// (about 2.6 MB resident).
struct sectional_libpq {
#define SECTIONAL_LIBPQ_FIELD(name) __typeof__(&name) name;
    SECTIONAL_LIBPQ_FUNCTIONS(SECTIONAL_LIBPQ_FIELD)
#undef SECTIONAL_LIBPQ_FIELD
};

/// Opens libpq (`soname`: libpq.so.5) and looks up its functions; on
/// failure, `*error` says why (the returned functions are then not to be called).
static inline struct sectional_libpq sectional_libpq_open(const char *soname, const char *_Nullable *_Nonnull error) {
    struct sectional_libpq functions = {0};
    *error = 0;
    void *_Nullable library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *error = dlerror();
        return functions;
    }
#define SECTIONAL_LIBPQ_LOOK_UP(name)                                                                                  \
    if (!(*(void *_Nullable *)&functions.name = dlsym(library, #name))) {                                            \
        *error = dlerror();                                                                                            \
        return functions;                                                                                              \
    }
    SECTIONAL_LIBPQ_FUNCTIONS(SECTIONAL_LIBPQ_LOOK_UP)
#undef SECTIONAL_LIBPQ_LOOK_UP
    return functions;
}

/// Drops server NOTICEs, which libpq prints to standard error by default.
static void sectional_pq_ignore_notice(void *_Nullable arg, const char *message) {
    (void)arg;
    (void)message;
}

static inline void sectional_pq_silence_notices(const struct sectional_libpq *functions, PGconn *connection) {
    functions->PQsetNoticeProcessor(connection, sectional_pq_ignore_notice, 0);
}

#pragma clang assume_nonnull end

#endif
