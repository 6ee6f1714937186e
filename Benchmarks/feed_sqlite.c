/*
 * feed_sqlite: feed-server's signed-in feed, in plain C, on the same SQLite file.
 *
 * `make bench` measures feed-server on SQLite against this program, both
 * reading one database file (made and seeded by feed-server). It answers
 * GET /feed, GET /feed/sections/{id} (one card) and GET /api/feed/sections
 * (the page's composition as JSON) doing per request what feed-server does,
 * with the SQLite C API and no framework:
 *
 *   - the session: the `sectional_session` cookie read from the Cookie field
 *     as SessionCookie reads it; a well-formed token (64 hex digits) hashed
 *     as SecretToken hashes it (BLAKE2b-256, as lowercase hex), each worker
 *     remembering the hashes of tokens it saw lately, as feed-server's
 *     SecretTokenMemo does; the session row looked up (sessions JOIN users),
 *     an expired one deleted and a live one's last_seen_at written at most
 *     once a minute, as Accounts does (--session-idle, --session-lifetime),
 *     on the one writer connection all workers share;
 *   - the user's saved layout of the page "feed" (layouts), else the
 *     defaults: balances, alerts, credit score;
 *   - each shown section's query, SQLStore's SQL (accounts, alerts, credit
 *     scores; transactions for recent activity), prepared once per
 *     connection: a read connection per worker thread, on the file in WAL
 *     mode, as feed-server reads on SQLite (each reading thread its own
 *     connection, query_only, busy timeout 5 s; one writer connection with
 *     foreign keys on and synchronous FULL); a request's reads in one read
 *     transaction, as feed-server's (StatementBurst), and SQLite's memory
 *     count off, as feed-server sets it;
 *   - the page rendered into a fresh buffer, every text escaped as
 *     Sectional's HTMLWriter escapes it (& < > " ' as &amp; &lt; &gt; &quot;
 *     &#39;), every form's token signed as FormGuard signs it: SipHash-2-4
 *     (crypto_shorthash_siphashx24) of "form", NUL, the session's hash, NUL,
 *     the form's action, under a key derived by keyed BLAKE2b from the form
 *     key (secrets, name 'form-key', hex). The body must be byte for byte
 *     feed-server's (the bench checks it).
 *
 * Each data card's data-live version (alerts, accounts, credit-score and
 * transactions of the user) is read once at start from live_versions, as
 * feed-server fills its live hub at start (later changes it learns by
 * watching the file; this program makes none but session upkeep, on a table
 * no trigger watches). The page goes out whole, with a Content-Length: on
 * SQLite feed-server streams it (chunked), the same bytes.
 *
 * The daemons are ceiling.c's and reference.c's (bench_server.h): one a
 * worker thread, each on its own SO_REUSEPORT socket, the same flags and
 * hardening options; each daemon's thread owns its read connection.
 * Keep-alive is done right: the response is queued on the handler's second
 * call, never the first. The answers carry the header fields feed-server
 * sends (it sends no Server-Timing with these).
 *
 * Not served here (they get a 501): a query naming sections, add, remove,
 * checkup, stream or pretty; API tokens (Authorization: Bearer) are not read.
 * Signed out, /feed and its cards get a bodiless 303 to /signin?next=PATH and
 * the API a 401. A failed query is a 500 (feed-server would show the
 * section's fallback).
 *
 * Usage:
 *   feed_sqlite --database [sqlite:]PATH [--port N] [--threads N]
 *               [--session-idle DURATION] [--session-lifetime DURATION]
 *
 *   DURATION  as feed-server reads it: 90s, 30m, 12h, 7d (defaults 30m and 7d)
 *
 * Prints "feed_sqlite: listening on http://127.0.0.1:PORT/feed" on standard
 * error once it answers (--port 0, the default, picks a free port). Any
 * other target gets a 404, another method a 405. SIGINT or SIGTERM stops it.
 */
#include <microhttpd.h>
#include <pthread.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PROGRAM_NAME "feed_sqlite"
#include "bench_server.h"
#include "bench_buffer.h"

/* Characters outside ASCII in the page, as UTF-8. */
#define MIDDLE_DOT "\xC2\xB7"    /* U+00B7, in the title */
#define BULLET "\xE2\x80\xA2"        /* U+2022, masking account numbers */
#define MINUS_SIGN "\xE2\x88\x92"    /* U+2212, before negative amounts */
#define ELLIPSIS "\xE2\x80\xA6"      /* U+2026, in the check-up's choices */

/* --- writing into a growing buffer ------------------------------------------- */

static void put_text(struct buffer *buffer, const char *text)
{
    put_bytes(buffer, text, strlen(text));
}

/* `length` bytes of text with & < > " ' escaped, as Sectional escapes text and attribute values. */
static void put_escaped(struct buffer *buffer, const char *text, size_t length)
{
    size_t clean = 0;
    for (size_t i = 0; i < length; i++) {
        const char *entity;
        switch (text[i]) {
        case '&': entity = "&amp;"; break;
        case '<': entity = "&lt;"; break;
        case '>': entity = "&gt;"; break;
        case '"': entity = "&quot;"; break;
        case '\'': entity = "&#39;"; break;
        default: continue;
        }
        put_bytes(buffer, text + clean, i - clean);
        put_text(buffer, entity);
        clean = i + 1;
    }
    put_bytes(buffer, text + clean, length - clean);
}

static void put_escaped_text(struct buffer *buffer, const char *text)
{
    put_escaped(buffer, text, strlen(text));
}

static unsigned long long magnitude(long long value)
{
    return value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
}

/* `value` in decimal into `digits` (room for 20); returns how many. Written
 * by hand, as feed-server writes its numbers: snprintf cost an eighth of a page. */
static size_t decimal(char *digits, unsigned long long value)
{
    char reversed[20];
    size_t length = 0;
    do {
        reversed[length++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    for (size_t i = 0; i < length; i++)
        digits[i] = reversed[length - 1 - i];
    return length;
}

static void put_integer(struct buffer *buffer, long long value)
{
    char digits[20];
    if (value < 0)
        PUT(buffer, "-");
    put_bytes(buffer, digits, decimal(digits, magnitude(value)));
}

/* An amount as feed-server writes it (Money+HTML): $23,845.12, −$1,842.33 (a minus sign). */
static void put_money(struct buffer *buffer, long long cents)
{
    char digits[20];
    size_t length = decimal(digits, magnitude(cents) / 100);
    if (cents < 0)
        PUT(buffer, MINUS_SIGN);
    PUT(buffer, "$");
    size_t first = length % 3 == 0 ? 3 : length % 3;
    put_bytes(buffer, digits, first);
    for (size_t i = first; i < length; i += 3) {
        PUT(buffer, ",");
        put_bytes(buffer, digits + i, 3);
    }
    unsigned fraction = (unsigned)(magnitude(cents) % 100);
    char cents_digits[3] = { '.', (char)('0' + fraction / 10), (char)('0' + fraction % 10) };
    put_bytes(buffer, cents_digits, sizeof cents_digits);
}

/* Lowercase hex, two digits a byte; `hex` gets 2 * length digits and a NUL. */
static void to_hex(const unsigned char *bytes, size_t length, char *hex)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < length; i++) {
        hex[2 * i] = digits[bytes[i] >> 4];
        hex[2 * i + 1] = digits[bytes[i] & 0xF];
    }
    hex[2 * length] = '\0';
}

/* --- the feed's sections and their composition (CompositionPlan) ------------- */

enum section { BALANCES, ALERTS, CREDIT_SCORE, RECENT_ACTIVITY, NOTICES, CHECKUP, SECTION_COUNT };

/* FeedPage's catalog, in its order. Ids and titles hold nothing to escape. */
static const struct {
    const char *id, *title;
} catalog[SECTION_COUNT] = {
    [BALANCES] = { "balances", "Balances" },
    [ALERTS] = { "alerts", "Alerts" },
    [CREDIT_SCORE] = { "credit-score", "Credit score" },
    [RECENT_ACTIVITY] = { "recent-activity", "Recent activity" },
    [NOTICES] = { "notices", "From your bank" },
    [CHECKUP] = { "checkup", "Financial check-up" },
};

static const enum section default_sections[] = { BALANCES, ALERTS, CREDIT_SCORE };
#define DEFAULT_COUNT (sizeof default_sections / sizeof default_sections[0])

/* A list of sections, each at most once. */
struct section_list {
    enum section at[SECTION_COUNT];
    size_t count;
};

static int contains(const struct section_list *list, enum section section)
{
    for (size_t i = 0; i < list->count; i++)
        if (list->at[i] == section)
            return 1;
    return 0;
}

static int same_sections(const struct section_list *a, const struct section_list *b)
{
    return a->count == b->count && memcmp(a->at, b->at, a->count * sizeof a->at[0]) == 0;
}

static struct section_list with_section(struct section_list list, enum section section)
{
    if (!contains(&list, section))
        list.at[list.count++] = section;
    return list;
}

static struct section_list without_section(const struct section_list *list, enum section section)
{
    struct section_list rest = { .count = 0 };
    for (size_t i = 0; i < list->count; i++)
        if (list->at[i] != section)
            rest.at[rest.count++] = list->at[i];
    return rest;
}

static int section_named(const char *name, size_t length, enum section *found)
{
    for (int i = 0; i < SECTION_COUNT; i++)
        if (strlen(catalog[i].id) == length && memcmp(catalog[i].id, name, length) == 0) {
            *found = (enum section)i;
            return 1;
        }
    return 0;
}

/* What a bare visit shows (`base`: the saved layout, else the defaults) and what this answer shows. */
struct plan {
    struct section_list shown, base;
    int saved; /* a saved layout was found: the JSON's "layout" is "saved" */
};

static struct section_list defaults(void)
{
    struct section_list list = { .count = DEFAULT_COUNT };
    memcpy(list.at, default_sections, sizeof default_sections);
    return list;
}

/* A saved layout's "a,b,c": empty items skipped, ids not in the catalog
 * dropped, each kept at its first place only (as SQLStore and CompositionPlan read it). */
static struct section_list parse_layout(const char *text, size_t length)
{
    struct section_list list = { .count = 0 };
    size_t start = 0;
    while (start < length) {
        size_t stop = start;
        while (stop < length && text[stop] != ',')
            stop++;
        enum section section;
        if (stop > start && section_named(text + start, stop - start, &section))
            list = with_section(list, section);
        start = stop + 1;
    }
    return list;
}

/* Text into a fixed buffer of `room` bytes (URLs here are short). */
struct fixed {
    char *data;
    size_t length, room;
};

static void fixed_put(struct fixed *out, const char *text)
{
    size_t length = strlen(text);
    if (out->length + length >= out->room)
        die("a URL outgrew its buffer", NULL);
    memcpy(out->data + out->length, text, length);
    out->length += length;
    out->data[out->length] = '\0';
}

/* The URL of the page showing `shown` (PageAddress): /feed, with a
 * `sections` list unless it shows the base; with `fragment`, that card's URL.
 * Ids need no percent-encoding. Returns its length; `out` ends with a NUL. */
static size_t page_url(char *out, size_t room, const struct section_list *shown, const struct section_list *base,
                       const enum section *fragment)
{
    struct fixed url = { out, 0, room };
    fixed_put(&url, "/feed");
    if (fragment != NULL) {
        fixed_put(&url, "/sections/");
        fixed_put(&url, catalog[*fragment].id);
    }
    if (!same_sections(shown, base)) {
        fixed_put(&url, "?sections=");
        for (size_t i = 0; i < shown->count; i++) {
            if (i > 0)
                fixed_put(&url, ",");
            fixed_put(&url, catalog[shown->at[i]].id);
        }
    }
    return url.length;
}

#define URL_ROOM 256

/* The URL, as an attribute value. */
static void put_page_url(struct buffer *page, const struct section_list *shown, const struct section_list *base)
{
    char url[URL_ROOM];
    put_escaped(page, url, page_url(url, sizeof url, shown, base, NULL));
}

/* --- what every worker shares: read once at start ------------------------------ */

/* FormGuard's SipHash key, derived from the form key. */
static unsigned char form_mac_key[crypto_shorthash_siphashx24_KEYBYTES];

/* live_versions' rows of the four kinds of data the cards show: the version each user's card shows. */
struct live_version {
    enum section section;
    long long user;
    long long version;
};
static struct live_version *live_versions;
static size_t live_version_count;

/* How long sessions live, in seconds (feed-server's --session-idle and --session-lifetime). */
static long long session_idle = 30 * 60, session_lifetime = 7 * 86400;
/* The page script's address as feed-server's pages link it (--script): its version is its content's hash. */
static const char *page_script = "/_sectional/sectional.js";
/* A session's last_seen_at is written at most this often (Accounts.touchInterval). */
#define TOUCH_INTERVAL 60

/* The live key's kind of each card with data (FeedApp's LiveData); NULL: the card is not live. */
static const char *const live_kind[SECTION_COUNT] = {
    [BALANCES] = "accounts",
    [ALERTS] = "alerts",
    [CREDIT_SCORE] = "credit-score",
    [RECENT_ACTIVITY] = "transactions",
    [NOTICES] = "notices",
};

/* The board of NoticesSection, every customer's: its live key's owner, kept as owner 0. */
#define NOTICE_BOARD "bank"
#define SHARED_OWNER 0

static long long live_version_of(enum section section, long long user)
{
    for (size_t i = 0; i < live_version_count; i++)
        if (live_versions[i].section == section && live_versions[i].user == user)
            return live_versions[i].version;
    return 0;
}

static int hex_value(char digit)
{
    if (digit >= '0' && digit <= '9')
        return digit - '0';
    if (digit >= 'a' && digit <= 'f')
        return digit - 'a' + 10;
    if (digit >= 'A' && digit <= 'F')
        return digit - 'A' + 10;
    return -1;
}

/* The form key (secrets, 'form-key': 64 hex digits), and from it the MAC's key as FormGuard derives it. */
static void load_form_key(sqlite3 *db)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, "SELECT value FROM secrets WHERE name = 'form-key'", -1, &statement, NULL) != SQLITE_OK)
        die("cannot read the form key", sqlite3_errmsg(db));
    if (sqlite3_step(statement) != SQLITE_ROW)
        die("no form key in secrets (start feed-server on this file first)", NULL);
    const char *hex = (const char *)sqlite3_column_text(statement, 0);
    unsigned char key[32];
    if (hex == NULL || sqlite3_column_bytes(statement, 0) != 64)
        die("the stored form key is malformed", NULL);
    for (int i = 0; i < 32; i++) {
        int high = hex_value(hex[2 * i]), low = hex_value(hex[2 * i + 1]);
        if (high < 0 || low < 0)
            die("the stored form key is malformed", NULL);
        key[i] = (unsigned char)(high << 4 | low);
    }
    sqlite3_finalize(statement);
    static const char label[] = "sectional form tokens";
    crypto_generichash(form_mac_key, sizeof form_mac_key, (const unsigned char *)label, sizeof label - 1, key,
                       sizeof key);
}

static void load_live_versions(sqlite3 *db)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, "SELECT key, version FROM live_versions", -1, &statement, NULL) != SQLITE_OK)
        die("cannot read live_versions", sqlite3_errmsg(db));
    while (sqlite3_step(statement) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(statement, 0);
        const char *colon = key ? strrchr(key, ':') : NULL;
        long long user;
        char rest;
        if (colon != NULL && strcmp(colon + 1, NOTICE_BOARD) == 0)
            user = SHARED_OWNER;
        else if (colon == NULL || sscanf(colon + 1, "%lld%c", &user, &rest) != 1)
            continue;
        for (int section = 0; section < SECTION_COUNT; section++) {
            const char *kind = live_kind[section];
            if (kind == NULL || strlen(kind) != (size_t)(colon - key) || strncmp(key, kind, (size_t)(colon - key)) != 0)
                continue;
            live_versions = checked(realloc(live_versions, (live_version_count + 1) * sizeof *live_versions));
            live_versions[live_version_count++] = (struct live_version){ section, user, sqlite3_column_int64(statement, 1) };
        }
    }
    sqlite3_finalize(statement);
}

/* --- a worker: its SQLite connection and statements --------------------------- */

/* SQLStore's and its accounts' reads, with SQLite's ?N for PostgreSQL's $N:
 * each worker's connection prepares them once. */
static const char *const sql_text[] = {
#define SQL_SESSION 0
    "SELECT u.id, u.name, u.display_name, s.created_at, s.last_seen_at\n"
    "FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?1",
#define SQL_LAYOUT 1
    "SELECT sections FROM layouts WHERE user_id = ?1 AND page = ?2",
#define SQL_ACCOUNTS 2
    "SELECT name, last_digits, balance_cents FROM accounts WHERE user_id = ?1 ORDER BY position",
#define SQL_ALERTS 3
    "SELECT id, severity, title, body, dismissed FROM alerts WHERE user_id = ?1 ORDER BY id",
#define SQL_CREDIT 4
    "SELECT score FROM credit_scores WHERE user_id = ?1 ORDER BY month DESC LIMIT 12",
#define SQL_TRANSACTIONS 5
    "SELECT day, merchant, amount_cents FROM transactions WHERE user_id = ?1 ORDER BY day DESC, id LIMIT ?2",
#define SQL_NOTICES 6
    "SELECT title, body, posted_on FROM notices WHERE board = ?1 ORDER BY posted_on DESC, id DESC LIMIT ?2",
/* A request's reads in one read transaction, as feed-server reads a request's (StatementBurst). */
#define SQL_BEGIN 7
    "BEGIN",
#define SQL_COMMIT 8
    "COMMIT",
};
#define SQL_COUNT (sizeof sql_text / sizeof sql_text[0])

/* The session upkeep's writes, on the one writer connection. */
static struct {
    pthread_mutex_t lock;
    sqlite3 *db;
    sqlite3_stmt *touch, *end_session;
} writer = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Tokens whose hashes a worker remembers, by their first digit. */
#define MEMO_SLOTS 16

/* One alert row, its texts in the worker's scratch buffer. */
struct alert_row {
    long long id;
    int severity; /* 0 info, 1 warning, 2 critical */
    size_t title, title_length, body, body_length;
};

struct worker {
    sqlite3 *db;
    sqlite3_stmt *statement[SQL_COUNT];
    struct {
        char token[64];
        char hash[65];
        int used;
    } memo[MEMO_SLOTS];
    struct buffer scratch;
    struct alert_row *alerts;
    size_t alert_capacity;
};

static void exec_or_die(sqlite3 *db, const char *sql)
{
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) != SQLITE_OK)
        die(message ? message : sqlite3_errmsg(db), sql);
}

/* A connection to the file, which must exist (feed-server makes it): as
 * feed-server's SQLiteConnection opens one, a reader or the writer. */
static sqlite3 *open_database(const char *path, int reader)
{
    sqlite3 *db = NULL;
    /* As feed-server configures SQLite before its first connection: no count
     * of its memory, whose process-wide mutex every allocation took. A no-op
     * (SQLITE_MISUSE) once SQLite is initialised by the first open. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        die(db ? sqlite3_errmsg(db) : "cannot open the database", path);
    sqlite3_busy_timeout(db, 5000);
    if (reader) {
        exec_or_die(db, "PRAGMA query_only = ON");
        return db;
    }
    exec_or_die(db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL");
    sqlite3_stmt *mode;
    if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &mode, NULL) != SQLITE_OK || sqlite3_step(mode) != SQLITE_ROW)
        die("cannot read the journal mode", sqlite3_errmsg(db));
    int wal = strcmp((const char *)sqlite3_column_text(mode, 0), "wal") == 0;
    sqlite3_finalize(mode);
    if (!wal)
        exec_or_die(db, "PRAGMA journal_mode = WAL");
    return db;
}

static sqlite3_stmt *prepared(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL) != SQLITE_OK)
        die(sqlite3_errmsg(db), sql);
    return statement;
}

static void open_writer(const char *path)
{
    writer.db = open_database(path, 0);
    writer.touch = prepared(writer.db, "UPDATE sessions SET last_seen_at = ?1 WHERE token_hash = ?2");
    writer.end_session = prepared(writer.db, "DELETE FROM sessions WHERE token_hash = ?1");
}

static struct worker *start_worker(const char *path)
{
    struct worker *worker = checked(calloc(1, sizeof *worker));
    worker->db = open_database(path, 1);
    for (size_t i = 0; i < SQL_COUNT; i++)
        worker->statement[i] = prepared(worker->db, sql_text[i]);
    worker->scratch = new_buffer(1024);
    return worker;
}

/* A text column of the current row and its length in bytes, read in the
 * order SQLite asks for (the text first); "" for NULL. */
static const char *column_text(sqlite3_stmt *row, int column, size_t *length)
{
    const char *text = (const char *)sqlite3_column_text(row, column);
    *length = (size_t)sqlite3_column_bytes(row, column);
    return text ? text : "";
}

/* A text column of the current row, escaped. */
static void put_column(struct buffer *page, sqlite3_stmt *row, int column)
{
    size_t length;
    const char *text = column_text(row, column, &length);
    put_escaped(page, text, length);
}

/* A statement ready to run again: reset, its parameters cleared (as SQLiteConnection leaves it). */
static void done_with(sqlite3_stmt *statement)
{
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
}

/* Runs a statement to its end, its rows unread; whether it worked. */
static int run_to_end(sqlite3_stmt *statement)
{
    int status;
    while ((status = sqlite3_step(statement)) == SQLITE_ROW)
        continue;
    done_with(statement);
    return status == SQLITE_DONE;
}

/* A session's upkeep on the writer: last_seen_at set to `now`, or (now < 0) the session deleted. */
static int write_session(const char *hash, long long now)
{
    pthread_mutex_lock(&writer.lock);
    sqlite3_stmt *statement = now < 0 ? writer.end_session : writer.touch;
    if (now < 0) {
        sqlite3_bind_text(statement, 1, hash, 64, SQLITE_STATIC);
    } else {
        sqlite3_bind_int64(statement, 1, now);
        sqlite3_bind_text(statement, 2, hash, 64, SQLITE_STATIC);
    }
    int ok = run_to_end(statement);
    pthread_mutex_unlock(&writer.lock);
    return ok;
}

/* --- the visitor: session cookie, session row (SessionCookie, SecretToken, Accounts) --- */

struct visitor {
    long long user;
    char session_hash[65]; /* the subject of every form token */
    size_t display_name, display_name_length; /* in the worker's scratch buffer */
};

enum visit { SIGNED_IN, SIGNED_OUT, UNAVAILABLE };

/* The value of the cookie `name` in a Cookie field, as SessionCookie finds it; NULL when absent. */
static const char *cookie_value(const char *field, const char *name, size_t *length)
{
    if (field == NULL)
        return NULL;
    size_t name_length = strlen(name), count = strlen(field), start = 0;
    while (start < count) {
        size_t end = start;
        while (end < count && field[end] != ';')
            end++;
        while (start < end && field[start] == ' ')
            start++;
        size_t value_start = start + name_length + 1;
        if (value_start <= end && field[value_start - 1] == '=' && memcmp(field + start, name, name_length) == 0) {
            *length = end - value_start;
            return field + value_start;
        }
        start = end + 1;
    }
    return NULL;
}

/* A token's form: 64 hex digits, of either case. */
static int well_formed(const char *token, size_t length)
{
    if (length != 64)
        return 0;
    for (size_t i = 0; i < length; i++)
        if (hex_value(token[i]) < 0)
            return 0;
    return 1;
}

/* The stored hash of a well-formed token: BLAKE2b-256 as hex, remembered per worker. */
static const char *token_hash(struct worker *worker, const char *token)
{
    unsigned slot = (unsigned)hex_value(token[0]) % MEMO_SLOTS;
    if (worker->memo[slot].used && memcmp(worker->memo[slot].token, token, 64) == 0)
        return worker->memo[slot].hash;
    unsigned char hash[32];
    crypto_generichash(hash, sizeof hash, (const unsigned char *)token, 64, NULL, 0);
    memcpy(worker->memo[slot].token, token, 64);
    to_hex(hash, sizeof hash, worker->memo[slot].hash);
    worker->memo[slot].used = 1;
    return worker->memo[slot].hash;
}

/* Who is signed in: the session's user, or signed out (an expired session is
 * deleted), or UNAVAILABLE when the database fails (feed-server's 503). */
static enum visit find_visitor(struct worker *worker, struct MHD_Connection *connection, struct visitor *visitor)
{
    size_t length;
    const char *token = cookie_value(MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Cookie"),
                                     "sectional_session", &length);
    if (token == NULL || !well_formed(token, length))
        return SIGNED_OUT;
    memcpy(visitor->session_hash, token_hash(worker, token), sizeof visitor->session_hash);

    sqlite3_stmt *session = worker->statement[SQL_SESSION];
    sqlite3_bind_text(session, 1, visitor->session_hash, 64, SQLITE_STATIC);
    int status = sqlite3_step(session);
    if (status != SQLITE_ROW) {
        done_with(session);
        return status == SQLITE_DONE ? SIGNED_OUT : UNAVAILABLE;
    }
    visitor->user = sqlite3_column_int64(session, 0);
    const char *name = column_text(session, 2, &visitor->display_name_length);
    visitor->display_name = worker->scratch.length;
    put_bytes(&worker->scratch, name, visitor->display_name_length);
    long long created = sqlite3_column_int64(session, 3), last_seen = sqlite3_column_int64(session, 4);
    done_with(session);

    long long now = (long long)time(NULL);
    if (now - created >= session_lifetime || now - last_seen >= session_idle)
        return write_session(visitor->session_hash, -1) ? SIGNED_OUT : UNAVAILABLE;
    if (now - last_seen >= TOUCH_INTERVAL && !write_session(visitor->session_hash, now))
        return UNAVAILABLE;
    return SIGNED_IN;
}

/* The user's saved layout of the feed, else the defaults, as the plan of a
 * bare visit. A layout that cannot be read shows the defaults (FeedPage logs it). */
static void read_plan(struct worker *worker, long long user, struct plan *plan)
{
    sqlite3_stmt *layout = worker->statement[SQL_LAYOUT];
    sqlite3_bind_int64(layout, 1, user);
    sqlite3_bind_text(layout, 2, "feed", 4, SQLITE_STATIC);
    plan->saved = sqlite3_step(layout) == SQLITE_ROW;
    if (plan->saved) {
        size_t length;
        const char *sections = column_text(layout, 0, &length);
        plan->base = parse_layout(sections, length);
    } else {
        plan->base = defaults();
    }
    done_with(layout);
    plan->shown = plan->base;
}

/* --- forms (FormGuard, PostForm) ------------------------------------------------- */

/* The token of the form posting to `action` in the visitor's session, as 32 hex digits. */
static void put_form_token(struct buffer *page, const struct visitor *visitor, const char *action)
{
    static const char domain[] = "form";
    size_t action_length = strlen(action);
    unsigned char message[sizeof domain + 65 + 128];
    size_t length = 0;
    if (action_length > 128)
        die("a form action is too long", action);
    memcpy(message, domain, sizeof domain); /* with its NUL */
    length += sizeof domain;
    memcpy(message + length, visitor->session_hash, 64);
    length += 64;
    message[length++] = '\0';
    memcpy(message + length, action, action_length);
    length += action_length;
    unsigned char mac[crypto_shorthash_siphashx24_BYTES];
    crypto_shorthash_siphashx24(mac, message, length, form_mac_key);
    char hex[2 * sizeof mac + 1];
    to_hex(mac, sizeof mac, hex);
    put_bytes(page, hex, 2 * sizeof mac);
}

/* A form of one button posting to `action` (PostForm): its token, the
 * optional `back` field, and for a section's form the section it refreshes
 * and what the button acts on. */
struct form {
    const char *css_class, *action, *label;
    const char *back;             /* the "back" field's value, or NULL */
    const struct section_list *sections; /* the "sections" field's value (the ids, commas between), or NULL */
    const char *refreshes;        /* a section id, or NULL */
    const char *label_object;     /* or NULL; `label_object_length` bytes */
    int primary;                  /* the button's role is the page's main action */
    size_t label_object_length;
};

/* <input type="hidden" name="sections" value="a,b">: a composition a form carries (ids need no escaping). */
static void put_sections_field(struct buffer *page, const struct section_list *sections)
{
    PUT(page, "<input type=\"hidden\" name=\"sections\" value=\"");
    for (size_t i = 0; i < sections->count; i++) {
        if (i > 0)
            PUT(page, ",");
        put_text(page, catalog[sections->at[i]].id);
    }
    PUT(page, "\">");
}

static void put_form(struct buffer *page, const struct visitor *visitor, const struct form *form)
{
    PUT(page, "<form class=\"");
    put_text(page, form->css_class);
    PUT(page, "\" method=\"post\" action=\"");
    put_escaped_text(page, form->action);
    PUT(page, "\"");
    if (form->refreshes != NULL) {
        PUT(page, " data-refresh=\"");
        put_escaped_text(page, form->refreshes);
        PUT(page, "\"");
    }
    PUT(page, "><input type=\"hidden\" name=\"token\" value=\"");
    put_form_token(page, visitor, form->action);
    PUT(page, "\">");
    if (form->back != NULL) {
        PUT(page, "<input type=\"hidden\" name=\"back\" value=\"");
        put_escaped_text(page, form->back);
        PUT(page, "\">");
    }
    if (form->sections != NULL)
        put_sections_field(page, form->sections);
    PUT(page, "<button type=\"submit\"");
    if (form->primary)
        PUT(page, " class=\"primary\"");
    if (form->label_object != NULL) {
        PUT(page, " aria-label=\"");
        put_escaped_text(page, form->label);
        PUT(page, " ");
        put_escaped(page, form->label_object, form->label_object_length);
        PUT(page, "\"");
    }
    PUT(page, ">");
    put_escaped_text(page, form->label);
    PUT(page, "</button></form>");
}

/* --- the sections' content -------------------------------------------------------- */

/* What a section's render needs besides the page buffer. */
struct section_context {
    struct worker *worker;
    const struct visitor *visitor;
    const struct section_list *shown, *base; /* the plan the section's page shows */
};

/* BalancesSection: each account, its balance, and the total. */
static int render_balances(const struct section_context *context, struct buffer *page)
{
    sqlite3_stmt *accounts = context->worker->statement[SQL_ACCOUNTS];
    sqlite3_bind_int64(accounts, 1, context->visitor->user);
    long long total = 0;
    int status;
    PUT(page, "<table class=\"balances\"><tbody>");
    while ((status = sqlite3_step(accounts)) == SQLITE_ROW) {
        long long balance = sqlite3_column_int64(accounts, 2);
        total += balance;
        PUT(page, "<tr><td><div class=\"account-name\">");
        put_column(page, accounts, 0);
        PUT(page, "</div><div class=\"account-number\">" BULLET BULLET BULLET BULLET " ");
        put_column(page, accounts, 1);
        PUT(page, "</div></td>");
        if (balance < 0) {
            PUT(page, "<td class=\"amount negative\">");
            put_money(page, balance);
            PUT(page, "<span class=\"owed\"> owed</span></td></tr>");
        } else {
            PUT(page, "<td class=\"amount\">");
            put_money(page, balance);
            PUT(page, "</td></tr>");
        }
    }
    done_with(accounts);
    PUT(page, "<tr class=\"total\"><th>Total</th>");
    if (total < 0)
        PUT(page, "<td class=\"amount negative\">");
    else
        PUT(page, "<td class=\"amount\">");
    put_money(page, total);
    PUT(page, "</td></tr></tbody></table>");
    return status == SQLITE_DONE;
}

/* FeedAlert.Severity by its stored number: label and classes. */
static const struct {
    const char *label, *css_class;
} severities[] = {
    { "Info", "alert alert-info" },
    { "Warning", "alert alert-warning" },
    { "Critical", "alert alert-critical" },
};

/* The user's alerts not dismissed, most severe first (the store's order
 * among equals), into the worker's list; how many were dismissed. -1 when the query fails. */
static long load_alerts(struct worker *worker, long long user, size_t *count)
{
    sqlite3_stmt *alerts = worker->statement[SQL_ALERTS];
    sqlite3_bind_int64(alerts, 1, user);
    long dismissed = 0;
    int status;
    *count = 0;
    while ((status = sqlite3_step(alerts)) == SQLITE_ROW) {
        if (sqlite3_column_int64(alerts, 4) != 0) {
            dismissed++;
            continue;
        }
        if (*count == worker->alert_capacity) {
            worker->alert_capacity = worker->alert_capacity ? 2 * worker->alert_capacity : 16;
            worker->alerts = checked(realloc(worker->alerts, worker->alert_capacity * sizeof *worker->alerts));
        }
        struct alert_row *row = &worker->alerts[(*count)++];
        long long severity = sqlite3_column_int64(alerts, 1);
        row->id = sqlite3_column_int64(alerts, 0);
        row->severity = severity >= 0 && severity <= 2 ? (int)severity : 0; /* unknown: info */
        const char *title = column_text(alerts, 2, &row->title_length);
        row->title = worker->scratch.length;
        put_bytes(&worker->scratch, title, row->title_length);
        const char *body = column_text(alerts, 3, &row->body_length);
        row->body = worker->scratch.length;
        put_bytes(&worker->scratch, body, row->body_length);
    }
    done_with(alerts);
    if (status != SQLITE_DONE)
        return -1;
    /* A stable insertion sort, most severe first: a handful of rows. */
    for (size_t i = 1; i < *count; i++) {
        struct alert_row row = worker->alerts[i];
        size_t j = i;
        for (; j > 0 && worker->alerts[j - 1].severity < row.severity; j--)
            worker->alerts[j] = worker->alerts[j - 1];
        worker->alerts[j] = row;
    }
    return dismissed;
}

/* The dismiss form's action for the alert `id`, into `action` (room for 64): /feed/alerts/2/dismiss. */
static void dismiss_action(char *action, long long id)
{
    static const char prefix[] = "/feed/alerts/", suffix[] = "/dismiss";
    size_t length = sizeof prefix - 1;
    memcpy(action, prefix, length);
    if (id < 0)
        action[length++] = '-';
    length += decimal(action + length, magnitude(id));
    memcpy(action + length, suffix, sizeof suffix); /* with its NUL */
}

/* AlertsSection: each alert with its dismiss form; a form that brings dismissed ones back. */
static int render_alerts(const struct section_context *context, struct buffer *page)
{
    struct worker *worker = context->worker;
    size_t count;
    long dismissed = load_alerts(worker, context->visitor->user, &count);
    if (dismissed < 0)
        return 0;
    /* The forms return to the page they were on. */
    char back[URL_ROOM];
    page_url(back, sizeof back, context->shown, context->base, NULL);
    /* data-live-summary: what a screen reader says after a live change ("Alerts updated: 2 alerts"). */
    if (count == 0) {
        PUT(page, "<p class=\"quiet\" data-live-summary=\"No alerts\">No alerts. All is well.</p>");
    } else {
        PUT(page, "<ul class=\"alerts\" data-live-summary=\"");
        put_integer(page, (long long)count);
        if (count == 1)
            PUT(page, " alert\">");
        else
            PUT(page, " alerts\">");
        for (size_t i = 0; i < count; i++) {
            const struct alert_row *alert = &worker->alerts[i];
            const char *title = worker->scratch.data + alert->title;
            PUT(page, "<li class=\"");
            put_text(page, severities[alert->severity].css_class);
            PUT(page, "\"><span class=\"badge\">");
            put_text(page, severities[alert->severity].label);
            PUT(page, "</span><div><strong>");
            put_escaped(page, title, alert->title_length);
            PUT(page, "</strong><p>");
            put_escaped(page, worker->scratch.data + alert->body, alert->body_length);
            PUT(page, "</p></div>");
            char action[64];
            dismiss_action(action, alert->id);
            put_form(page, context->visitor,
                     &(struct form){ .css_class = "alert-action", .action = action, .label = "Dismiss", .back = back,
                                     .refreshes = catalog[ALERTS].id, .label_object = title,
                                     .label_object_length = alert->title_length });
            PUT(page, "</li>");
        }
        PUT(page, "</ul>");
    }
    if (dismissed > 0) {
        char label[64];
        if (dismissed == 1)
            snprintf(label, sizeof label, "Show 1 dismissed alert");
        else
            snprintf(label, sizeof label, "Show %ld dismissed alerts", dismissed); /* rare: no need to hurry */
        put_form(page, context->visitor,
                 &(struct form){ .css_class = "alert-action", .action = "/feed/alerts/restore", .label = label,
                                 .back = back, .refreshes = catalog[ALERTS].id });
    }
    return 1;
}

static const char *credit_band(long long score)
{
    return score < 580   ? "Poor"
           : score < 670 ? "Fair"
           : score < 740 ? "Good"
           : score < 800 ? "Very good"
                         : "Exceptional";
}

/* `numerator / denominator` rounded half up, in integers (HistoryChart). */
static long long rounded(long long numerator, long long denominator)
{
    return (2 * numerator + denominator) / (2 * denominator);
}

/* HistoryChart: twelve months of scores as an SVG line, 240 by 64 with a 4-point margin. */
static void render_history_chart(const long long *values, size_t count, struct buffer *page)
{
    if (count < 2)
        return;
    long long low = values[0], high = values[0];
    for (size_t i = 1; i < count; i++) {
        low = values[i] < low ? values[i] : low;
        high = values[i] > high ? values[i] : high;
    }
    const long long width = 240, height = 64;
    PUT(page, "<div class=\"credit-chart\"><svg class=\"chart\" viewBox=\"0 0 240 64\" role=\"img\" "
              "aria-label=\"Score history over 12 months, from ");
    put_integer(page, values[0]);
    PUT(page, " to ");
    put_integer(page, values[count - 1]);
    PUT(page, "\"><polyline points=\"");
    long long range = high - low > 1 ? high - low : 1, gaps = (long long)count - 1;
    for (size_t i = 0; i < count; i++) {
        if (i > 0)
            PUT(page, " ");
        put_integer(page, 4 + rounded((long long)i * (width - 8), gaps));
        PUT(page, ",");
        put_integer(page, 4 + rounded((height - 8) * (high - values[i]), range));
    }
    PUT(page, "\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2.5\" stroke-linejoin=\"round\" "
              "stroke-linecap=\"round\"></polyline></svg><div class=\"chart-axis\"><span>12 months ago</span>"
              "<span>Now</span></div></div>");
}

/* CreditScoreSection: the latest score, its band, its change over the history, and the chart. */
static int render_credit_score(const struct section_context *context, struct buffer *page)
{
    sqlite3_stmt *credit = context->worker->statement[SQL_CREDIT];
    sqlite3_bind_int64(credit, 1, context->visitor->user);
    long long newest_first[12];
    size_t count = 0;
    int status = SQLITE_DONE;
    /* LIMIT 12: the array holds every row. */
    while (count < 12 && (status = sqlite3_step(credit)) == SQLITE_ROW)
        newest_first[count++] = sqlite3_column_int64(credit, 0);
    done_with(credit);
    if (count < 12 && status != SQLITE_DONE)
        return 0;
    long long history[12];
    for (size_t i = 0; i < count; i++)
        history[i] = newest_first[count - 1 - i];
    long long score = count > 0 ? history[count - 1] : 0;
    long long change = count > 1 ? score - history[0] : 0;
    PUT(page, "<div class=\"credit\"><div class=\"credit-figure\"><span class=\"credit-score\">");
    put_integer(page, score);
    PUT(page, "</span><span class=\"credit-band\">");
    put_text(page, credit_band(score));
    if (change < 0)
        PUT(page, "</span><span class=\"credit-change negative\">" MINUS_SIGN);
    else
        PUT(page, "</span><span class=\"credit-change\">+");
    put_integer(page, change < 0 ? -change : change);
    PUT(page, " in 12 months</span></div>");
    render_history_chart(history, count, page);
    PUT(page, "</div>");
    return 1;
}

/* A stored day, YYYY-MM-DD, as Day(iso:) reads it; 0 when it is not one. */
static int parse_day(const char *text, size_t length, int *year, int *month, int *day)
{
    static const int days_in_month[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (text == NULL || length != 10 || text[4] != '-' || text[7] != '-')
        return 0;
    for (size_t i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (text[i] < '0' || text[i] > '9'))
            return 0;
    *year = (text[0] - '0') * 1000 + (text[1] - '0') * 100 + (text[2] - '0') * 10 + (text[3] - '0');
    *month = (text[5] - '0') * 10 + (text[6] - '0');
    *day = (text[8] - '0') * 10 + (text[9] - '0');
    if (*year < 1 || *month < 1 || *month > 12 || *day < 1 || *day > days_in_month[*month - 1])
        return 0;
    int leap = (*year % 4 == 0 && *year % 100 != 0) || *year % 400 == 0;
    return !(*month == 2 && *day == 29 && !leap);
}

/* A day column as a <time> element, "Dec 1" (Day.shortMonthName and day); 0 when the column is no day. */
static int put_time(struct buffer *page, sqlite3_stmt *row, int column)
{
    static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
    int year, month, day;
    size_t length;
    const char *date = column_text(row, column, &length);
    if (!parse_day(date, length, &year, &month, &day))
        return 0;
    /* A day read back is written as it was stored: YYYY-MM-DD, ten digits and dashes. */
    PUT(page, "<time datetime=\"");
    put_bytes(page, date, 10);
    PUT(page, "\">");
    put_text(page, months[month - 1]);
    PUT(page, " ");
    put_integer(page, day);
    PUT(page, "</time>");
    return 1;
}

/* RecentActivitySection: the latest six transactions, newest first. */
static int render_recent_activity(const struct section_context *context, struct buffer *page)
{
    sqlite3_stmt *transactions = context->worker->statement[SQL_TRANSACTIONS];
    sqlite3_bind_int64(transactions, 1, context->visitor->user);
    sqlite3_bind_int64(transactions, 2, 6);
    int status, ok = 1;
    PUT(page, "<table class=\"activity\"><tbody>");
    while ((status = sqlite3_step(transactions)) == SQLITE_ROW) {
        PUT(page, "<tr><td class=\"date\">");
        if (!put_time(page, transactions, 0)) {
            ok = 0;
            break;
        }
        PUT(page, "</td><td>");
        put_column(page, transactions, 1);
        long long amount = sqlite3_column_int64(transactions, 2);
        if (amount < 0)
            PUT(page, "</td><td class=\"amount\">");
        else
            PUT(page, "</td><td class=\"amount positive\">");
        put_money(page, amount);
        PUT(page, "</td></tr>");
    }
    done_with(transactions);
    PUT(page, "</tbody></table>");
    return ok && status == SQLITE_DONE;
}

/* NoticesSection: the board's latest three notices, newest first; the same card for everyone.
 * Its items go to the worker's scratch first: the list's summary names how many there are. */
static int render_notices(const struct section_context *context, struct buffer *page)
{
    struct buffer *items = &context->worker->scratch;
    size_t start = items->length;
    sqlite3_stmt *notices = context->worker->statement[SQL_NOTICES];
    sqlite3_bind_text(notices, 1, NOTICE_BOARD, -1, SQLITE_STATIC);
    sqlite3_bind_int64(notices, 2, 3);
    int status, ok = 1, count = 0;
    while ((status = sqlite3_step(notices)) == SQLITE_ROW) {
        PUT(items, "<li>");
        if (!put_time(items, notices, 2)) {
            ok = 0;
            break;
        }
        count++;
        PUT(items, "<strong>");
        put_column(items, notices, 0);
        PUT(items, "</strong><p>");
        put_column(items, notices, 1);
        PUT(items, "</p></li>");
    }
    done_with(notices);
    PUT(page, "<ul class=\"notices\" data-live-summary=\"");
    put_integer(page, count);
    if (count == 1)
        PUT(page, " notice\">");
    else
        PUT(page, " notices\">");
    put_bytes(page, items->data + start, items->length - start);
    items->length = start;
    PUT(page, "</ul>");
    return ok && status == SQLITE_DONE;
}

/* CheckupQuiz.standard: its questions and their choices. */
static const struct question {
    const char *id, *text;
    const struct {
        const char *id, *label;
    } choices[5];
} questions[] = {
    { "emergency-fund", "How many months of expenses could your savings cover?",
      { { "none", "Less than one" },
        { "1-2", "One or two" },
        { "3-5", "Three to five" },
        { "6-plus", "Six or more" } } },
    { "retirement", "Do you save for retirement?",
      { { "no", "Not yet" }, { "sometimes", "Now and then" }, { "match", "Yes, up to my employer's match" },
        { "max", "Yes, as much as I am allowed" } } },
    { "card-balance", "How do you handle credit card balances?",
      { { "carry", "I carry a balance most months" }, { "sometimes", "I sometimes carry a balance" },
        { "full", "I pay in full every month" } } },
};

/* CheckupSection with no answers (a query with them gets a 501): the quiz
 * as a GET form to the page, keeping the page's composition when it is not the base. */
static int render_checkup(const struct section_context *context, struct buffer *page)
{
    PUT(page, "<form class=\"checkup\" method=\"get\" action=\"/feed\">");
    if (!same_sections(context->shown, context->base))
        put_sections_field(page, context->shown);
    for (size_t q = 0; q < sizeof questions / sizeof questions[0]; q++) {
        const struct question *question = &questions[q];
        PUT(page, "<div class=\"question\"><label for=\"checkup-");
        put_escaped_text(page, question->id);
        PUT(page, "\">");
        put_escaped_text(page, question->text);
        PUT(page, "</label><select id=\"checkup-");
        put_escaped_text(page, question->id);
        PUT(page, "\" name=\"checkup\"><option value=\"\">Choose" ELLIPSIS "</option>");
        for (size_t c = 0; c < 5 && question->choices[c].id != NULL; c++) {
            PUT(page, "<option value=\"");
            put_escaped_text(page, question->id);
            PUT(page, ":");
            put_escaped_text(page, question->choices[c].id);
            PUT(page, "\">");
            put_escaped_text(page, question->choices[c].label);
            PUT(page, "</option>");
        }
        PUT(page, "</select></div>");
    }
    PUT(page, "<button type=\"submit\" class=\"primary\">See my result</button></form>");
    return 1;
}

/* Each section's content, by the catalog's order. */
static int (*const render_content[SECTION_COUNT])(const struct section_context *, struct buffer *) = {
    [BALANCES] = render_balances,
    [ALERTS] = render_alerts,
    [CREDIT_SCORE] = render_credit_score,
    [RECENT_ACTIVITY] = render_recent_activity,
    [NOTICES] = render_notices,
    [CHECKUP] = render_checkup,
};

/* --- the page around the sections (StackPageController, FeedPageController, SiteHeader) --- */

/* One section in its card, with the link that removes it (also a fragment's whole body). */
static int render_card(const struct section_context *context, enum section section, struct buffer *page)
{
    const char *id = catalog[section].id, *title = catalog[section].title;
    PUT(page, "<section class=\"section\" id=\"section-");
    put_text(page, id);
    PUT(page, "\" data-section=\"");
    put_text(page, id);
    PUT(page, "\" aria-labelledby=\"");
    put_text(page, id);
    PUT(page, "-title\"");
    if (live_kind[section] != NULL) {
        /* A live section: the version of its data, for the page's event stream. */
        PUT(page, " data-live=\"");
        put_integer(page, live_version_of(section, section == NOTICES ? SHARED_OWNER : context->visitor->user));
        PUT(page, "\"");
    }
    PUT(page, "><header class=\"section-header\"><h2 id=\"");
    put_text(page, id);
    PUT(page, "-title\">");
    put_text(page, title);
    PUT(page, "</h2><a class=\"section-remove\" href=\"");
    struct section_list rest = without_section(context->shown, section);
    put_page_url(page, &rest, context->base);
    PUT(page, "\" data-section-action=\"remove\" aria-label=\"Remove ");
    put_text(page, title);
    PUT(page, "\">Remove</a></header><div class=\"section-body\">");
    if (!render_content[section](context, page))
        return 0;
    PUT(page, "</div></section>");
    return 1;
}

/* The site's header: the pages, who is signed in and the sign-out form. */
static void render_banner(const struct section_context *context, struct buffer *page)
{
    PUT(page, "<header class=\"site-header\"><a class=\"brand\" href=\"/feed\">Sectional</a><nav aria-label=\"Pages\">"
              "<a href=\"/feed\" aria-current=\"page\">Feed</a><a href=\"/day\">Day</a></nav>"
              "<div class=\"account\"><span class=\"signed-in-as\">");
    put_escaped(page, context->worker->scratch.data + context->visitor->display_name,
                context->visitor->display_name_length);
    PUT(page, "</span>");
    put_form(page, context->visitor,
             &(struct form){ .css_class = "sign-out", .action = "/signout", .label = "Sign out" });
    PUT(page, "</div></header>");
}

/* Links that add each section not shown, in catalog order. */
static void render_picker(const struct section_context *context, struct buffer *page)
{
    int open = 0;
    for (int i = 0; i < SECTION_COUNT; i++) {
        if (contains(context->shown, (enum section)i))
            continue;
        if (!open)
            PUT(page, "<nav class=\"section-picker\" aria-label=\"Add sections\"><h2>Add a section</h2><ul>");
        open = 1;
        PUT(page, "<li><a href=\"");
        struct section_list more = with_section(*context->shown, (enum section)i);
        put_page_url(page, &more, context->base);
        PUT(page, "\" data-section-action=\"add\" data-section=\"");
        put_text(page, catalog[i].id);
        PUT(page, "\">+ ");
        put_text(page, catalog[i].title);
        PUT(page, "</a></li>");
    }
    if (open)
        PUT(page, "</ul></nav>");
}

/* The bar under the stack: which layout shows, and the form that resets a saved one. */
static void render_layout_bar(const struct section_context *context, struct buffer *page)
{
    struct section_list standard = defaults();
    int has_saved_layout = !same_sections(context->base, &standard);
    const char *status = has_saved_layout ? "Showing your saved layout." : "Showing the default layout.";
    PUT(page, "<aside class=\"layout-bar\" aria-label=\"Layout\"><p class=\"quiet\" data-base-status=\"");
    put_text(page, status);
    PUT(page, "\">");
    /* A bare visit shows its base layout: the form that saves a layout is there, hidden, for the page script. */
    put_text(page, status);
    PUT(page, "</p><div data-hidden-at-base hidden>");
    put_form(page, context->visitor, &(struct form){ .css_class = "post-form", .action = "/feed/layout",
                                                     .label = "Save this layout", .sections = context->shown, .primary = 1 });
    PUT(page, "</div>");
    if (has_saved_layout)
        put_form(page, context->visitor, &(struct form){ .css_class = "post-form", .action = "/feed/layout/reset",
                                                         .label = "Reset to the default layout" });
    PUT(page, "</aside>");
}

/* GET /feed: the whole document. */
static int render_feed(const struct section_context *context, struct buffer *page)
{
    PUT(page, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
              "content=\"width=device-width, initial-scale=1\"><title>Feed " MIDDLE_DOT " Sectional</title>"
              "<link rel=\"stylesheet\" href=\"/styles.css\"><link rel=\"icon\" href=\"/favicon.svg\" "
              "type=\"image/svg+xml\"><link rel=\"canonical\" href=\"");
    put_page_url(page, context->shown, context->base);
    PUT(page, "\"><script src=\"");
    put_escaped_text(page, page_script);
    PUT(page, "\" defer></script></head><body>");
    render_banner(context, page);
    PUT(page, "<main class=\"stack\" id=\"stack\"><h1 class=\"page-title\">Your feed</h1>");
    if (context->shown->count == 0)
        PUT(page, "<div class=\"stack-empty\" role=\"status\"><p>No sections are shown. Add one below.</p></div>");
    for (size_t i = 0; i < context->shown->count; i++)
        if (!render_card(context, context->shown->at[i], page))
            return 0;
    PUT(page, "</main>");
    render_picker(context, page);
    render_layout_bar(context, page);
    PUT(page, "</body></html>");
    return 1;
}

/* --- the JSON description (PageDescription.compactJSON) ------------------------------ */

/* A JSON string, escaped as Sectional's JSONWriter escapes it (slashes and non-ASCII as they are). */
static void put_json_string(struct buffer *json, const char *text, size_t length)
{
    PUT(json, "\"");
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        char escape[8];
        switch (c) {
        case '"': PUT(json, "\\\""); break;
        case '\\': PUT(json, "\\\\"); break;
        case '\b': PUT(json, "\\b"); break;
        case '\f': PUT(json, "\\f"); break;
        case '\n': PUT(json, "\\n"); break;
        case '\r': PUT(json, "\\r"); break;
        case '\t': PUT(json, "\\t"); break;
        default:
            if (c < 0x20) {
                snprintf(escape, sizeof escape, "\\u00%02x", c);
                put_text(json, escape);
            } else {
                put_bytes(json, (const char *)&c, 1);
            }
        }
    }
    PUT(json, "\"");
}

static void put_json_text(struct buffer *json, const char *text)
{
    put_json_string(json, text, strlen(text));
}

static void put_json_url(struct buffer *json, const struct section_list *shown, const struct section_list *base,
                         const enum section *fragment)
{
    char url[URL_ROOM];
    put_json_string(json, url, page_url(url, sizeof url, shown, base, fragment));
}

/* Runs a section's query to its end, as its load does for the description: whether it worked. */
static int load_section(const struct section_context *context, enum section section)
{
    static const int query_of[SECTION_COUNT] = {
        [BALANCES] = SQL_ACCOUNTS, [ALERTS] = SQL_ALERTS, [CREDIT_SCORE] = SQL_CREDIT,
        [RECENT_ACTIVITY] = SQL_TRANSACTIONS, [NOTICES] = SQL_NOTICES, [CHECKUP] = -1,
    };
    if (section == ALERTS) {
        size_t count;
        return load_alerts(context->worker, context->visitor->user, &count) >= 0;
    }
    if (query_of[section] < 0)
        return 1;
    sqlite3_stmt *statement = context->worker->statement[query_of[section]];
    if (section == NOTICES) {
        sqlite3_bind_text(statement, 1, NOTICE_BOARD, -1, SQLITE_STATIC);
        sqlite3_bind_int64(statement, 2, 3);
    } else {
        sqlite3_bind_int64(statement, 1, context->visitor->user);
    }
    if (section == RECENT_ACTIVITY)
        sqlite3_bind_int64(statement, 2, 6);
    return run_to_end(statement);
}

/* GET /api/feed/sections: every shown section loaded, then the composition, keys sorted. */
static int describe(const struct section_context *context, const struct plan *plan, struct buffer *json)
{
    for (size_t i = 0; i < plan->shown.count; i++)
        if (!load_section(context, plan->shown.at[i]))
            return 0;
    PUT(json, "{\"available\":[");
    int first = 1;
    for (int i = 0; i < SECTION_COUNT; i++) {
        if (contains(&plan->shown, (enum section)i))
            continue;
        if (!first)
            PUT(json, ",");
        first = 0;
        struct section_list more = with_section(plan->shown, (enum section)i);
        PUT(json, "{\"add\":");
        put_json_url(json, &more, &plan->base, NULL);
        PUT(json, ",\"id\":");
        put_json_text(json, catalog[i].id);
        PUT(json, ",\"title\":");
        put_json_text(json, catalog[i].title);
        PUT(json, "}");
    }
    PUT(json, "],\"layout\":");
    put_json_text(json, plan->saved ? "saved" : "default");
    PUT(json, ",\"page\":");
    put_json_url(json, &plan->shown, &plan->base, NULL);
    PUT(json, ",\"sections\":[");
    for (size_t i = 0; i < plan->shown.count; i++) {
        enum section section = plan->shown.at[i];
        struct section_list rest = without_section(&plan->shown, section);
        if (i > 0)
            PUT(json, ",");
        PUT(json, "{\"fragment\":");
        put_json_url(json, &plan->shown, &plan->base, &section);
        PUT(json, ",\"id\":");
        put_json_text(json, catalog[section].id);
        PUT(json, ",\"position\":");
        put_integer(json, (long long)i + 1);
        PUT(json, ",\"remove\":");
        put_json_url(json, &rest, &plan->base, NULL);
        PUT(json, ",\"status\":\"ok\",\"title\":");
        put_json_text(json, catalog[section].title);
        PUT(json, "}");
    }
    PUT(json, "]}");
    return 1;
}

/* --- HTTP ------------------------------------------------------------------------------ */

/* The fields feed-server sends with its pages and cards (Site.privateHTMLHeaders). */
static const char *const page_headers[][2] = {
    { "Content-Type", "text/html; charset=utf-8" },
    { "Cache-Control", "private, no-store" },
    { "Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                                 "base-uri 'none'; form-action 'self'; frame-ancestors 'none'" },
    { "X-Frame-Options", "DENY" },
    { "X-Content-Type-Options", "nosniff" },
    { "Referrer-Policy", "same-origin" },
    { NULL, NULL },
};

/* A card and the description answered in full go out conditional, as feed-server's
 * (PageRoutes.validated): these fields, then the content's ETag and the Cache-Control. */
static const char *const validated_page_headers[][2] = {
    { "Content-Type", "text/html; charset=utf-8" },
    { "Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                                 "base-uri 'none'; form-action 'self'; frame-ancestors 'none'" },
    { "X-Frame-Options", "DENY" },
    { "X-Content-Type-Options", "nosniff" },
    { "Referrer-Policy", "same-origin" },
    { "Vary", "Cookie" },
    { NULL, NULL },
};

static const char *const validated_json_headers[][2] = {
    { "Content-Type", "application/json" },
    { "X-Content-Type-Options", "nosniff" },
    { "Vary", "Cookie, Authorization" },
    { NULL, NULL },
};

/* EntityTag.of: two word-at-a-time hashes of the body, each taking every
   other word, 32 hex digits in quotes. */
static void content_tag(const unsigned char *bytes, size_t count, char tag[35])
{
    uint64_t first = 0xcbf29ce484222325ULL ^ (uint64_t)count, second = 0x9e3779b97f4a7c15ULL + (uint64_t)count;
    size_t index = 0;
    for (; index + 16 <= count; index += 16) {
        uint64_t word, next;
        memcpy(&word, bytes + index, 8);
        memcpy(&next, bytes + index + 8, 8);
        first = (first ^ word) * 0x100000001b3ULL;
        first ^= first >> 29;
        second = (second ^ next) * 0xff51afd7ed558ccdULL;
        second ^= second >> 32;
    }
    for (; index < count; index++) {
        first = (first ^ bytes[index]) * 0x100000001b3ULL;
        second = (second + bytes[index]) * 0xc4ceb9fe1a85ec53ULL;
    }
    snprintf(tag, 35, "\"%016llx%016llx\"", (unsigned long long)first, (unsigned long long)second);
}

enum route { FEED, FRAGMENT, DESCRIPTION, NO_ROUTE };

static enum route route_of(const char *url, enum section *section)
{
    static const char fragments[] = "/feed/sections/";
    if (strcmp(url, "/feed") == 0)
        return FEED;
    if (strcmp(url, "/api/feed/sections") == 0)
        return DESCRIPTION;
    if (strncmp(url, fragments, sizeof fragments - 1) == 0) {
        const char *id = url + sizeof fragments - 1;
        return section_named(id, strlen(id), section) ? FRAGMENT : NO_ROUTE;
    }
    return NO_ROUTE;
}

static struct MHD_Response *not_found, *not_allowed, *not_served, *unavailable, *failed, *unauthorized;

/* Signed out: a page goes to the sign-in page, which comes back here
 * (SignInPage.path(returningTo:): the path percent-encoded, slashes kept). */
static enum MHD_Result send_to_sign_in(struct MHD_Connection *connection, const char *path)
{
    char location[URL_ROOM];
    struct fixed out = { location, 0, sizeof location };
    fixed_put(&out, "/signin?next=");
    for (const char *c = path; *c != '\0' && out.length + 4 < sizeof location; c++) {
        char piece[4] = { *c, '\0' };
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("-._~/", *c)))
            snprintf(piece, sizeof piece, "%%%02X", (unsigned char)*c);
        fixed_put(&out, piece);
    }
    struct MHD_Response *response = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    if (response == NULL)
        return MHD_NO;
    MHD_add_response_header(response, "Location", location);
    enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_SEE_OTHER, response);
    MHD_destroy_response(response);
    return queued;
}

/* Counts the query items this program does not serve (they change the composition or the answer's form). */
static enum MHD_Result note_unserved(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    (void)value;
    static const char *const unserved[] = { "sections", "add", "remove", "checkup", "stream", "pretty" };
    for (size_t i = 0; i < sizeof unserved / sizeof unserved[0]; i++)
        if (strcmp(key, unserved[i]) == 0)
            ++*(int *)cls;
    return MHD_YES;
}

static int has_unserved_query(struct MHD_Connection *connection)
{
    int unserved = 0;
    MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, note_unserved, &unserved);
    return unserved > 0;
}

/* A rendered body with its header fields, the body's memory handed to libmicrohttpd. */
static enum MHD_Result send_body(struct MHD_Connection *connection, struct buffer body, const char *const (*headers)[2])
{
    struct MHD_Response *response = MHD_create_response_from_buffer(body.length, body.data, MHD_RESPMEM_MUST_FREE);
    if (response == NULL) {
        free(body.data);
        return MHD_NO;
    }
    for (size_t i = 0; headers[i][0] != NULL; i++)
        MHD_add_response_header(response, headers[i][0], headers[i][1]);
    enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return queued;
}

/* A body with its content's ETag, or a 304 when If-None-Match names it (an exact match of the one tag). */
static enum MHD_Result send_validated(struct MHD_Connection *connection, struct buffer body, const char *const (*headers)[2])
{
    char tag[35];
    content_tag((const unsigned char *)body.data, body.length, tag);
    const char *asked = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "If-None-Match");
    int unchanged = asked != NULL && strcmp(asked, tag) == 0;
    struct MHD_Response *response = unchanged ? MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT)
                                              : MHD_create_response_from_buffer(body.length, body.data, MHD_RESPMEM_MUST_FREE);
    if (unchanged || response == NULL)
        free(body.data);
    if (response == NULL)
        return MHD_NO;
    for (size_t i = 0; headers[i][0] != NULL; i++)
        MHD_add_response_header(response, headers[i][0], headers[i][1]);
    MHD_add_response_header(response, "ETag", tag);
    MHD_add_response_header(response, "Cache-Control", "private, no-cache");
    enum MHD_Result queued = MHD_queue_response(connection, unchanged ? MHD_HTTP_NOT_MODIFIED : MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return queued;
}

/* Who asks, what they see, and the answer for a route. */
static enum MHD_Result answer_route(struct worker *worker, struct MHD_Connection *connection, const char *url,
                                    enum route route, enum section section)
{
    worker->scratch.length = 0;
    struct visitor visitor;
    switch (find_visitor(worker, connection, &visitor)) {
    case SIGNED_IN: break;
    case SIGNED_OUT:
        return route == DESCRIPTION ? MHD_queue_response(connection, MHD_HTTP_UNAUTHORIZED, unauthorized)
                                    : send_to_sign_in(connection, url);
    case UNAVAILABLE: return MHD_queue_response(connection, MHD_HTTP_SERVICE_UNAVAILABLE, unavailable);
    }
    struct plan plan;
    read_plan(worker, visitor.user, &plan);
    struct section_context context = { worker, &visitor, &plan.shown, &plan.base };
    struct buffer body = new_buffer(16 * 1024);
    int ok;
    if (route == FEED) {
        ok = render_feed(&context, &body);
    } else if (route == FRAGMENT) {
        /* A card's links are those of the page with its section added. */
        struct section_list shown = with_section(plan.shown, section);
        context.shown = &shown;
        ok = render_card(&context, section, &body);
    } else {
        ok = describe(&context, &plan, &body);
    }
    if (!ok) {
        free(body.data);
        return MHD_queue_response(connection, MHD_HTTP_INTERNAL_SERVER_ERROR, failed);
    }
    if (route == FEED)
        return send_body(connection, body, page_headers);
    return send_validated(connection, body, route == DESCRIPTION ? validated_json_headers : validated_page_headers);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
    (void)version;
    (void)upload_data;
    if (!ready_to_answer(con_cls, upload_data_size))
        return MHD_YES;
    enum section section = BALANCES;
    enum route route = route_of(url, &section);
    if (route == NO_ROUTE)
        return MHD_queue_response(connection, MHD_HTTP_NOT_FOUND, not_found);
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return MHD_queue_response(connection, MHD_HTTP_METHOD_NOT_ALLOWED, not_allowed);
    if (has_unserved_query(connection))
        return MHD_queue_response(connection, MHD_HTTP_NOT_IMPLEMENTED, not_served);
    struct worker *worker = cls;
    run_to_end(worker->statement[SQL_BEGIN]);
    enum MHD_Result result = answer_route(worker, connection, url, route, section);
    /* After a failed read SQLite may have ended the transaction already: nothing to commit then. */
    if (!sqlite3_get_autocommit(worker->db))
        run_to_end(worker->statement[SQL_COMMIT]);
    return result;
}

static struct MHD_Response *fixed_response(const char *body)
{
    struct MHD_Response *response = MHD_create_response_from_buffer(strlen(body), (void *)body,
                                                                     MHD_RESPMEM_PERSISTENT);
    if (response == NULL || MHD_add_response_header(response, "Content-Type", "text/plain; charset=utf-8") != MHD_YES)
        die("cannot create a fixed response", NULL);
    return response;
}

static void make_fixed_responses(void)
{
    not_found = fixed_response("Not Found\n");
    not_allowed = fixed_response("Method Not Allowed\n");
    not_served = fixed_response("This benchmark server answers bare /feed, /feed/sections/{id} "
                                "and /api/feed/sections only.\n");
    unavailable = fixed_response("Sign-in is unavailable for a moment; try again.\n");
    failed = fixed_response("A section could not be loaded.\n");
    unauthorized = fixed_response("Sign in first.\n");
    if (MHD_add_response_header(unauthorized, "WWW-Authenticate", "Bearer realm=\"sectional\"") != MHD_YES)
        die("cannot create a fixed response", NULL);
}

/* --- start ------------------------------------------------------------------------------- */

/* A duration as feed-server reads one: a whole number and s, m, h or d. */
static long long seconds(const char *text, const char *flag)
{
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    long long unit = *end == 's' ? 1 : *end == 'm' ? 60 : *end == 'h' ? 3600 : *end == 'd' ? 86400 : 0;
    if (errno != 0 || end == text || value <= 0 || unit == 0 || end[1] != '\0')
        die("bad duration (90s, 30m, 12h, 7d) for", flag);
    return value * unit;
}

int main(int argc, char **argv)
{
    unsigned int port = 0;
    unsigned int threads = default_threads();
    const char *path = NULL;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
            port = number(argv[++i], "--port", 65535);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = number(argv[++i], "--threads", MAX_DAEMONS);
            if (threads == 0)
                die("--threads must be at least 1", NULL);
        } else if (strcmp(argv[i], "--database") == 0 && i + 1 < argc) {
            path = argv[++i];
            if (strncmp(path, "sqlite:", 7) == 0)
                path += 7;
        } else if (strcmp(argv[i], "--session-idle") == 0 && i + 1 < argc) {
            session_idle = seconds(argv[++i], "--session-idle");
        } else if (strcmp(argv[i], "--session-lifetime") == 0 && i + 1 < argc) {
            session_lifetime = seconds(argv[++i], "--session-lifetime");
        } else if (strcmp(argv[i], "--script") == 0 && i + 1 < argc) {
            page_script = argv[++i];
        } else {
            die("usage: feed_sqlite --database [sqlite:]PATH [--port N] [--threads N] "
                "[--session-idle DURATION] [--session-lifetime DURATION] [--script SRC]", NULL);
        }
    }
    if (path == NULL)
        die("no --database given", NULL);
    if (sodium_init() < 0)
        die("libsodium could not initialise", NULL);

    open_writer(path);
    load_form_key(writer.db);
    load_live_versions(writer.db);
    /* Each daemon's one thread answers with its own read connection. */
    void *workers[MAX_DAEMONS];
    for (unsigned int i = 0; i < threads; i++)
        workers[i] = start_worker(path);
    make_fixed_responses();

    /* Block the stop signals before any worker thread starts, then wait for one. */
    sigset_t stop_signals = block_stop_signals();
    unsigned int bound_port = port;
    struct feed_daemons daemons;
    if (!start_feed_daemons_each(port, threads, answer, workers, &bound_port, &daemons))
        die("libmicrohttpd refused to start (port in use?)", NULL);
    fprintf(stderr, "feed_sqlite: listening on http://127.0.0.1:%u/feed (%s, %u threads)\n", bound_port, path, threads);

    int signal_number;
    sigwait(&stop_signals, &signal_number);
    stop_feed_daemons(&daemons);
    for (unsigned int i = 0; i < threads; i++) {
        struct worker *worker = workers[i];
        for (size_t s = 0; s < SQL_COUNT; s++)
            sqlite3_finalize(worker->statement[s]);
        sqlite3_close(worker->db);
        free(worker->scratch.data);
        free(worker->alerts);
        free(worker);
    }
    sqlite3_finalize(writer.touch);
    sqlite3_finalize(writer.end_session);
    sqlite3_close(writer.db);
    return 0;
}
