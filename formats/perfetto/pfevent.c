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

    c->kernel_major = c->kernel_minor = c->sched_major = c->sched_minor = 0;
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
    c->kernel_major = c->sched_major = (int)v[0];
    c->kernel_minor = c->sched_minor = (int)v[1];
}
