/*
 * Shared by the pfevent*.c files only: the writer with a sticky error, one
 * decoded field value, and the event being printed.
 */
#ifndef SYSTRACE_PFEVENT_INT_H
#define SYSTRACE_PFEVENT_INT_H

#include <string.h>

#include "lib/dynbuf.h"
#include "pfevent.h"
#include "pb.h"

#define PFEVENT_PRINT_ID 3u
#define PFEVENT_SCHED_SWITCH_ID 4u
#define PFEVENT_MAX_FIELDS 32u      /* Perfetto ignores field numbers above */
/* The name written for an empty comm (pfevent_sched.c's put_comm). */
#define PFEVENT_NO_COMM "<...>"

struct pfw {
    const struct pfevent_ctx *c;
    struct dynbuf *out;
    enum st_err err;
    int cut;                /* a string held a NUL: Perfetto's line ends there */
};

enum { PFV_INT, PFV_UINT, PFV_STR };
struct pfv {
    int kind;
    int64_t i;
    uint64_t u;
    const char *s;
    size_t n;
};

struct pfev {
    const struct pfevent_ctx *c;
    uint32_t id;
    const struct pfevent_desc *d;
    const uint8_t *msg;
    size_t len;
};

/* Text of an event's body.  Inline: this is the hot path of a conversion
 * (every field of every event), and numbers are written by hand because
 * vsnprintf costs more than the rest of an event. */
static inline void pfw_put(struct pfw *w, const char *s, size_t n)
{
    if (w->err == ST_OK && n && !w->cut)
        w->err = dynbuf_add(w->out, s, n);
}

static inline void pfw_str(struct pfw *w, const char *s)
{
    pfw_put(w, s, strlen(s));
}

static inline void pfw_digits(struct pfw *w, uint64_t v, unsigned base, int neg)
{
    char tmp[24];
    size_t i = sizeof tmp;
    do {
        tmp[--i] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    if (neg)
        tmp[--i] = '-';
    pfw_put(w, tmp + i, sizeof tmp - i);
}

static inline void pfw_int(struct pfw *w, int64_t v)
{
    pfw_digits(w, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 10, v < 0);
}

static inline void pfw_uint(struct pfw *w, uint64_t v)
{
    pfw_digits(w, v, 10, 0);
}

static inline void pfw_hex(struct pfw *w, uint64_t v)
{
    pfw_digits(w, v, 16, 0);
}

/* pfevent_args.c */
void pfw_value(struct pfw *w, const struct pfv *v);
/* " key=value" (gfp_flags as flag names). */
void pfw_arg(struct pfw *w, const char *key, const struct pfv *v);

const struct pfevent_field *pfevent_field(const struct pfevent_desc *d, uint32_t num);
/* A field as Perfetto keeps it: 0 if it would not be an arg. */
int pfv_read(const struct pfevent_ctx *c, uint32_t id, const struct pfevent_field *fd,
             const struct pb_field *f, struct pfv *v);
/* Field NUM of the event (the last if repeated): 1 found. */
int pfev_arg(const struct pfev *e, uint32_t num, struct pfv *v);

/* pfevent_special.c */
int pfevent_special(struct pfw *w, const struct pfev *e);   /* 0: not special */
enum st_err pfevent_switch_msg(const struct pfev *e, struct pfw *w);
int pfevent_is_kfunc(uint32_t id, uint32_t field);
int pfevent_is_mark_alias(uint32_t id);
enum st_err pfevent_generic(const struct pfevent_ctx *c, const uint8_t *msg, size_t len, struct dynbuf *out);

/* pfevent_gfp.c */
void pfevent_gfp(struct pfw *w, uint64_t flags);

#endif
