/* A small MessagePack reader and writer for arena bots: see mp.h. */
#include "mp.h"
#include <stdlib.h>
#include <string.h>

typedef struct { const unsigned char *p, *end; int depth; } reader;

static int need(reader *r, size_t n) { return (size_t)(r->end - r->p) >= n; }
static uint64_t be(const unsigned char *p, int n) {
    uint64_t x = 0;
    for (int i = 0; i < n; i++) x = (x << 8) | p[i];
    return x;
}

static int decode_into(reader *r, mp_value *v);

static int take_bytes(reader *r, mp_value *v, mp_type type, size_t n) {
    if (!need(r, n)) return 0;
    char *s = malloc(n + 1);
    if (!s) return 0;
    memcpy(s, r->p, n);
    s[n] = 0;
    r->p += n;
    v->type = type; v->s = s; v->len = n;
    return 1;
}

static int take_items(reader *r, mp_value *v, mp_type type, size_t n) {
    size_t count = type == MP_MAP ? 2 * n : n;
    if (!need(r, count)) return 0;   /* every item takes at least one byte */
    if (++r->depth > 64) return 0;
    v->type = type; v->len = n;
    v->items = calloc(count ? count : 1, sizeof(mp_value));
    if (!v->items) return 0;
    for (size_t i = 0; i < count; i++)
        if (!decode_into(r, &v->items[i])) return 0;
    r->depth--;
    return 1;
}

static int decode_into(reader *r, mp_value *v) {
    memset(v, 0, sizeof *v);
    if (!need(r, 1)) return 0;
    unsigned char c = *r->p++;
    if (c <= 0x7f) { v->type = MP_INT; v->i = c; return 1; }
    if (c >= 0xe0) { v->type = MP_INT; v->i = (int8_t)c; return 1; }
    if ((c & 0xe0) == 0xa0) return take_bytes(r, v, MP_STR, c & 0x1f);
    if ((c & 0xf0) == 0x90) return take_items(r, v, MP_ARRAY, c & 0x0f);
    if ((c & 0xf0) == 0x80) return take_items(r, v, MP_MAP, c & 0x0f);
    static const int width[] = {1, 2, 4, 8};
    switch (c) {
    case 0xc0: v->type = MP_NIL; return 1;
    case 0xc2: case 0xc3: v->type = MP_BOOL; v->i = c == 0xc3; return 1;
    case 0xcc: case 0xcd: case 0xce: case 0xcf: {          /* uint 8/16/32/64 */
        int n = width[c - 0xcc];
        if (!need(r, n)) return 0;
        v->type = MP_INT; v->i = (int64_t)be(r->p, n); r->p += n; return 1;
    }
    case 0xd0: case 0xd1: case 0xd2: case 0xd3: {          /* int 8/16/32/64 */
        int n = width[c - 0xd0];
        if (!need(r, n)) return 0;
        uint64_t x = be(r->p, n);
        r->p += n;
        if (n < 8 && (x >> (8 * n - 1))) x |= ~(uint64_t)0 << (8 * n);  /* sign-extend */
        v->type = MP_INT; v->i = (int64_t)x; return 1;
    }
    case 0xca: {                                           /* float 32 */
        if (!need(r, 4)) return 0;
        uint32_t x = (uint32_t)be(r->p, 4); float f; memcpy(&f, &x, 4);
        r->p += 4; v->type = MP_FLOAT; v->f = f; return 1;
    }
    case 0xcb: {                                           /* float 64 */
        if (!need(r, 8)) return 0;
        uint64_t x = be(r->p, 8); double d; memcpy(&d, &x, 8);
        r->p += 8; v->type = MP_FLOAT; v->f = d; return 1;
    }
    case 0xd9: case 0xda: case 0xdb: case 0xc4: case 0xc5: case 0xc6: {  /* str, bin 8/16/32 */
        int str = c >= 0xd9, n = 1 << (str ? c - 0xd9 : c - 0xc4);
        if (!need(r, n)) return 0;
        size_t len = (size_t)be(r->p, n); r->p += n;
        return take_bytes(r, v, str ? MP_STR : MP_BIN, len);
    }
    case 0xdc: case 0xdd: case 0xde: case 0xdf: {          /* array 16/32, map 16/32 */
        int n = (c == 0xdc || c == 0xde) ? 2 : 4;
        if (!need(r, n)) return 0;
        size_t len = (size_t)be(r->p, n); r->p += n;
        return take_items(r, v, c <= 0xdd ? MP_ARRAY : MP_MAP, len);
    }
    default: return 0;   /* ext types: the referee never sends them */
    }
}

mp_value *mp_decode(const unsigned char *data, size_t size) {
    reader r = {data, data + size, 0};
    mp_value *v = calloc(1, sizeof *v);
    if (v && (!decode_into(&r, v) || r.p != r.end)) { mp_free(v); return NULL; }
    return v;
}

static void free_inner(mp_value *v) {
    if (v->type == MP_STR || v->type == MP_BIN) free((void *)v->s);
    if ((v->type == MP_ARRAY || v->type == MP_MAP) && v->items) {
        size_t count = v->type == MP_MAP ? 2 * v->len : v->len;
        for (size_t i = 0; i < count; i++) free_inner(&v->items[i]);
        free(v->items);
    }
}

void mp_free(mp_value *v) { if (v) { free_inner(v); free(v); } }

const mp_value *mp_get(const mp_value *map, const char *key) {
    if (!map || map->type != MP_MAP) return NULL;
    for (size_t i = 0; i < map->len; i++) {
        const mp_value *k = &map->items[2 * i];
        if (k->type == MP_STR && strcmp(k->s, key) == 0) return &map->items[2 * i + 1];
    }
    return NULL;
}

const mp_value *mp_at(const mp_value *array, size_t i) {
    if (!array || array->type != MP_ARRAY || i >= array->len) return NULL;
    return &array->items[i];
}

void mp_print(FILE *out, const mp_value *v) {
    if (!v) { fputs("(none)", out); return; }
    switch (v->type) {
    case MP_NIL: fputs("null", out); break;
    case MP_BOOL: fputs(v->i ? "true" : "false", out); break;
    case MP_INT: fprintf(out, "%lld", (long long)v->i); break;
    case MP_FLOAT: fprintf(out, "%g", v->f); break;
    case MP_STR: fprintf(out, "\"%s\"", v->s); break;
    case MP_BIN: fprintf(out, "<%zu bytes>", v->len); break;
    case MP_ARRAY:
        fputc('[', out);
        for (size_t i = 0; i < v->len; i++) { if (i) fputs(", ", out); mp_print(out, &v->items[i]); }
        fputc(']', out); break;
    case MP_MAP:
        fputc('{', out);
        for (size_t i = 0; i < v->len; i++) {
            if (i) fputs(", ", out);
            mp_print(out, &v->items[2 * i]); fputs(": ", out); mp_print(out, &v->items[2 * i + 1]);
        }
        fputc('}', out); break;
    }
}

static void put(mp_buffer *b, const void *data, size_t n) {
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->data = realloc(b->data, b->cap);
        if (!b->data) { fputs("out of memory\n", stderr); exit(1); }
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
}

static void put_be(mp_buffer *b, unsigned char tag, uint64_t x, int n) {
    unsigned char out[9];
    out[0] = tag;
    for (int i = 0; i < n; i++) out[1 + i] = (unsigned char)(x >> (8 * (n - 1 - i)));
    put(b, out, 1 + n);
}

void mp_put_map(mp_buffer *b, uint32_t pairs) {
    if (pairs < 16) { unsigned char c = 0x80 | pairs; put(b, &c, 1); }
    else if (pairs < 65536) put_be(b, 0xde, pairs, 2);
    else put_be(b, 0xdf, pairs, 4);
}

void mp_put_str(mp_buffer *b, const char *s) {
    size_t n = strlen(s);
    if (n < 32) { unsigned char c = 0xa0 | (unsigned char)n; put(b, &c, 1); }
    else if (n < 256) put_be(b, 0xd9, n, 1);
    else if (n < 65536) put_be(b, 0xda, n, 2);
    else put_be(b, 0xdb, n, 4);
    put(b, s, n);
}

void mp_put_int(mp_buffer *b, int64_t n) {
    if (n >= 0 && n < 128) { unsigned char c = (unsigned char)n; put(b, &c, 1); }
    else if (n < 0 && n >= -32) { unsigned char c = (unsigned char)(int8_t)n; put(b, &c, 1); }
    else put_be(b, 0xd3, (uint64_t)n, 8);
}

static int read_exact(FILE *in, unsigned char *p, size_t n) {
    while (n) {
        size_t got = fread(p, 1, n, in);
        if (got == 0) return 0;
        p += got; n -= got;
    }
    return 1;
}

mp_value *mp_receive(FILE *in) {
    unsigned char header[4];
    if (!read_exact(in, header, 4)) return NULL;
    size_t n = (size_t)be(header, 4);
    unsigned char *body = malloc(n ? n : 1);
    if (!body || !read_exact(in, body, n)) { free(body); return NULL; }
    mp_value *v = mp_decode(body, n);
    free(body);
    if (!v) { fputs("bot: the referee sent a message this reader cannot decode\n", stderr); exit(1); }
    return v;
}

void mp_send(FILE *out, mp_buffer *b) {
    unsigned char header[4] = {(unsigned char)(b->len >> 24), (unsigned char)(b->len >> 16),
                               (unsigned char)(b->len >> 8), (unsigned char)b->len};
    fwrite(header, 1, 4, out);
    fwrite(b->data, 1, b->len, out);
    fflush(out);
    b->len = 0;
}
