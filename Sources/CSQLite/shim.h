// SQLite's C API as Swift sees it.
#ifndef SECTIONAL_CSQLITE_SHIM_H
#define SECTIONAL_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
/// does not import: SQLite copies the bound bytes before the call returns.
static inline sqlite3_destructor_type sectional_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
