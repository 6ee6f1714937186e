/*
 * reference: the reference page rendered in plain C, per request.
 *
 * `make bench` measures Examples/ReferencePage's reference-server (the page
 * built on Sectional's public API) against this program. Both serve GET /feed
 * from the same data: the package's data.json, read once at start by a small
 * JSON reader below. Every request renders the page again into a fresh
 * buffer: each text value HTML-escaped, each amount formatted, the numbers
 * printed with snprintf. Nothing of the page is kept between requests, so
 * what this costs is what rendering that page costs without a framework.
 * Its body must be byte for byte reference-server's (the bench checks it).
 *
 * The daemons are ceiling.c's: the same flags (internal polling thread, epoll,
 * suspend/resume allowed, error log), one a worker thread on a socket of its
 * own as in feed-server, the same hardening options and listen backlog. Keep-alive is done right: the
 * response is queued on the handler's second call, never the first. The
 * answer carries the header fields reference-server sends, Server-Timing
 * aside (its durations change from request to request).
 *
 * Usage:
 *   reference --data PATH [--port N] [--threads N]
 *
 * Prints "reference: listening on http://127.0.0.1:PORT/feed" on standard
 * error once it answers (--port 0, the default, picks a free port). Any other
 * target gets a 404, another method on /feed a 405. SIGINT or SIGTERM stops it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PROGRAM_NAME "reference"
#include "bench_server.h"
#include "bench_buffer.h"

/* --- data.json: a JSON reader for what that file holds ------------------- */

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

/* One value. Arrays and objects hold `count` items; an object's keys match them. */
struct json {
    enum json_type type;
    long long number; /* JSON_NUMBER (integers only: the file has no other) and JSON_BOOL */
    char *string;     /* JSON_STRING, UTF-8 */
    struct json *items;
    char **keys;
    size_t count;
};

struct reader {
    const char *at;
    const char *path;
};

static void reader_fail(struct reader *reader, const char *what)
{
    char detail[256];
    snprintf(detail, sizeof detail, "%s, near \"%.20s\"", reader->path, reader->at);
    die(what, detail);
}

static void skip_space(struct reader *reader)
{
    while (*reader->at == ' ' || *reader->at == '\t' || *reader->at == '\n' || *reader->at == '\r')
        reader->at++;
}

static void expect(struct reader *reader, char wanted)
{
    skip_space(reader);
    if (*reader->at != wanted) {
        char what[32];
        snprintf(what, sizeof what, "expected '%c'", wanted);
        reader_fail(reader, what);
    }
    reader->at++;
}

static unsigned hex_digits(struct reader *reader)
{
    unsigned value = 0;
    for (int i = 0; i < 4; i++) {
        char c = *reader->at++;
        value <<= 4;
        if (c >= '0' && c <= '9')
            value |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            value |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            value |= (unsigned)(c - 'A' + 10);
        else
            reader_fail(reader, "bad \\u escape");
    }
    return value;
}

static size_t put_utf8(char *out, unsigned code)
{
    if (code < 0x80) {
        out[0] = (char)code;
        return 1;
    }
    if (code < 0x800) {
        out[0] = (char)(0xC0 | (code >> 6));
        out[1] = (char)(0x80 | (code & 0x3F));
        return 2;
    }
    if (code < 0x10000) {
        out[0] = (char)(0xE0 | (code >> 12));
        out[1] = (char)(0x80 | ((code >> 6) & 0x3F));
        out[2] = (char)(0x80 | (code & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (code >> 18));
    out[1] = (char)(0x80 | ((code >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((code >> 6) & 0x3F));
    out[3] = (char)(0x80 | (code & 0x3F));
    return 4;
}

/* A string after its opening quote; escapes decoded (an escape never grows). */
static char *read_string(struct reader *reader)
{
    const char *start = reader->at;
    size_t room = 1;
    for (const char *c = start; *c != '"'; c++) {
        if (*c == '\0')
            reader_fail(reader, "unterminated string");
        if (*c == '\\' && c[1] != '\0')
            c++;
        room += 4;
    }
    char *text = checked(malloc(room)), *out = text;
    while (*reader->at != '"') {
        char c = *reader->at++;
        if ((unsigned char)c < 0x20)
            reader_fail(reader, "control character in a string");
        if (c != '\\') {
            *out++ = c;
            continue;
        }
        char escape = *reader->at++;
        switch (escape) {
        case '"': *out++ = '"'; break;
        case '\\': *out++ = '\\'; break;
        case '/': *out++ = '/'; break;
        case 'b': *out++ = '\b'; break;
        case 'f': *out++ = '\f'; break;
        case 'n': *out++ = '\n'; break;
        case 'r': *out++ = '\r'; break;
        case 't': *out++ = '\t'; break;
        case 'u': {
            unsigned code = hex_digits(reader);
            if (code >= 0xD800 && code < 0xDC00 && reader->at[0] == '\\' && reader->at[1] == 'u') {
                reader->at += 2;
                unsigned low = hex_digits(reader);
                if (low < 0xDC00 || low >= 0xE000)
                    reader_fail(reader, "bad surrogate pair");
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            }
            out += put_utf8(out, code);
            break;
        }
        default: reader_fail(reader, "bad escape");
        }
    }
    reader->at++;
    *out = '\0';
    return text;
}

static void read_value(struct reader *reader, struct json *value);

/* Appends an item to an array or object value. */
static struct json *add_item(struct json *value)
{
    value->items = checked(realloc(value->items, (value->count + 1) * sizeof *value->items));
    memset(&value->items[value->count], 0, sizeof *value->items);
    return &value->items[value->count++];
}

static void read_container(struct reader *reader, struct json *value, char close)
{
    skip_space(reader);
    if (*reader->at == close) {
        reader->at++;
        return;
    }
    for (;;) {
        if (value->type == JSON_OBJECT) {
            expect(reader, '"');
            char *key = read_string(reader);
            expect(reader, ':');
            value->keys = checked(realloc(value->keys, (value->count + 1) * sizeof *value->keys));
            value->keys[value->count] = key;
        }
        read_value(reader, add_item(value));
        skip_space(reader);
        if (*reader->at == ',') {
            reader->at++;
            continue;
        }
        expect(reader, close);
        return;
    }
}

static void read_value(struct reader *reader, struct json *value)
{
    skip_space(reader);
    char c = *reader->at;
    if (c == '{' || c == '[') {
        reader->at++;
        value->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
        read_container(reader, value, c == '{' ? '}' : ']');
    } else if (c == '"') {
        reader->at++;
        value->type = JSON_STRING;
        value->string = read_string(reader);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        char *end;
        errno = 0;
        value->type = JSON_NUMBER;
        value->number = strtoll(reader->at, &end, 10);
        if (errno != 0 || *end == '.' || *end == 'e' || *end == 'E')
            reader_fail(reader, "only integers are read");
        reader->at = end;
    } else if (strncmp(reader->at, "true", 4) == 0 || strncmp(reader->at, "false", 5) == 0) {
        value->type = JSON_BOOL;
        value->number = c == 't';
        reader->at += c == 't' ? 4 : 5;
    } else if (strncmp(reader->at, "null", 4) == 0) {
        value->type = JSON_NULL;
        reader->at += 4;
    } else {
        reader_fail(reader, "unexpected character");
    }
}

/* The member `key` of an object, of the given type, or a clear stop. */
static const struct json *member(const struct json *object, const char *key, enum json_type type)
{
    if (object->type != JSON_OBJECT)
        die("not an object where the data needs one, at", key);
    for (size_t i = 0; i < object->count; i++)
        if (strcmp(object->keys[i], key) == 0) {
            if (object->items[i].type != type)
                die("unexpected type for", key);
            return &object->items[i];
        }
    die("missing from the data", key);
    return NULL;
}

/* --- the page's data, as the sections read it ----------------------------- */

struct account {
    const char *name, *number;
    long long balance_cents;
};

struct alert {
    const char *severity, *title, *body;
};

static struct account *accounts;
static size_t account_count;
static struct alert *alerts;
static size_t alert_count;
static long long credit_score;
static const char *credit_band;
static long long *credit_history;
static size_t history_count;

static char *read_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL)
        die(strerror(errno), path);
    size_t capacity = 1 << 12, used = 0, got;
    char *data = checked(malloc(capacity));
    while ((got = fread(data + used, 1, capacity - used - 1, file)) > 0) {
        used += got;
        if (used + 1 == capacity)
            data = checked(realloc(data, capacity *= 2));
    }
    if (ferror(file))
        die("cannot read", path);
    fclose(file);
    data[used] = '\0';
    return data;
}

static void load_data(const char *path)
{
    struct reader reader = { read_file(path), path };
    static struct json root;
    read_value(&reader, &root);

    const struct json *list = member(&root, "accounts", JSON_ARRAY);
    account_count = list->count;
    accounts = checked(calloc(account_count + 1, sizeof *accounts));
    for (size_t i = 0; i < account_count; i++) {
        accounts[i].name = member(&list->items[i], "name", JSON_STRING)->string;
        accounts[i].number = member(&list->items[i], "number", JSON_STRING)->string;
        accounts[i].balance_cents = member(&list->items[i], "balance_cents", JSON_NUMBER)->number;
    }

    list = member(&root, "alerts", JSON_ARRAY);
    alert_count = list->count;
    alerts = checked(calloc(alert_count + 1, sizeof *alerts));
    for (size_t i = 0; i < alert_count; i++) {
        alerts[i].severity = member(&list->items[i], "severity", JSON_STRING)->string;
        alerts[i].title = member(&list->items[i], "title", JSON_STRING)->string;
        alerts[i].body = member(&list->items[i], "body", JSON_STRING)->string;
    }

    const struct json *credit = member(&root, "credit", JSON_OBJECT);
    credit_score = member(credit, "score", JSON_NUMBER)->number;
    credit_band = member(credit, "band", JSON_STRING)->string;
    list = member(credit, "history", JSON_ARRAY);
    history_count = list->count;
    credit_history = checked(calloc(history_count + 1, sizeof *credit_history));
    for (size_t i = 0; i < history_count; i++) {
        if (list->items[i].type != JSON_NUMBER)
            die("unexpected type for", "history");
        credit_history[i] = list->items[i].number;
    }
}

/* --- rendering into a growing buffer -------------------------------------- */

/* Text with & < > " ' escaped, as Sectional escapes text and attribute values. */
static void put_escaped(struct buffer *buffer, const char *text)
{
    const char *run = text;
    for (const char *c = text;; c++) {
        const char *entity;
        switch (*c) {
        case '&': entity = "&amp;"; break;
        case '<': entity = "&lt;"; break;
        case '>': entity = "&gt;"; break;
        case '"': entity = "&quot;"; break;
        case '\'': entity = "&#39;"; break;
        case '\0': put_bytes(buffer, run, (size_t)(c - run)); return;
        default: continue;
        }
        put_bytes(buffer, run, (size_t)(c - run));
        put_bytes(buffer, entity, strlen(entity));
        run = c + 1;
    }
}

static void put_integer(struct buffer *buffer, long long value)
{
    char digits[24];
    int length = snprintf(digits, sizeof digits, "%lld", value);
    put_bytes(buffer, digits, (size_t)length);
}

/* Cents as the reference page writes them: $2,543.10, -$432.99. */
static void put_dollars(struct buffer *buffer, long long cents)
{
    unsigned long long magnitude = cents < 0 ? 0ULL - (unsigned long long)cents : (unsigned long long)cents;
    char digits[24];
    int length = snprintf(digits, sizeof digits, "%llu", magnitude / 100);
    if (cents < 0)
        PUT(buffer, "-");
    PUT(buffer, "$");
    int first = length % 3 == 0 ? 3 : length % 3;
    put_bytes(buffer, digits, (size_t)first);
    for (int i = first; i < length; i += 3) {
        PUT(buffer, ",");
        put_bytes(buffer, digits + i, 3);
    }
    char fraction[8];
    length = snprintf(fraction, sizeof fraction, ".%02llu", magnitude % 100);
    put_bytes(buffer, fraction, (size_t)length);
}

static void render_balances(struct buffer *page)
{
    PUT(page, "<section class=\"section\" id=\"balances\"><h2>Balances</h2><ul>");
    long long total = 0;
    for (size_t i = 0; i < account_count; i++) {
        PUT(page, "<li><span class=\"name\">");
        put_escaped(page, accounts[i].name);
        PUT(page, "</span> <span class=\"number\">");
        put_escaped(page, accounts[i].number);
        PUT(page, "</span> <span class=\"amount\">");
        put_dollars(page, accounts[i].balance_cents);
        PUT(page, "</span></li>");
        total += accounts[i].balance_cents;
    }
    PUT(page, "</ul><p class=\"total\">Total: ");
    put_dollars(page, total);
    PUT(page, "</p></section>");
}

static void render_alerts(struct buffer *page)
{
    PUT(page, "<section class=\"section\" id=\"alerts\"><h2>Alerts</h2><ul>");
    for (size_t i = 0; i < alert_count; i++) {
        PUT(page, "<li class=\"alert alert-");
        put_escaped(page, alerts[i].severity);
        PUT(page, "\"><strong>");
        put_escaped(page, alerts[i].title);
        PUT(page, "</strong> <p>");
        put_escaped(page, alerts[i].body);
        PUT(page, "</p></li>");
    }
    PUT(page, "</ul></section>");
}

static void render_credit_score(struct buffer *page)
{
    PUT(page, "<section class=\"section\" id=\"credit-score\"><h2>Credit score</h2><p class=\"score\">");
    put_integer(page, credit_score);
    PUT(page, "</p><p class=\"band\">");
    put_escaped(page, credit_band);
    PUT(page, "</p><ol class=\"history\">");
    for (size_t i = 0; i < history_count; i++) {
        PUT(page, "<li>");
        put_integer(page, credit_history[i]);
        PUT(page, "</li>");
    }
    PUT(page, "</ol></section>");
}

/* The whole page, in a buffer of its own that the response frees. */
static struct buffer render_feed(void)
{
    struct buffer page = new_buffer(2048);
    PUT(&page, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Feed</title>"
               "<link rel=\"stylesheet\" href=\"/styles.css\"></head><body><main class=\"stack\">");
    render_balances(&page);
    render_alerts(&page);
    render_credit_score(&page);
    PUT(&page, "</main></body></html>");
    return page;
}

/* --- HTTP ------------------------------------------------------------------ */

/* The fields reference-server sends with the page (Server-Timing aside). */
static const char *const page_headers[][2] = {
    { "Content-Type", "text/html; charset=utf-8" },
    { "Cache-Control", "private, no-store" },
    { "Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                                 "base-uri 'none'; form-action 'self'; frame-ancestors 'none'" },
    { "X-Frame-Options", "DENY" },
    { "X-Content-Type-Options", "nosniff" },
    { "Referrer-Policy", "same-origin" },
};

static struct MHD_Response *not_found, *not_allowed;

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **con_cls)
{
    (void)cls;
    (void)version;
    (void)upload_data;
    if (!ready_to_answer(con_cls, upload_data_size))
        return MHD_YES;
    if (strcmp(url, "/feed") != 0)
        return MHD_queue_response(connection, MHD_HTTP_NOT_FOUND, not_found);
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return MHD_queue_response(connection, MHD_HTTP_METHOD_NOT_ALLOWED, not_allowed);

    struct buffer page = render_feed();
    struct MHD_Response *response = MHD_create_response_from_buffer(page.length, page.data, MHD_RESPMEM_MUST_FREE);
    if (response == NULL) {
        free(page.data);
        return MHD_NO;
    }
    for (size_t i = 0; i < sizeof page_headers / sizeof page_headers[0]; i++)
        MHD_add_response_header(response, page_headers[i][0], page_headers[i][1]);
    enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return queued;
}

static struct MHD_Response *fixed_response(const char *body)
{
    struct MHD_Response *response = MHD_create_response_from_buffer(strlen(body), (void *)body,
                                                                     MHD_RESPMEM_PERSISTENT);
    if (response == NULL || MHD_add_response_header(response, "Content-Type", "text/plain; charset=utf-8") != MHD_YES)
        die("cannot create a fixed response", NULL);
    return response;
}

int main(int argc, char **argv)
{
    unsigned int port = 0;
    unsigned int threads = default_threads();
    const char *data_path = NULL;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
            port = number(argv[++i], "--port", 65535);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = number(argv[++i], "--threads", 256);
            if (threads == 0)
                die("--threads must be at least 1", NULL);
        } else if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) {
            data_path = argv[++i];
        } else {
            die("usage: reference --data PATH [--port N] [--threads N]", NULL);
        }
    }
    if (data_path == NULL)
        die("no --data given", NULL);
    load_data(data_path);
    not_found = fixed_response("Not Found\n");
    not_allowed = fixed_response("Method Not Allowed\n");

    /* Block the stop signals before any worker thread starts, then wait for one. */
    sigset_t stop_signals = block_stop_signals();
    unsigned int bound_port = port;
    struct feed_daemons daemons;
    if (!start_feed_daemons(port, threads, DAEMON_PER_THREAD, answer, NULL, &bound_port, &daemons))
        die("libmicrohttpd refused to start (port in use?)", NULL);
    fprintf(stderr, "reference: listening on http://127.0.0.1:%u/feed (%zu accounts, %zu alerts, %u threads)\n",
            bound_port, account_count, alert_count, threads);

    int signal_number;
    sigwait(&stop_signals, &signal_number);
    stop_feed_daemons(&daemons);
    MHD_destroy_response(not_found);
    MHD_destroy_response(not_allowed);
    return 0;
}
