/*
 * The protobuf wire format (protobuf.dev "Encoding"): a message is a run of
 * (tag varint, value) pairs, tag = field number << 3 | wire type.  Only the
 * four wire types proto3 writes are accepted; groups (3, 4) never occur in
 * Perfetto's traces and are reported as malformed.
 */
#include <string.h>

#include "pb.h"

void pb_iter_init(struct pb_iter *it, const uint8_t *p, size_t len)
{
    it->p = p;
    it->start = p;
    it->end = p + len;
    it->bad = 0;
}

int pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    const uint8_t *q = *p;
    uint64_t r = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        if (q >= end)
            return 0;
        uint8_t b = *q++;
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            *p = q;
            return 1;
        }
    }
    return -1;
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static int bad(struct pb_iter *it)
{
    it->bad = 1;
    return -1;
}

int pb_next(struct pb_iter *it, struct pb_field *f)
{
    if (it->bad)
        return -1;
    if (it->p >= it->end)
        return 0;
    uint64_t tag;
    if (pb_varint(&it->p, it->end, &tag) != 1 || tag >> 3 == 0 || tag >> 3 > UINT32_MAX)
        return bad(it);
    f->num = (uint32_t)(tag >> 3);
    f->wire = (enum pb_wire)(tag & 7);
    f->p = NULL;
    f->len = 0;
    f->v = 0;
    size_t left;
    switch (f->wire) {
    case PB_VARINT:
        return pb_varint(&it->p, it->end, &f->v) == 1 ? 1 : bad(it);
    case PB_I64:
    case PB_I32: {
        int n = f->wire == PB_I64 ? 8 : 4;
        if (it->end - it->p < n)
            return bad(it);
        f->v = le(it->p, n);
        it->p += n;
        return 1;
    }
    case PB_LEN:
        if (pb_varint(&it->p, it->end, &f->v) != 1)
            return bad(it);
        left = (size_t)(it->end - it->p);
        if (f->v > left)
            return bad(it);
        f->p = it->p;
        f->len = (size_t)f->v;
        it->p += f->len;
        return 1;
    default:
        return bad(it);
    }
}

int pb_packed_next(struct pb_packed *pk, uint64_t *v)
{
    if (pk->p >= pk->end)
        return 0;
    return pb_varint(&pk->p, pk->end, v) == 1 ? 1 : -1;
}

double pb_double(uint64_t v)
{
    double d;
    memcpy(&d, &v, sizeof(d));
    return d;
}

float pb_float(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

int pb_id_name(const uint8_t *p, size_t n, uint64_t *id, const uint8_t **name, size_t *len)
{
    struct pb_iter it;
    struct pb_field f;
    int r;
    *id = 0;
    *name = NULL;
    *len = 0;
    pb_iter_init(&it, p, n);
    while ((r = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            *id = f.v;
        else if (f.num == 2 && f.wire == PB_LEN)
            *name = f.p, *len = f.len;
    }
    return r ? -1 : 0;
}

int pb_cols_next(struct pb_cols *c, uint64_t *v)
{
    int first = -2;
    for (int i = 0; i < c->n; i++) {
        int r = 0;
        v[i] = 0;
        if (c->present & (1 << i))
            r = pb_packed_next(&c->c[i], &v[i]);
        else if (i == c->n - 1 && first == 1)
            r = 1;
        if (r < 0)
            return -1;
        if (first == -2)
            first = r;
        else if (r != first)
            return -1;
    }
    return first;
}
