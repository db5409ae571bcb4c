/* A small MessagePack reader and writer for arena bots (protocol/SPEC.md §2, §3).
 * Reading: mp_decode() turns one frame body into a tree of mp_value; mp_get() looks up a key in
 * a map. Writing: the mp_put_* functions append to an mp_buffer; mp_send() frames and flushes it.
 * Public domain: copy it into any bot. */
#ifndef ARENA_MP_H
#define ARENA_MP_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { MP_NIL, MP_BOOL, MP_INT, MP_FLOAT, MP_STR, MP_BIN, MP_ARRAY, MP_MAP } mp_type;

typedef struct mp_value {
    mp_type type;
    int64_t i;              /* MP_INT (and MP_BOOL: 0 or 1) */
    double f;               /* MP_FLOAT */
    const char *s;          /* MP_STR, MP_BIN: NUL-terminated copy; len bytes */
    size_t len;             /* MP_STR, MP_BIN: bytes; MP_ARRAY: items; MP_MAP: pairs */
    struct mp_value *items; /* MP_ARRAY: len items; MP_MAP: 2*len items, key, value, key, value... */
} mp_value;

/* Decode one MessagePack value from data[0..size); returns NULL on malformed input.
 * Free the result with mp_free(). */
mp_value *mp_decode(const unsigned char *data, size_t size);
void mp_free(mp_value *v);
/* The value of key `key` in map `map`, or NULL (also when `map` is not a map). */
const mp_value *mp_get(const mp_value *map, const char *key);
/* Item `i` of an array, or NULL. */
const mp_value *mp_at(const mp_value *array, size_t i);
/* Print a value as JSON-like text (for logging to stderr). */
void mp_print(FILE *out, const mp_value *v);

typedef struct { unsigned char *data; size_t len, cap; } mp_buffer;
void mp_put_map(mp_buffer *b, uint32_t pairs);
void mp_put_str(mp_buffer *b, const char *s);
void mp_put_int(mp_buffer *b, int64_t n);
/* Read one frame from `in` (4-byte big-endian length, then the body): returns the decoded
 * message, or NULL at the end of input. */
mp_value *mp_receive(FILE *in);
/* Write the buffer as one frame to `out`, flush, and empty the buffer. */
void mp_send(FILE *out, mp_buffer *b);
#endif
