/*
 * The trace-event writer's state (pftev_int.h): a small 64-bit-keyed map,
 * sequences with their interned strings, tracks by uuid, the names
 * already written, and the JSON text of one event.  The lowest file of
 * the writer: pftev.c and pftev_track.c call down to it.
 */
#include "pftev_int.h"

#include "lib/numfmt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- map ---------------------------------------------------------------- */

static size_t slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

void *pmap_get(const struct pftev_map *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->slots[i].val)
            return NULL;
        if (m->slots[i].key == key)
            return m->slots[i].val;
    }
}

static enum st_err grow(struct pftev_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    struct pftev_slot *s = calloc(cap, sizeof(*s));
    if (!s)
        return ST_ENOMEM;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].val)
            continue;
        size_t j = slot_of(m->slots[i].key, cap);
        while (s[j].val)
            j = (j + 1) & (cap - 1);
        s[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = s;
    m->cap = cap;
    return ST_OK;
}

/* Adds or replaces (the old value is freed). */
enum st_err pmap_put(struct pftev_map *m, uint64_t key, void *val)
{
    if ((m->count + 1) * 2 > m->cap && grow(m))
        return ST_ENOMEM;
    size_t i = slot_of(key, m->cap);
    while (m->slots[i].val && m->slots[i].key != key)
        i = (i + 1) & (m->cap - 1);
    if (m->slots[i].val)
        free(m->slots[i].val);
    else
        m->count++;
    m->slots[i].key = key;
    m->slots[i].val = val;
    return ST_OK;
}

/* Is h in the cyclic range (i, j]? */
static int between(size_t h, size_t i, size_t j)
{
    return i <= j ? i < h && h <= j : i < h || h <= j;
}

/* Linear probing's backward shift: each key after the hole that cannot
 * be reached across it any more moves into it. */
void pmap_del(struct pftev_map *m, uint64_t key)
{
    size_t i, j, mask = m->cap - 1;
    if (!m->cap)
        return;
    for (i = slot_of(key, m->cap); m->slots[i].val && m->slots[i].key != key;)
        i = (i + 1) & mask;
    if (!m->slots[i].val)
        return;
    free(m->slots[i].val);
    m->slots[i].val = NULL;
    m->count--;
    for (j = (i + 1) & mask; m->slots[j].val; j = (j + 1) & mask) {
        if (between(slot_of(m->slots[j].key, m->cap), i, j))
            continue;
        m->slots[i] = m->slots[j];
        m->slots[j].val = NULL;
        i = j;
    }
}

void pmap_free(struct pftev_map *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->slots[i].val);
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

char *pftev_strdup(const uint8_t *p, size_t n)
{
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

/* ---- sequences ---------------------------------------------------------- */

struct pftev_seq *pftev_seq(struct pftev *v, uint32_t id)
{
    struct pftev_seq *s = pmap_get(&v->seqs, id);
    if (s || v->seqs.count >= PFTEV_SEQS_MAX)
        return s;
    s = calloc(1, sizeof(*s));
    if (s && pmap_put(&v->seqs, id, s)) {
        free(s);
        s = NULL;
    }
    return s;
}

/* Interned strings of the sequence are forgotten (its thread is not:
 * a ThreadDescriptor is not incremental state). */
void pftev_seq_clear(struct pftev *v, struct pftev_seq *s)
{
    for (size_t i = 0; i < s->interned.cap; i++)
        if (s->interned.slots[i].val)
            v->ibytes -= strlen(s->interned.slots[i].val) + 1;
    pmap_free(&s->interned);
    s->has_def = 0;
    s->def_clock = 0;
}

static uint64_t ikey(enum pftev_ikind k, uint64_t iid)
{
    return (uint64_t)k << 56 | (iid & ((1ULL << 56) - 1));
}

enum st_err pftev_intern(struct pftev *v, struct pftev_seq *s, enum pftev_ikind k,
                         uint64_t iid, const uint8_t *p, size_t n)
{
    if (n + 1 > PFTEV_INTERN_BYTES - v->ibytes) {
        v->st.dropped++;
        return ST_OK;
    }
    const char *old = pmap_get(&s->interned, ikey(k, iid));
    size_t oldn = old ? strlen(old) + 1 : 0;   /* freed by pmap_put */
    char *str = pftev_strdup(p, n);
    if (!str || pmap_put(&s->interned, ikey(k, iid), str)) {
        free(str);
        return ST_ENOMEM;
    }
    v->ibytes = v->ibytes + n + 1 - oldn;
    return ST_OK;
}

const char *pftev_interned(const struct pftev_seq *s, enum pftev_ikind k, uint64_t iid)
{
    return pmap_get(&s->interned, ikey(k, iid));
}

/* ---- tracks ------------------------------------------------------------- */

struct pftev_track *pftev_track(struct pftev *v, uint64_t uuid, int create)
{
    struct pftev_track *t = pmap_get(&v->tracks, uuid);
    if (t || !create || v->tracks.count >= PFTEV_TRACKS_MAX)
        return t;
    t = calloc(1, sizeof(*t));
    if (t && pmap_put(&v->tracks, uuid, t)) {
        free(t);
        return NULL;
    }
    if (t) {
        t->uuid = uuid;
        t->pid = t->tid = -1;
    }
    return t;
}

int32_t pftev_track_pid(struct pftev *v, const struct pftev_track *t)
{
    for (int hops = 0; t && hops < 32; hops++) {
        if (t->pid >= 0)
            return t->pid;
        if (!t->parent || t->parent == t->uuid)
            break;
        t = pftev_track(v, t->parent, 0);
    }
    return -1;
}

/* ---- the JSON text of one event ----------------------------------------- */

void ev_add(struct pftev *v, const char *s)
{
    v->ev_bad |= dynbuf_addstr(&v->ev, s) != ST_OK;
}

void ev_addf(struct pftev *v, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    v->ev_bad |= n < 0 || (size_t)n >= sizeof(buf) || dynbuf_add(&v->ev, buf, (size_t)n);
}

/* Numbers without printf (lib/numfmt.h): its format parsing was a sixth
 * of a conversion. */
void ev_int(struct pftev *v, int64_t n)
{
    char b[NUMFMT_MAX];
    v->ev_bad |= dynbuf_add(&v->ev, b, numfmt_i64(b, n)) != ST_OK;
}

void ev_uint(struct pftev *v, uint64_t n)
{
    char b[NUMFMT_MAX];
    v->ev_bad |= dynbuf_add(&v->ev, b, numfmt_u64(b, n)) != ST_OK;
}

void ev_hexid(struct pftev *v, uint64_t n)
{
    char b[NUMFMT_MAX + 4] = "\"0x";
    size_t k = numfmt_hex(b + 3, n) + 3;
    b[k++] = '"';
    v->ev_bad |= dynbuf_add(&v->ev, b, k) != ST_OK;
}

void ev_pidtid(struct pftev *v, int64_t pid, int64_t tid)
{
    ev_add(v, ",\"pid\":");
    ev_int(v, pid);
    ev_add(v, ",\"tid\":");
    ev_int(v, tid);
}

void ev_start(struct pftev *v, char ph)
{
    char b[] = ",\n{\"ph\":\"X\"";
    dynbuf_reset(&v->ev);
    v->ev_bad = 0;
    b[sizeof(b) - 3] = ph;
    ev_add(v, v->st.events ? b : b + 1);
}

/* Bytes of a valid UTF-8 sequence at p (1-4), 0 if not one. */
static size_t utf8_len(const uint8_t *p, size_t n)
{
    uint8_t c = p[0];
    size_t k = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
             : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (!k || k > n || (k == 2 && c < 0xc2) || (k == 4 && c > 0xf4))
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((k == 3 && c == 0xe0 && p[1] < 0xa0) || (k == 3 && c == 0xed && p[1] >= 0xa0) ||
        (k == 4 && c == 0xf0 && p[1] < 0x90) || (k == 4 && c == 0xf4 && p[1] >= 0x90))
        return 0;
    return k;
}

/* A JSON string: control characters escaped, invalid UTF-8 as U+FFFD. */
void ev_str(struct pftev *v, const char *s, size_t n)
{
    const uint8_t *p = (const uint8_t *)s;
    ev_add(v, "\"");
    for (size_t i = 0; i < n;) {
        size_t k = utf8_len(p + i, n - i);
        if (!k) {
            ev_add(v, "\\ufffd");
            i++;
        } else if (k == 1 && (p[i] < 0x20 || p[i] == '"' || p[i] == '\\')) {
            if (p[i] == '"' || p[i] == '\\')
                ev_addf(v, "\\%c", p[i]);
            else
                ev_addf(v, "\\u%04x", p[i]);
            i++;
        } else {
            v->ev_bad |= dynbuf_add(&v->ev, p + i, k) != ST_OK;
            i += k;
        }
    }
    ev_add(v, "\"");
}

void ev_ts(struct pftev *v, uint64_t ns)
{
    if (!v->st.first_ts || ns < v->st.first_ts)
        v->st.first_ts = ns;
    if (ns > v->st.last_ts)
        v->st.last_ts = ns;
    char b[NUMFMT_MAX + 8] = ",\"ts\":";
    size_t k = numfmt_us(b + 6, ns, 0) + 6;
    v->ev_bad |= dynbuf_add(&v->ev, b, k) != ST_OK;
}

enum st_err ev_emit(struct pftev *v)
{
    if (v->err)
        return v->err;
    ev_add(v, "}");
    if (v->ev_bad) {
        v->st.dropped++;
        return ST_OK;
    }
    v->st.events++;
    v->err = v->write(v->wctx, v->ev.data, v->ev.len);
    return v->err;
}

/* ---- time -------------------------------------------------------------- */

int pftev_time(struct pftev *v, uint32_t seq, uint32_t clock, uint64_t ts, uint64_t *out)
{
    int64_t ns;
    if (!clock) {
        *out = ts;
        return 0;
    }
    if (pfclk_convert(&v->clk, seq, clock, ts, &ns)) {
        v->st.no_clock++;
        return -1;
    }
    *out = ns < 0 ? 0 : (uint64_t)ns;
    return 0;
}

/* ---- names -------------------------------------------------------------- */

/* Written once per id and name: descriptors come again and again. */
static enum st_err name_event(struct pftev *v, struct pftev_map *seen, uint64_t key,
                              const char *what, int32_t pid, int32_t tid,
                              const uint8_t *p, size_t n)
{
    const char *old = pmap_get(seen, key);
    if (!n || (old && strlen(old) == n && !memcmp(old, p, n)))
        return ST_OK;
    char *s = pftev_strdup(p, n);
    if (!s || pmap_put(seen, key, s)) {
        free(s);
        return ST_ENOMEM;
    }
    ev_start(v, 'M');
    ev_add(v, ",\"name\":\"");
    ev_add(v, what);
    ev_add(v, "\"");
    ev_pidtid(v, pid, tid);
    ev_add(v, ",\"args\":{\"name\":");
    ev_str(v, (const char *)p, n);
    ev_add(v, "}");
    v->st.names++;
    return ev_emit(v);
}

enum st_err pftev_name_process(struct pftev *v, int32_t pid, const uint8_t *p, size_t n)
{
    return name_event(v, &v->pnames, (uint32_t)pid, "process_name", pid, pid, p, n);
}

enum st_err pftev_name_thread(struct pftev *v, int32_t pid, int32_t tid, const uint8_t *p,
                              size_t n)
{
    return name_event(v, &v->tnames, (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid,
                      "thread_name", pid, tid, p, n);
}
