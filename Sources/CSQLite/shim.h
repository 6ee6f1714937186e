// SQLite's C API as Swift sees it.
#ifndef SECTIONAL_CSQLITE_SHIM_H
#define SECTIONAL_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
/// does not import: SQLite copies the bound bytes before the call returns.
static inline sqlite3_destructor_type sectional_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/// Turns off SQLite's count of the memory it holds, before its first
/// connection: counting takes one mutex for the whole process at every
/// allocation (Debian's build has no lookaside, so that is nearly every
/// step), and the threads reading at once wait for each other on it.
/// `sqlite3_config` takes variable arguments, which Swift cannot pass.
/// Returns SQLITE_MISUSE when SQLite was already initialised.
static inline int sectional_sqlite_stop_counting_memory(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

#endif
