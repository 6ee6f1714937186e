// libpq, PostgreSQL's C client, as Swift sees it.
#ifndef SECTIONAL_CLIBPQ_SHIM_H
#define SECTIONAL_CLIBPQ_SHIM_H

#include <libpq-fe.h>

/// Drops server NOTICEs, which libpq prints to standard error by default.
static void sectional_pq_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }

static inline void sectional_pq_silence_notices(PGconn *connection) {
    PQsetNoticeProcessor(connection, sectional_pq_ignore_notice, 0);
}

#endif
