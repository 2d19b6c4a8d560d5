/*
 * A protobuf wire-format reader that walks a message in place, field by
 * field, the way Perfetto's protozero does: no code generator, no
 * allocation, no copy.  Every read is bounded by the message's end; a
 * varint longer than 10 bytes, a length past the end or a wire type that
 * does not exist (3, 4: groups, 6, 7) is reported as malformed, never
 * trusted.  Field meanings live with the callers (pftrace.h and friends);
 * numbers are Perfetto's (../shared/reference/perfetto-protos/).
 */
#ifndef SYSTRACE_PB_H
#define SYSTRACE_PB_H

#include <stddef.h>
#include <stdint.h>

enum pb_wire { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

struct pb_field {
    uint32_t num;           /* field number */
    enum pb_wire wire;
    uint64_t v;             /* PB_VARINT, PB_I64, PB_I32: the value */
    const uint8_t *p;       /* PB_LEN: the bytes */
    size_t len;
};

struct pb_iter {
    const uint8_t *p, *end;
    const uint8_t *start;   /* for offsets in messages */
    int bad;                /* set once malformed; pb_next then returns -1 */
};

void pb_iter_init(struct pb_iter *it, const uint8_t *p, size_t len);

/* The next field: 1 read, 0 end of message, -1 malformed (it->bad set,
 * pb_offset() tells where). */
int pb_next(struct pb_iter *it, struct pb_field *f);
/* A message of an id (field 1, varint) and a name (field 2, bytes), the
 * shape of interned data and of counter descriptors: 0, or -1 when it is
 * malformed.  The last of each field wins; *name is NULL without one. */
int pb_id_name(const uint8_t *p, size_t n, uint64_t *id, const uint8_t **name, size_t *len);

/* Bytes read so far from the start of the message. */
static inline size_t pb_offset(const struct pb_iter *it)
{
    return (size_t)(it->p - it->start);
}

/* One varint at *p (at most 10 bytes, within end): 1 read and *p moved,
 * 0 not enough bytes, -1 malformed (more than 10 bytes). */
int pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

static inline int64_t pb_zigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Packed repeated varints (a PB_LEN field): 1 read, 0 end, -1 malformed. */
struct pb_packed {
    const uint8_t *p, *end;
};
static inline void pb_packed_init(struct pb_packed *pk, const struct pb_field *f)
{
    pk->p = f->p;
    pk->end = f->p + f->len;
}
int pb_packed_next(struct pb_packed *pk, uint64_t *v);

/* Up to 6 packed arrays read in step, a row at a time (Perfetto's compact
 * sched): bit i of present says array i was in the message.  An absent
 * last array reads as 0s (a field older producers leave out); any other
 * absent one ends the rows.  1: a row in v; 0: all ended together; -1: a
 * bad varint or arrays of different lengths. */
struct pb_cols {
    struct pb_packed c[6];
    int n, present;
};
int pb_cols_next(struct pb_cols *c, uint64_t *v);

/* Fixed-width little-endian values of PB_I64 / PB_I32 fields, as the
 * scalar types the schema gives them. */
double pb_double(uint64_t v);
float pb_float(uint64_t v);

#endif
