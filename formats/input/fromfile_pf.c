/*
 * `--from-file` of a Perfetto protobuf trace (formats/perfetto/pftrace.h):
 * a PROCESS DUMP part from the trace's process trees, then one ftrace text
 * part with every ftrace event as to_ftrace prints it, behind the ftrace
 * header Perfetto's importer needs.
 *
 * Perfetto reads a process dump only before the ftrace text, and process
 * trees come anywhere in a trace, so a trace in a file is read twice: a
 * quick first pass (process trees, new tasks and renames only; nothing is
 * formatted) over its own descriptor, gunzipping again if need
 * be, then the conversion proper from the main read loop.  From a pipe
 * the trace is scanned as it arrives and copied to a temporary file
 * (plat_tmpfile_open: bounded by disk, not memory, and gone when done),
 * converted from there at the end, after the dump; where no temporary
 * file can be made, the dump goes after the text, where the classic
 * viewer still reads it (Perfetto then names threads, not processes).
 * A trace pushed as it arrives (ff_push with FF_PUSH_HOLE, a recording
 * read while the device writes it) is scanned alongside the conversion
 * and its dump written at the end into room kept in front of the text
 * (tw_hole), so both viewers name processes without a second pass.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perfetto/pftrace.h"
#include "fromfile_int.h"
#include "lib/astage.h"
#include "lib/plat.h"

#define SCAN_CHUNK (1024 * 1024)
#define LIVE_PENDING_MAX ((size_t)8 << 20)
#define LIVE_HOLE_SLACK ((size_t)64 << 10)
#define TEXT_STAGE_BUF ((size_t)256 << 10)     /* 1 MB in all (the 64 MB bound) */

static const char header[] =
    "# tracer: nop\n#\n"
    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
    "#              | |        |      |   ||||       |         |\n";

static enum st_err scan_gz(struct pftrace *pf, z_stream *z, int *end, const unsigned char *p,
                           size_t n, unsigned char *out)
{
    z->next_in = (unsigned char *)p;
    z->avail_in = (uInt)n;
    while (z->avail_in) {
        if (*end) {
            if (z->next_in[0] != 0x1f)
                return ST_OK;
            inflateReset(z);
            *end = 0;
        }
        z->next_out = out;
        z->avail_out = SCAN_CHUNK;
        int r = inflate(z, Z_NO_FLUSH);
        if (r == Z_STREAM_END)
            *end = 1;
        else if (r != Z_OK)
            return ST_EZLIB;    /* the main pass says what is wrong */
        enum st_err e = pftrace_scan_feed(pf, out, SCAN_CHUNK - z->avail_out);
        if (e)
            return e;
    }
    return ST_OK;
}

/* Pass 1 over the file by path; any failure just ends it (pass 2 reports). */
static void prescan(struct ff *f, int fd)
{
    unsigned char *buf = malloc(SCAN_CHUNK), *out = f->res->gzipped ? malloc(SCAN_CHUNK) : NULL;
    z_stream z;
    memset(&z, 0, sizeof(z));
    int zok = f->res->gzipped && out && inflateInit2(&z, 15 + 16) == Z_OK, zend = 0;
    enum st_err e = buf && (zok || !f->res->gzipped) ? ST_OK : ST_ENOMEM;
    while (!e) {
        ssize_t r = read(fd, buf, SCAN_CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        e = zok ? scan_gz(f->pf, &z, &zend, buf, (size_t)r, out)
                : pftrace_scan_feed(f->pf, buf, (size_t)r);
    }
    if (zok)
        inflateEnd(&z);
    free(buf);
    free(out);
    pftrace_scan_finish(f->pf);
}

static enum st_err dump_write(void *ctx, const void *p, size_t n)
{
    return ff_verbatim_write(ctx, p, n);
}

/* The dump from t's names (the scan's when there was one). */
static enum st_err process_dump(struct ff *f, const struct pftrace *t)
{
    if (!pftrace_processes(t))
        return ST_OK;
    enum st_err e = ff_verbatim_begin(f, "androidProcessDump");
    if (!e)
        e = pftrace_process_dump(t, dump_write, f);
    return e ? e : ff_verbatim_end(f);
}

/* The text goes on to the guard, the page and its tees (the page's
 * escaping, the --trace-events conversion of the text) on a thread of its
 * own, as the reader reads on one and formats on another (pfstage.c). */
static enum st_err text_begin(struct ff *f)
{
    enum st_err e = tw_begin(f->w, "systemTraceEvents");
    if (e)
        return e;
    f->res->parts++;
    f->text_parts++;
    tguard_begin(f->guard, 1);
    if (!(f->pf_stage = astage_new_sized(f->gts.write, f->gts.ctx, TEXT_STAGE_BUF)))
        return ST_ENOMEM;
    pftrace_set_output(f->pf, astage_write, f->pf_stage);
    return astage_write(f->pf_stage, header, sizeof(header) - 1);
}

/* The writer's tees hear facts on the thread that makes them, and the
 * stage's thread feeds them the text: a fact waits until the stage has
 * handed on all it holds (a few at a time, so that the stage seldom
 * waits).  Frame facts come from the reader's formatting thread (the
 * trace events are converted there), which is also the stage's writer;
 * the last ones are told after the reader's finish has stopped it. */
static void facts_flush(struct ff *f)
{
    if (f->pf_stage)        /* its errors come back at the finish */
        astage_drain(f->pf_stage);
    for (size_t i = 0; i < f->pf_nfacts; i++)
        tw_fact(f->w, &f->pf_facts[i]);
    f->pf_nfacts = 0;
}

static void fact_later(struct ff *f, const struct tw_fact *t)
{
    if (!f->pf_stage) {
        tw_fact(f->w, t);
        return;
    }
    if (f->pf_nfacts == FF_PF_FACTS)
        facts_flush(f);
    f->pf_facts[f->pf_nfacts++] = *t;
}

/* All the text handed on; the stage's first error, if any. */
static enum st_err text_stage_end(struct ff *f)
{
    enum st_err e = f->pf_stage ? astage_finish(f->pf_stage) : ST_OK;
    astage_free(f->pf_stage);
    f->pf_stage = NULL;
    facts_flush(f);
    return e;
}

/* ---- facts for the summary (tw_fact): the reader knows no summary ---- */

static void frame_fact(void *ctx, const struct pftev_frame_info *i)
{
    struct ff *f = ctx;
    struct tw_fact t = {.kind = i->ended ? TW_FACT_FRAME_END : TW_FACT_FRAME, .count = 1,
                        .pid = i->pid, .token = i->token, .dur_ns = i->dur_ns,
                        .jank = i->jank, .present = i->present};
    fact_later(f, &t);
}

/* The converted events (metadata events named processes and threads, not
 * events) and what was not converted, by kind. */
static void tell_facts(struct ff *f)
{
    const struct pftev *v = pftrace_events(f->pf);
    const struct pftev_stats *st = v ? pftev_stats(v) : NULL;
    if (!st)
        return;
    struct tw_fact t = {.kind = TW_FACT_EVENTS, .count = st->events - st->names,
                        .first_ns = st->first_ts, .last_ns = st->last_ts};
    if (t.count)
        tw_fact(f->w, &t);
    const char *what;
    for (size_t i = 0; (what = pftev_other_kind(v, i, &t.count)); i++)
        if (what[0] && t.count) {
            t.kind = TW_FACT_NOT_SHOWN;
            t.what = what;
            tw_fact(f->w, &t);
        }
}

static enum st_err ff_pf_begin(struct ff *f)
{
    f->pf = pftrace_new();
    if (!f->pf)
        return ST_ENOMEM;
    enum st_err ee = ff_pfev_open(f, f->pf);
    if (ee)
        return ee;
    pftrace_set_frames(f->pf, frame_fact, f);
    if (f->pf_live) {       /* the page begins in live_open */
        f->pf_scan = pftrace_new();
        dynbuf_init(&f->pf_pending, LIVE_PENDING_MAX);
        return f->pf_scan ? ST_OK : ST_ENOMEM;
    }
    struct plat_stat st;
    int fd = -1;
    if (f->path && strcmp(f->path, "-") && plat_stat(f->path, &st) == 0 && st.kind == PLAT_FILE)
        fd = plat_open(f->path, O_RDONLY, 0);
    enum st_err e = ST_OK;
    if (fd >= 0) {
        prescan(f, fd);
        close(fd);
        e = process_dump(f, f->pf);
    } else if ((f->pf_spool_fd = plat_tmpfile_open(f->pf_spool_path,
                                                   sizeof(f->pf_spool_path))) >= 0) {
        f->pf_spooling = 1;
        return ST_OK;       /* the text begins in spool_convert */
    } else
        f->pf_dump_after = 1;
    return e ? e : text_begin(f);
}

/* ---- a trace from a pipe: spooled, then converted after its dump ------- */

static enum st_err spool_write(struct ff *f, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t w = write(f->pf_spool_fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            snprintf(f->res->detail, sizeof(f->res->detail), "cannot copy the Perfetto "
                     "trace from the pipe to a temporary file: %s", strerror(errno));
            return ST_EIO;
        }
        p += w;
        n -= (size_t)w;
    }
    return ST_OK;
}

static enum st_err spool_feed(struct ff *f, const void *p, size_t n)
{
    if (!f->pf_scan_failed && pftrace_scan_feed(f->pf, p, n))
        f->pf_scan_failed = 1;      /* the conversion reports what is wrong */
    return spool_write(f, p, n);
}

/* The dump of what the scan found, the text part, then the spooled trace
 * through the conversion. */
static enum st_err spool_convert(struct ff *f)
{
    pftrace_scan_finish(f->pf);
    enum st_err e = process_dump(f, f->pf);
    if (!e)
        e = text_begin(f);
    unsigned char *buf = e ? NULL : malloc(SCAN_CHUNK);
    if (!e && !buf)
        e = ST_ENOMEM;
    for (uint64_t off = 0; !e;) {
        ssize_t r = plat_pread(f->pf_spool_fd, buf, SCAN_CHUNK, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(f->res->detail, sizeof(f->res->detail), "cannot read back the "
                     "temporary copy of the Perfetto trace: %s", strerror(errno));
            e = ST_EIO;
        }
        if (r <= 0)
            break;
        off += (uint64_t)r;
        e = pftrace_feed(f->pf, buf, (size_t)r);
    }
    free(buf);
    return e;
}

static void spool_done(struct ff *f)
{
    if (f->pf_spooling)
        plat_tmpfile_done(f->pf_spool_fd, f->pf_spool_path);
    f->pf_spooling = 0;
}

/* ---- a trace converted as it arrives (ff_push with FF_PUSH_HOLE) ------- */

static enum st_err count_write(void *ctx, const void *p, size_t n)
{
    (void)p;
    *(size_t *)ctx += n;
    return ST_OK;
}

/* Room for the dump (twice what the scan knows so far: later processes
 * rarely double it, and a bigger dump still fits, the slow way), then
 * the text part and the bytes held back until now. */
static enum st_err live_open(struct ff *f)
{
    size_t known = 0;
    pftrace_process_dump(f->pf_scan, count_write, &known);
    enum st_err e = tw_hole(f->w, 2 * known + LIVE_HOLE_SLACK, &f->pf_hole);
    f->pf_has_hole = !e;
    if (e == ST_EUNSUPPORTED) {     /* JSON: the dump goes after the text */
        f->pf_dump_after = 1;
        e = ST_OK;
    }
    f->pf_begun = 1;
    if (!e)
        e = text_begin(f);
    if (!e && f->pf_pending.len)
        e = pftrace_feed(f->pf, f->pf_pending.data, f->pf_pending.len);
    dynbuf_free(&f->pf_pending);
    return e;
}

/* Held back until the scan has seen processes (the first process tree
 * comes at the start of a recording) or LIVE_PENDING_MAX arrived.  Junk
 * is the conversion's to report: once the scan fails it is fed no more
 * and nothing is held back, so the conversion meets the junk now and its
 * error stops the feed (ff_push) instead of the trace being held. */
static enum st_err live_feed(struct ff *f, const void *p, size_t n, int *held)
{
    if (!f->pf_scan_failed && pftrace_scan_feed(f->pf_scan, p, n))
        f->pf_scan_failed = 1;
    *held = 0;
    if (f->pf_begun)
        return ST_OK;
    if (!f->pf_scan_failed && !pftrace_processes(f->pf_scan) &&
        n <= LIVE_PENDING_MAX - f->pf_pending.len) {
        *held = 1;
        return dynbuf_add(&f->pf_pending, p, n) ? ST_ENOMEM : ST_OK;
    }
    return live_open(f);
}

static enum st_err live_dump(struct ff *f)
{
    pftrace_scan_finish(f->pf_scan);
    enum st_err e = tw_hole_begin(f->w, &f->pf_hole);
    if (!e)
        e = process_dump(f, f->pf_scan);
    enum st_err e2 = tw_hole_end(f->w, &f->pf_hole);
    return e ? e : e2;
}

static enum st_err pf_error(struct ff *f, enum st_err e)
{
    if (e == ST_ETOOBIG && tguard_detail(f->guard)[0])
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", tguard_detail(f->guard));
    else if (pftrace_detail(f->pf)[0])
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", pftrace_detail(f->pf));
    return e;
}

static enum st_err ff_pf_feed(struct ff *f, const void *p, size_t n)
{
    if (f->pf_spooling)
        return spool_feed(f, p, n);
    int held = 0;
    enum st_err le = f->pf_scan ? live_feed(f, p, n, &held) : ST_OK;
    if (le || held)
        return le ? pf_error(f, le) : ST_OK;
    enum st_err e = pftrace_feed(f->pf, p, n);
    return e ? pf_error(f, e) : ST_OK;
}

/* "COUNT TEXT", after a "; " when not the first. */
static void note(struct ff *f, uint64_t count, const char *text)
{
    char *n = f->res->note;
    size_t cap = sizeof(f->res->note), at = strlen(n);
    if (count && at + 1 < cap)
        snprintf(n + at, cap - at, "%s%llu %s", at ? "; " : "", (unsigned long long)count,
                 text);
}

/* What the user should hear of, though the conversion went through. */
static void notes(struct ff *f)
{
    const struct pftrace_stats *st = pftrace_stats(f->pf);
    note(f, st->lost_bundles, "ftrace bundles say the kernel lost events (buffer overrun)");
    note(f, st->late, "events came more than the sort window after later ones and are "
                      "written out of timestamp order");
    note(f, st->unknown, "ftrace events of types this version cannot name were left out");
    note(f, st->other_clock, "ftrace bundles are timed by a non-boot ftrace clock: their "
                             "timestamps are written as recorded, not converted to the "
                             "trace's clock as Perfetto does");
    note(f, st->unconverted, "ftrace events were left out: no clock snapshot relates boot "
                             "time to the trace's clock (Perfetto leaves them out too)");
    note(f, st->big_skipped, "packets over 8 MB were skipped unread (ftrace data never comes "
                             "in packets that big)");
    char other[sizeof(f->res->note)];
    pftev_note(pftrace_events(f->pf), other, sizeof(other));
    size_t at = strlen(f->res->note), cap = sizeof(f->res->note);
    if (other[0] && at + 3 < cap) {     /* cut at the note's end, as note() cuts */
        if (at)
            memcpy(f->res->note + at, "; ", 2), at += 2;
        size_t k = strlen(other) < cap - at - 1 ? strlen(other) : cap - at - 1;
        memcpy(f->res->note + at, other, k);
        f->res->note[at + k] = '\0';
    }
}

static enum st_err ff_pf_finish(struct ff *f)
{
    if (f->pf_scan && !f->pf_begun) {
        enum st_err e = live_open(f);
        if (e)
            return pf_error(f, e);
    }
    if (f->pf_spooling) {
        enum st_err e = spool_convert(f);
        spool_done(f);
        if (e)
            return pf_error(f, e);
    }
    enum st_err e = pftrace_finish(f->pf), es = text_stage_end(f);
    if (es && (!e || e == ST_ETRUNCATED))
        e = es;
    if (e == ST_ETRUNCATED) {
        f->res->truncated = 1;
        pf_error(f, e);
        e = ST_OK;
    }
    if (e)
        return pf_error(f, e);
    f->res->text_bytes += pftrace_stats(f->pf)->lines;
    notes(f);
    tell_facts(f);
    tguard_end(f->guard);
    if ((e = tw_end(f->w)))
        return e;
    if (f->pf_has_hole)
        e = live_dump(f);
    else if (f->pf_dump_after)
        e = process_dump(f, f->pf);
    return e ? e : ff_pfev_part(f);
}

static void ff_pf_free(struct ff *f)
{
    pftrace_free(f->pf);        /* its formatting thread writes to the stage */
    pftrace_free(f->pf_scan);
    astage_free(f->pf_stage);   /* its thread still writes to the guard */
    f->pf_stage = NULL;
    spool_done(f);
    dynbuf_free(&f->pf_pending);
    ff_pfev_free(f);
    f->pf = f->pf_scan = NULL;
}

static enum st_err pf_begin(struct ff *f, const unsigned char *p, size_t n)
{
    (void)p;    /* the sniffed start comes again through feed */
    (void)n;
    return ff_pf_begin(f);
}

const struct ff_reader ff_pf_reader = {
    .begin = pf_begin,
    .feed = ff_pf_feed,
    .finish = ff_pf_finish,
    .free = ff_pf_free,
};
