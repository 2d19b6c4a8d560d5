/*
 * Event bodies as Perfetto's to_ftrace prints them (trace processor at
 * ec5d16b14b, plugins/to_ftrace/to_ftrace.cc, fed by the importer's
 * ParseTypedFtraceToRaw).  The rules, read there and checked against the
 * real trace processor (tests/e2e/perfetto_events.sh):
 *  - generic events: " name=value" for each field in message order, the
 *    type from the descriptor: int32/int64/bool/enum signed, uint unsigned,
 *    sint zigzag, strings raw; nested messages, unknown field numbers and
 *    numbers >= 32 are left out; an event with nothing printable prints
 *    nothing, not even the fixed text of a hand-written format;
 *  - a field called gfp_flags prints as flag names (pfevent_gfp.c);
 *  - hand-written formats: pfevent_special.c.
 * Deviations, all where Perfetto prints memory it did not mean to: it maps
 * the fields of hand-written formats by their positions in the first event
 * of each type (here each event is read on its own: the same whenever all
 * fields are present, as traced_probes writes them); an event with no
 * printable field gets the args of arg set 0 (here nothing);
 * workqueue_queue_work's workqueue, a string, prints as its string-pool id
 * in hex (here the string); a field whose wire type does not fit its type
 * prints an address (here it is left out).  Verified on all 551 event
 * types by tests/e2e/perfetto_events.sh.
 */
#include "pfevent_int.h"

#include <string.h>

#include "pb.h"

void pfw_put(struct pfw *w, const char *s, size_t n)
{
    if (w->err == ST_OK && n && !w->cut)
        w->err = dynbuf_add(w->out, s, n);
}

void pfw_str(struct pfw *w, const char *s)
{
    pfw_put(w, s, strlen(s));
}

/* Numbers are written by hand: this is the hot path of a conversion, and
 * vsnprintf costs more than the rest of an event. */
static void put_digits(struct pfw *w, uint64_t v, unsigned base, int neg)
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

void pfw_int(struct pfw *w, int64_t v)
{
    put_digits(w, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 10, v < 0);
}

void pfw_uint(struct pfw *w, uint64_t v)
{
    put_digits(w, v, 10, 0);
}

void pfw_hex(struct pfw *w, uint64_t v)
{
    put_digits(w, v, 16, 0);
}

/* Does the wire type carry the declared kind?  (Perfetto would print a
 * pointer for a mismatch; leaving the field out is the only stable
 * answer.) */
static int wire_fits(int kind, enum pb_wire wire)
{
    if (kind == PFT_STR)
        return wire == PB_LEN;
    if (kind == PFT_MSG)
        return 0;
    return wire != PB_LEN;
}

int pfv_read(const struct pfevent_ctx *c, uint32_t id, const struct pfevent_field *fd,
             const struct pb_field *f, struct pfv *v)
{
    int kind = fd->type & PFT_KIND;
    if (!wire_fits(kind, f->wire))
        return 0;
    memset(v, 0, sizeof *v);
    switch (kind) {
    case PFT_INT:
        v->kind = PFV_INT;
        v->i = (int64_t)f->v;
        break;
    case PFT_SINT:
        v->kind = PFV_INT;
        v->i = pb_zigzag(f->v);
        break;
    case PFT_UINT:
        v->kind = PFV_UINT;
        v->u = f->v;
        if (c->ksym && pfevent_is_kfunc(id, fd->num)) {
            size_t n = 0;
            const char *s = c->ksym(c->ksym_arg, f->v, &n);
            if (s) {
                v->kind = PFV_STR;
                v->s = s;
                v->n = n;
            }
        }
        break;
    case PFT_STR:
        v->kind = PFV_STR;
        v->s = (const char *)f->p;
        v->n = f->len;
        break;
    }
    return 1;
}

void pfw_value(struct pfw *w, const struct pfv *v)
{
    switch (v->kind) {
    case PFV_INT:
        pfw_int(w, v->i);
        break;
    case PFV_UINT:
        pfw_uint(w, v->u);
        break;
    case PFV_STR: {
        /* to_ftrace's line is a C string: it ends at a NUL. */
        const char *nul = memchr(v->s, '\0', v->n);
        pfw_put(w, v->s, nul ? (size_t)(nul - v->s) : v->n);
        if (nul)
            w->cut = 1;
        break;
    }
    }
}

void pfw_arg(struct pfw *w, const char *key, const struct pfv *v)
{
    pfw_put(w, " ", 1);
    pfw_str(w, key);
    pfw_put(w, "=", 1);
    if (key[0] == 'g' && strcmp(key, "gfp_flags") == 0)     /* hot: every arg */
        pfevent_gfp(w, v->kind == PFV_INT ? (uint64_t)v->i : v->u);
    else
        pfw_value(w, v);
}

const struct pfevent_field *pfevent_field(const struct pfevent_desc *d, uint32_t num)
{
    const struct pfevent_field *f = pfevent_fields(d);
    if (num >= PFEVENT_MAX_FIELDS)
        return NULL;
    for (uint16_t i = 0; i < d->nfields; i++)
        if (f[i].num == num)
            return &f[i];
    return NULL;
}

int pfev_arg(const struct pfev *e, uint32_t num, struct pfv *v)
{
    const struct pfevent_field *fd = pfevent_field(e->d, num);
    struct pb_iter it;
    struct pb_field f;
    int found = 0;
    if (!fd)
        return 0;
    pb_iter_init(&it, e->msg, e->len);
    while (pb_next(&it, &f) == 1)
        if (f.num == num && pfv_read(e->c, e->id, fd, &f, v))
            found = 1;      /* the last one wins, as in Perfetto's mapping */
    return found;
}

/* Walks the message once: ST_EFORMAT if malformed, else *nargs is the
 * number of fields Perfetto would keep as args. */
static enum st_err count_args(const struct pfev *e, size_t *nargs)
{
    struct pb_iter it;
    struct pb_field f;
    struct pfv v;
    int r;
    *nargs = 0;
    pb_iter_init(&it, e->msg, e->len);
    while ((r = pb_next(&it, &f)) == 1) {
        const struct pfevent_field *fd = pfevent_field(e->d, f.num);
        if (fd && pfv_read(e->c, e->id, fd, &f, &v))
            (*nargs)++;
    }
    return r < 0 ? ST_EFORMAT : ST_OK;
}

static void format_generic(struct pfw *w, const struct pfev *e)
{
    struct pb_iter it;
    struct pb_field f;
    struct pfv v;
    pb_iter_init(&it, e->msg, e->len);
    while (pb_next(&it, &f) == 1 && !w->cut) {
        const struct pfevent_field *fd = pfevent_field(e->d, f.num);
        if (fd && pfv_read(e->c, e->id, fd, &f, &v))
            pfw_arg(w, pfevent_str(fd->name), &v);
    }
}

const char *pfevent_name(uint32_t id)
{
    const struct pfevent_desc *d = pfevent_desc(id);
    if (!d || id == PFEVENT_GENERIC_ID)
        return NULL;
    if (id == PFEVENT_PRINT_ID || pfevent_is_mark_alias(id))
        return "tracing_mark_write";
    return pfevent_str(d->name);
}

enum st_err pfevent_format(const struct pfevent_ctx *c, uint32_t id, const uint8_t *msg,
                           size_t len, struct dynbuf *out)
{
    struct pfev e = {c, id, pfevent_desc(id), msg, len};
    struct pfw w = {c, out, ST_OK, 0};
    size_t nargs;
    enum st_err err;

    if (!e.d)
        return ST_EINVAL;
    if (id == PFEVENT_GENERIC_ID)
        return pfevent_generic(c, msg, len, out);
    if ((err = count_args(&e, &nargs)) != ST_OK)
        return err;
    if (id == PFEVENT_SCHED_SWITCH_ID)
        return pfevent_switch_msg(&e, &w);
    if (nargs == 0)
        return ST_OK;
    if (!pfevent_special(&w, &e))
        format_generic(&w, &e);
    return w.err;
}

void pfevent_ctx_uname(struct pfevent_ctx *c, const char *sysname, size_t sysname_len,
                       const char *release, size_t release_len)
{
    uint32_t v[2] = {0, 0};
    size_t i = 0;

    c->kernel_major = c->kernel_minor = 0;
    if (sysname_len != 5 || memcmp(sysname, "Linux", 5) != 0)
        return;
    /* "MAJOR.MINOR[.rest]": both parts all digits, as Perfetto's
     * StringToUInt32 wants. */
    for (int part = 0; part < 2; part++) {
        size_t start = i;
        while (i < release_len && release[i] != '.') {
            if (release[i] < '0' || release[i] > '9' || v[part] > 100000)
                return;
            v[part] = v[part] * 10 + (uint32_t)(release[i] - '0');
            i++;
        }
        if (i == start)
            return;
        if (part == 0) {
            if (i == release_len)
                return;
            i++;
        }
    }
    c->kernel_major = (int)v[0];
    c->kernel_minor = (int)v[1];
}
