/*
 * The trace summary's two forms (summary.h): a few terminal lines and the
 * JSON object of --summary=FILE.  Percentages are of the CPU time the
 * trace spans (duration x CPUs).  JSON strings escape quotes, backslashes
 * and control characters; bytes outside ASCII become '?', so the file
 * always parses whatever bytes a process name holds.  The terminal lines
 * show a name's control characters as \xHH (esctext.h), so a thread named
 * ESC [2J or an OSC title sequence cannot clear or retitle the terminal.
 */
#include <stdio.h>
#include <string.h>

#include "lib/esctext.h"
#include "summary_int.h"

#define TOP_PROCS 3
#define TOP_APPS 3
#define SUM_JSON_SLICES 50     /* slice names in the JSON, longest total first */

/* A name from the trace, as the terminal may show it: control characters
 * as \xHH (4 bytes each), so a process name (SUM_PNAME_LEN) always fits. */
struct shown {
    char s[SUM_PNAME_LEN * 4 + 8];
};

static const char *shown(struct shown *b, const char *name)
{
    esc_text(b->s, sizeof(b->s), name, strlen(name), 0);
    return b->s;
}

/* 1204311 -> "1,204,311" */
static void grouped(char *out, size_t n, uint64_t v)
{
    char d[32];
    int len = snprintf(d, sizeof(d), "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = d[i];
    }
    out[o] = '\0';
}

static double span_ns(const struct summary_totals *t)
{
    return (double)(t->last_ns - t->first_ns);
}

static double pct(const struct summary_totals *t, uint64_t ns)
{
    double cap = span_ns(t) * (t->cpus ? t->cpus : 1);
    return cap > 0 ? 100.0 * (double)ns / cap : 0;
}

static void cpu_line(const struct summary *s, const char *prefix, struct dynbuf *o)
{
    const struct summary_totals *t = &s->t;
    if (!t->sched_switches || !s->nprocs) {
        dynbuf_printf(o, "%sCPU: no sched_switch events, so no CPU time (the sched category "
                         "records them)\n", prefix);
        return;
    }
    double busy = pct(t, t->busy_ns);
    dynbuf_printf(o, "%sCPU busy %.*f%%:", prefix, busy < 10 ? 1 : 0, busy);
    struct shown b;
    for (size_t i = 0; i < s->nprocs && i < TOP_PROCS; i++)
        dynbuf_printf(o, "%s %s %.1f%%", i ? "," : "",
                      s->procs[i].name[0] ? shown(&b, s->procs[i].name) : "?",
                      pct(t, s->procs[i].cpu_ns));
    dynbuf_addstr(o, s->nprocs > TOP_PROCS ? ", ...\n" : "\n");
}

static void frame_lines(const struct summary *s, const char *prefix, struct dynbuf *o)
{
    if (!s->nframes) {
        dynbuf_printf(o, "%sFrames: none (no Choreographer#doFrame or RenderThread DrawFrame "
                         "slices)\n", prefix);
        return;
    }
    for (size_t i = 0; i < s->nframes && i < TOP_APPS; i++) {
        const struct summary_frames *f = &s->frames[i];
        char n[32], who[40];
        struct shown b;
        grouped(n, sizeof(n), f->frames);
        snprintf(who, sizeof(who), "pid %lld", (long long)f->pid);
        dynbuf_printf(o, "%sFrames: %s %s%s, %llu janky (> %.1f ms)", prefix,
                      f->process[0] ? shown(&b, f->process) : who, n,
                      f->source[0] == 'D' ? " (RenderThread DrawFrame)" : "",
                      (unsigned long long)f->janky, 1000.0 / s->t.display_hz);
        if (f->worst_ns)
            dynbuf_printf(o, ", worst %.0f ms at %.2f s", f->worst_ns / 1e6,
                          f->worst_at_ns / 1e9);
        if (i + 1 == TOP_APPS && s->nframes > TOP_APPS)
            dynbuf_printf(o, " (and %zu more apps)", s->nframes - TOP_APPS);
        dynbuf_addc(o, '\n');
    }
}

/* The frame timeline's processes, most frames first (it replaces the
 * doFrame / DrawFrame lines: the summary says which source it used). */
static void ftl_lines(const struct summary_ftl *v, size_t n, const char *prefix,
                      struct dynbuf *o)
{
    for (size_t i = 0; i < n && i < TOP_APPS; i++) {
        const struct summary_ftl *f = &v[i];
        char fr[32], who[40];
        struct shown b;
        grouped(fr, sizeof(fr), f->total);
        snprintf(who, sizeof(who), "pid %lld", (long long)f->pid);
        dynbuf_printf(o, "%sFrame timeline: %s %s frames, %llu missed (app %llu, "
                         "SurfaceFlinger %llu)", prefix,
                      f->process[0] ? shown(&b, f->process) : who, fr,
                      (unsigned long long)f->missed, (unsigned long long)f->missed_app,
                      (unsigned long long)f->missed_sf);
        if (f->durs)
            dynbuf_printf(o, ", p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms",
                          f->p50_ns / 1e6, f->p90_ns / 1e6, f->p99_ns / 1e6,
                          f->max_ns / 1e6);
        if (i + 1 == TOP_APPS && n > TOP_APPS)
            dynbuf_printf(o, " (and %zu more processes)", n - TOP_APPS);
        dynbuf_addc(o, '\n');
    }
}

/* What the trace held that the page does not show ("742 perf samples
 * not shown"). */
static void not_shown_line(const struct summary *s, const char *prefix, struct dynbuf *o)
{
    uint64_t c;
    const char *what;
    for (size_t i = 0; (what = summary_not_shown(s, i, &c)); i++) {
        char n[32];
        grouped(n, sizeof(n), c);
        dynbuf_printf(o, "%s%s %s not shown", i ? ", " : prefix, n, what);
    }
    if (summary_not_shown(s, 0, &c))
        dynbuf_addc(o, '\n');
}

/* One line for the startups, the first few in trace order. */
static void startup_line(const struct summary *s, const char *prefix, struct dynbuf *o)
{
    size_t n = summary_startups(s);
    struct summary_startup u;
    if (!n)
        return;
    dynbuf_printf(o, "%sStartups:", prefix);
    for (size_t i = 0; i < n && i < TOP_APPS && summary_startup(s, i, &u); i++) {
        struct shown b;
        dynbuf_printf(o, "%s %s %s %.1f ms", i ? "," : "", shown(&b, u.package),
                      u.type ? u.type : "(type unknown)", u.to_first_frame_ns / 1e6);
        if (u.to_full_display_ns)
            dynbuf_printf(o, " (fully drawn %.1f ms)", u.to_full_display_ns / 1e6);
    }
    if (n > TOP_APPS)
        dynbuf_printf(o, " (and %zu more)", n - TOP_APPS);
    dynbuf_addc(o, '\n');
}

enum st_err summary_text(const struct summary *s, const char *prefix, struct dynbuf *o)
{
    const struct summary_totals *t = &s->t;
    char ev[32], lost[32];
    grouped(ev, sizeof(ev), t->events);
    grouped(lost, sizeof(lost), t->lost);
    if (!t->events)
        dynbuf_printf(o, "%sTrace: no events, %s lost", prefix, lost);
    else
        dynbuf_printf(o, "%sTrace: %.1f s, %u CPU%s, %s events, %s lost", prefix,
                      span_ns(t) / 1e9, t->cpus, t->cpus == 1 ? "" : "s", ev, lost);
    struct shown m, r;
    if (s->model[0] && s->release[0])
        dynbuf_printf(o, " (%s, Android %s)", shown(&m, s->model), shown(&r, s->release));
    else if (s->model[0] || s->release[0])
        dynbuf_printf(o, " (%s%s)", s->release[0] ? "Android " : "",
                      shown(&m, s->model[0] ? s->model : s->release));
    dynbuf_addc(o, '\n');
    if (t->events) {
        size_t nftl;
        const struct summary_ftl *ftl = summary_frame_timeline(s, &nftl);
        cpu_line(s, prefix, o);
        if (nftl)
            ftl_lines(ftl, nftl, prefix, o);
        else
            frame_lines(s, prefix, o);
        startup_line(s, prefix, o);
    }
    not_shown_line(s, prefix, o);
    if (s->nempty) {
        dynbuf_printf(o, "%sNo events from:", prefix);
        for (size_t i = 0; i < s->nempty; i++)
            dynbuf_printf(o, "%s %s", i ? "," : "", s->empty[i]);
        dynbuf_addc(o, '\n');
    }
    /* appends fail only for memory; the last line tells */
    return o->len && o->data[o->len - 1] == '\n' ? ST_OK : ST_ENOMEM;
}

/* ---- JSON ------------------------------------------------------------- */

static void json_procs(const struct summary *s, struct dynbuf *o)
{
    dynbuf_addstr(o, "  \"processes\": [");
    for (size_t i = 0; i < s->nprocs; i++) {
        const struct summary_proc *p = &s->procs[i];
        dynbuf_printf(o, "%s\n    {\"pid\": %lld, \"name\": ", i ? "," : "", (long long)p->pid);
        dynbuf_add_jstr(o, p->name);
        dynbuf_printf(o, ", \"cpu_ms\": %.3f, \"cpu_pct\": %.2f}", p->cpu_ns / 1e6,
                      pct(&s->t, p->cpu_ns));
    }
    dynbuf_addstr(o, s->nprocs ? "\n  ],\n" : "],\n");
}

static void json_frames(const struct summary *s, struct dynbuf *o)
{
    dynbuf_addstr(o, "  \"frames\": [");
    for (size_t i = 0; i < s->nframes; i++) {
        const struct summary_frames *f = &s->frames[i];
        dynbuf_printf(o, "%s\n    {\"pid\": %lld, \"process\": ", i ? "," : "",
                      (long long)f->pid);
        dynbuf_add_jstr(o, f->process);
        dynbuf_printf(o, ", \"source\": ");
        dynbuf_add_jstr(o, f->source);
        dynbuf_printf(o, ", \"frames\": %llu, \"janky\": %llu, ",
                      (unsigned long long)f->frames, (unsigned long long)f->janky);
        if (f->worst_ns)
            dynbuf_printf(o, "\"worst_ms\": %.3f, \"worst_at_s\": %.6f", f->worst_ns / 1e6,
                          f->worst_at_ns / 1e9);
        else
            dynbuf_addstr(o, "\"worst_ms\": null, \"worst_at_s\": null");
        if (f->p50_ns)
            dynbuf_printf(o, ", \"dur_p50\": %.2f, \"dur_p90\": %.2f, \"dur_p99\": %.2f}",
                          f->p50_ns / 1e6, f->p90_ns / 1e6, f->p99_ns / 1e6);
        else
            dynbuf_addstr(o, ", \"dur_p50\": null, \"dur_p90\": null, \"dur_p99\": null}");
    }
    dynbuf_addstr(o, s->nframes ? "\n  ],\n" : "],\n");
}

/* The slice names with the longest total duration (what compare ranks). */
static void json_slices(const struct summary *s, struct dynbuf *o)
{
    dynbuf_addstr(o, "  \"slices\": [");
    size_t n = s->nslices < SUM_JSON_SLICES ? s->nslices : SUM_JSON_SLICES;
    for (size_t i = 0; i < n; i++) {
        const struct summary_slice *sl = &s->slices[i];
        dynbuf_addstr(o, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        dynbuf_add_jstr(o, sl->name);
        dynbuf_printf(o, ", \"count\": %llu, \"dur_ms\": %.3f, \"mean_ms\": %.3f, "
                         "\"max_ms\": %.3f}", (unsigned long long)sl->count,
                      sl->total_ns / 1e6, sl->total_ns / 1e6 / (double)sl->count,
                      sl->max_ns / 1e6);
    }
    dynbuf_addstr(o, n ? "\n  ],\n" : "],\n");
}

void summary_startup_json(struct dynbuf *o, const struct summary_startup *u)
{
    dynbuf_addstr(o, "{\"package\": ");
    dynbuf_add_jstr(o, u->package);
    dynbuf_addstr(o, ", \"type\": ");
    if (u->type)
        dynbuf_add_jstr(o, u->type);
    else
        dynbuf_addstr(o, "null");
    dynbuf_printf(o, ", \"ts\": %llu, \"pid\": %lld, \"to_first_frame_ms\": %.6f, "
                     "\"to_full_display_ms\": ",
                  (unsigned long long)u->ts, (long long)u->pid, u->to_first_frame_ns / 1e6);
    if (u->to_full_display_ns)
        dynbuf_printf(o, "%.6f", u->to_full_display_ns / 1e6);
    else
        dynbuf_addstr(o, "null");
    dynbuf_printf(o, ",\n      \"main_thread_ms\": {\"running\": %.6f, \"runnable\": %.6f, "
                     "\"uninterruptible\": %.6f, \"sleeping\": %.6f},\n      \"slices_ms\": {",
                  u->running_ns / 1e6, u->runnable_ns / 1e6, u->uninterruptible_ns / 1e6,
                  u->sleeping_ns / 1e6);
    const char *k;
    for (size_t j = 0; (k = summary_startup_slice(j)); j++)
        dynbuf_printf(o, "%s\"%s\": %.6f", j ? ", " : "", k, u->slice_ns[j] / 1e6);
    dynbuf_addstr(o, "},\n      \"slow_reasons\": [");
    for (size_t j = 0; j < u->nslow; j++) {
        dynbuf_addstr(o, j ? ", " : "");
        dynbuf_add_jstr(o, u->slow[j]);
    }
    dynbuf_addstr(o, "]}");
}

static void json_startups(const struct summary *s, struct dynbuf *o)
{
    size_t n = summary_startups(s);
    struct summary_startup u;
    dynbuf_addstr(o, "  \"startups\": [");
    for (size_t i = 0; i < n && summary_startup(s, i, &u); i++) {
        dynbuf_addstr(o, i ? ",\n    " : "\n    ");
        summary_startup_json(o, &u);
    }
    dynbuf_addstr(o, n ? "\n  ],\n" : "],\n");
}

static void json_counts(struct dynbuf *o, const char *sep, const char *key, const uint64_t *c,
                        size_t n, const char *(*name)(size_t))
{
    dynbuf_printf(o, "%s\"%s\": {", sep, key);
    for (size_t k = 0, first = 1; k < n; k++)
        if (c[k]) {
            dynbuf_printf(o, "%s\"%s\": %llu", first ? "" : ", ", name(k),
                          (unsigned long long)c[k]);
            first = 0;
        }
    dynbuf_addc(o, '}');
}

/* Perfetto's android_frame_timeline_metric per process, in its names. */
static void json_ftl(const struct summary *s, struct dynbuf *o)
{
    size_t n, nfr;
    const struct summary_ftl *v = summary_frame_timeline(s, &n);
    summary_frames(s, &nfr);
    dynbuf_printf(o, "  \"frames_source\": %s,\n  \"frame_timeline\": [",
                  n ? "\"frame_timeline\"" : nfr ? "\"slices\"" : "null");
    for (size_t i = 0; i < n; i++) {
        const struct summary_ftl *f = &v[i];
        dynbuf_printf(o, "%s\n    {\"process\": ", i ? "," : "");
        dynbuf_add_jstr(o, f->process);
        dynbuf_printf(o, ", \"pid\": %lld, \"total_frames\": %llu, \"missed_frames\": %llu, "
                         "\"missed_app_frames\": %llu, \"missed_sf_frames\": %llu, "
                         "\"dropped_frames\": %llu,\n      ",
                      (long long)f->pid, (unsigned long long)f->total,
                      (unsigned long long)f->missed, (unsigned long long)f->missed_app,
                      (unsigned long long)f->missed_sf, (unsigned long long)f->dropped);
        json_counts(o, "", "jank_types", f->jank, SUM_FTL_JANKS, summary_ftl_jank_name);
        json_counts(o, ", ", "present_types", f->present, SUM_FTL_PRESENTS,
                    summary_ftl_present_name);
        if (f->durs)
            dynbuf_printf(o, ",\n      \"dur_ms\": {\"max\": %.6f, \"mean\": %.6f, "
                             "\"p50\": %.6f, \"p90\": %.6f, \"p95\": %.6f, \"p99\": %.6f}}",
                          f->max_ns / 1e6, f->mean_ns / 1e6, f->p50_ns / 1e6,
                          f->p90_ns / 1e6, f->p95_ns / 1e6, f->p99_ns / 1e6);
        else
            dynbuf_addstr(o, ",\n      \"dur_ms\": null}");
    }
    dynbuf_addstr(o, n ? "\n  ],\n" : "],\n");
}

static void json_not_shown(const struct summary *s, struct dynbuf *o)
{
    uint64_t c;
    const char *what;
    dynbuf_addstr(o, "  \"not_shown\": {");
    for (size_t i = 0; (what = summary_not_shown(s, i, &c)); i++) {
        dynbuf_addstr(o, i ? ", " : "");
        dynbuf_add_jstr(o, what);
        dynbuf_printf(o, ": %llu", (unsigned long long)c);
    }
    dynbuf_addstr(o, "},\n");
}

static void json_tail(const struct summary *s, struct dynbuf *o)
{
    json_not_shown(s, o);
    dynbuf_addstr(o, "  \"categories_without_events\": [");
    for (size_t i = 0; i < s->nempty; i++) {
        dynbuf_addstr(o, i ? ", " : "");
        dynbuf_add_jstr(o, s->empty[i]);
    }
    dynbuf_addstr(o, "],\n  \"event_counts\": {");
    for (uint32_t i = 0; i < s->nnames; i++) {
        dynbuf_addstr(o, i ? ", " : "");
        dynbuf_add_jstr(o, s->names[i].name);
        dynbuf_printf(o, ": %llu", (unsigned long long)s->names[i].count);
    }
    dynbuf_printf(o, "},\n  \"dropped\": %llu\n}\n", (unsigned long long)s->t.dropped);
}

enum st_err summary_json(const struct summary *s, const char *device, struct dynbuf *o)
{
    const struct summary_totals *t = &s->t;
    dynbuf_addstr(o, "{\n  \"device\": ");
    if (device)
        dynbuf_add_jstr(o, device);
    else
        dynbuf_addstr(o, "null");
    dynbuf_addstr(o, ",\n  \"device_model\": ");
    if (s->model[0])
        dynbuf_add_jstr(o, s->model);
    else
        dynbuf_addstr(o, "null");
    dynbuf_addstr(o, ",\n  \"android_version\": ");
    if (s->release[0])
        dynbuf_add_jstr(o, s->release);
    else
        dynbuf_addstr(o, "null");
    dynbuf_printf(o, ",\n  \"duration_s\": %.6f,\n  \"start_s\": %.6f,\n  \"cpus\": %u,\n"
                     "  \"events\": %llu,\n  \"lost_events\": %llu,\n"
                     "  \"sched_switch_events\": %llu,\n",
                  span_ns(t) / 1e9, t->first_ns / 1e9, t->cpus,
                  (unsigned long long)t->events, (unsigned long long)t->lost,
                  (unsigned long long)t->sched_switches);
    if (t->sched_switches && s->nprocs)
        dynbuf_printf(o, "  \"cpu_busy_pct\": %.2f,\n", pct(t, t->busy_ns));
    else
        dynbuf_addstr(o, "  \"cpu_busy_pct\": null,\n");
    dynbuf_printf(o, "  \"frame_budget_ms\": %.3f,\n  \"display_hz\": %u,\n",
                  1000.0 / t->display_hz, t->display_hz);
    if (t->vsync_ns)
        dynbuf_printf(o, "  \"vsync_period_ms\": %.2f,\n", t->vsync_ns / 1e6);
    else
        dynbuf_addstr(o, "  \"vsync_period_ms\": null,\n");
    json_procs(s, o);
    json_frames(s, o);
    json_ftl(s, o);
    json_slices(s, o);
    json_startups(s, o);
    json_tail(s, o);
    return o->len > 2 && !memcmp(o->data + o->len - 2, "}\n", 2) ? ST_OK : ST_ENOMEM;
}
