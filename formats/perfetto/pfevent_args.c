/*
 * An event's fields as Perfetto keeps them as args (the wire type must
 * fit the declared kind; kernel function addresses named through the
 * interned symbols), and " key=value" text for them (gfp_flags as flag
 * names, pfevent_gfp.c).  Below the generic format (pfevent.c) and the
 * hand-written ones (pfevent_sched.c, pfevent_special.c).
 */
#include "pfevent_int.h"

#include <string.h>

#include "pb.h"

/* Fields Perfetto resolves through the interned kernel symbols. */
static const struct { uint16_t id; uint8_t field; } kfuncs[] = {
    {18, 2}, {58, 2}, {59, 2}, {437, 2}, {438, 3}, {443, 8}, {553, 3},
};

int pfevent_is_kfunc(uint32_t id, uint32_t field)
{
    for (size_t i = 0; i < sizeof kfuncs / sizeof kfuncs[0]; i++)
        if (kfuncs[i].id == id && kfuncs[i].field == field)
            return 1;
    return 0;
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
