/*
 * bench_buffer.h: the growing byte buffer the C renderers write a page into
 * (reference.c, feed_sqlite.c), with the allocation check they share.
 * Include after bench_server.h, which gives die().
 */
#ifndef BENCH_BUFFER_H
#define BENCH_BUFFER_H

#include <stdlib.h>
#include <string.h>

static void *checked(void *pointer)
{
    if (pointer == NULL)
        die("out of memory", NULL);
    return pointer;
}

struct buffer {
    char *data;
    size_t length, capacity;
};

static struct buffer new_buffer(size_t capacity)
{
    return (struct buffer){ checked(malloc(capacity)), 0, capacity };
}

static void reserve(struct buffer *buffer, size_t more)
{
    if (buffer->length + more <= buffer->capacity)
        return;
    while (buffer->length + more > buffer->capacity)
        buffer->capacity *= 2;
    buffer->data = checked(realloc(buffer->data, buffer->capacity));
}

static void put_bytes(struct buffer *buffer, const char *bytes, size_t length)
{
    reserve(buffer, length);
    memcpy(buffer->data + buffer->length, bytes, length);
    buffer->length += length;
}

/* A string literal, its length known at compile time. */
#define PUT(buffer, literal) put_bytes((buffer), "" literal, sizeof(literal) - 1)

#endif
