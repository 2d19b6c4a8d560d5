/*
 * The report of `systrace compare` (compare.h) in three forms: text for
 * a terminal, Markdown for a pull-request comment, JSON for scripts
 * (docs/compare.md; its keys are stable).  Metric names come from
 * traces (process and slice names): the text form shows control
 * characters as \xHH (esctext.h), Markdown escapes its table's '|',
 * JSON escapes as the summary does.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "lib/esctext.h"

struct shown {
    char s[1100];
};

static const char *shown(struct shown *b, const char *name)
{
    esc_text(b->s, sizeof(b->s), name, strlen(name), 0);
    return b->s;
}

static void pct(struct dynbuf *o, int valid, double v)
{
    if (valid)
        dynbuf_printf(o, "%+.1f%%", v);
    else
        dynbuf_addstr(o, "n/a");
}

static void ci(struct dynbuf *o, const struct cmp_metric *m)
{
    if (!m->has_ci) {
        dynbuf_addstr(o, "n/a");
        return;
    }
    dynbuf_addc(o, '[');
    pct(o, 1, m->ci_low);
    dynbuf_addstr(o, ", ");
    pct(o, 1, m->ci_high);
    dynbuf_addc(o, ']');
}

static int noise_judged(const struct cmp_set *s)
{
    return s->runs[0] > 1 && s->runs[1] > 1;
}

static void head_lines(const struct cmp_set *s, struct dynbuf *o, const char *lead)
{
    dynbuf_printf(o, "%s%u run%s (A) against %u run%s (B), %zu metrics", lead, s->runs[0],
                  s->runs[0] == 1 ? "" : "s", s->runs[1], s->runs[1] == 1 ? "" : "s", s->n);
    if (s->one_sided)
        dynbuf_printf(o, " (%zu more only on one side, left out)", s->one_sided);
    dynbuf_addstr(o, "\n");
    if (!noise_judged(s))
        dynbuf_printf(o, "%sOne run on a side: the change cannot be told from run-to-run "
                         "noise, so nothing is significant; compare several runs per side.\n",
                      lead);
}

static void gate_lines(const struct cmp_gate *g, size_t ng, struct dynbuf *o, const char *lead)
{
    for (size_t i = 0; i < ng; i++) {
        if (!g[i].matched)
            dynbuf_printf(o, "%s--fail-on=%s: no metric matches\n", lead, g[i].text);
        else if (g[i].tripped)
            dynbuf_printf(o, "%sFAILED --fail-on=%s: %zu metric%s\n", lead, g[i].text,
                          g[i].tripped, g[i].tripped == 1 ? "" : "s");
        else
            dynbuf_printf(o, "%spassed --fail-on=%s\n", lead, g[i].text);
    }
}

static void text_report(const struct cmp_set *s, const size_t *slow, size_t nslow,
                        const struct cmp_gate *g, size_t ng, struct dynbuf *o)
{
    struct shown b;
    head_lines(s, o, "");
    dynbuf_printf(o, "\n%-48s %12s %12s %8s  %-18s %s\n", "metric", "A median", "B median",
                  "change", "95% CI", "p");
    for (size_t i = 0; i < s->n; i++) {
        const struct cmp_metric *m = &s->m[i];
        char c[32], iv[64];
        if (m->has_change)
            snprintf(c, sizeof(c), "%+.1f%%", m->change);
        else
            snprintf(c, sizeof(c), "n/a");
        if (m->has_ci)
            snprintf(iv, sizeof(iv), "[%+.1f%%, %+.1f%%]", m->ci_low, m->ci_high);
        else
            snprintf(iv, sizeof(iv), "n/a");
        dynbuf_printf(o, "%-48s %12.4g %12.4g %8s  %-18s %.3g%s\n", shown(&b, m->name),
                      m->med[0], m->med[1], c, iv, m->p, m->significant ? " *" : "");
    }
    dynbuf_printf(o, "\n* significant: Mann-Whitney U p < %.2f\n\n", CMP_ALPHA);
    if (!nslow)
        dynbuf_addstr(o, "What got slower: nothing significant\n");
    else
        dynbuf_addstr(o, "What got slower (largest effect first):\n");
    for (size_t i = 0; i < nslow; i++) {
        const struct cmp_metric *m = &s->m[slow[i]];
        dynbuf_printf(o, "  %zu. %s %+.1f%% (%.4g -> %.4g), p %.3g\n", i + 1,
                      shown(&b, m->name), m->change, m->med[0], m->med[1], m->p);
    }
    gate_lines(g, ng, o, "");
}

/* a name in a Markdown table cell: '|' and '`' would end it */
static void md_name(struct dynbuf *o, const char *n)
{
    struct shown b;
    dynbuf_addc(o, '`');
    for (const char *p = shown(&b, n); *p; p++)
        dynbuf_addc(o, *p == '|' || *p == '`' ? '?' : *p);
    dynbuf_addc(o, '`');
}

static void md_report(const struct cmp_set *s, const size_t *slow, size_t nslow,
                      const struct cmp_gate *g, size_t ng, struct dynbuf *o)
{
    dynbuf_addstr(o, "### systrace compare\n\n");
    head_lines(s, o, "");
    dynbuf_addstr(o, "\n**What got slower**");
    if (!nslow)
        dynbuf_addstr(o, ": nothing significant\n");
    else
        dynbuf_addstr(o, " (largest effect first):\n\n");
    for (size_t i = 0; i < nslow; i++) {
        const struct cmp_metric *m = &s->m[slow[i]];
        dynbuf_printf(o, "%zu. ", i + 1);
        md_name(o, m->name);
        dynbuf_printf(o, " **%+.1f%%** (%.4g → %.4g, p %.3g)\n", m->change, m->med[0],
                      m->med[1], m->p);
    }
    if (ng)
        dynbuf_addc(o, '\n');
    gate_lines(g, ng, o, "- ");
    dynbuf_addstr(o, "\n| metric | A median | B median | change | 95% CI | p |\n"
                     "|---|---:|---:|---:|---|---:|\n");
    for (size_t i = 0; i < s->n; i++) {
        const struct cmp_metric *m = &s->m[i];
        dynbuf_addstr(o, "| ");
        md_name(o, m->name);
        dynbuf_printf(o, " | %.4g | %.4g | ", m->med[0], m->med[1]);
        pct(o, m->has_change, m->change);
        dynbuf_addstr(o, " | ");
        ci(o, m);
        dynbuf_printf(o, " | %.3g%s |\n", m->p, m->significant ? " **\\***" : "");
    }
}

static void jnum(struct dynbuf *o, int valid, double v)
{
    if (valid && isfinite(v))
        dynbuf_printf(o, "%.10g", v);
    else
        dynbuf_addstr(o, "null");
}

static void json_metric(const struct cmp_metric *m, struct dynbuf *o)
{
    dynbuf_addstr(o, "    {\"name\": ");
    dynbuf_add_jstr(o, m->name);
    dynbuf_addstr(o, ", \"a_median\": ");
    jnum(o, 1, m->med[0]);
    dynbuf_addstr(o, ", \"b_median\": ");
    jnum(o, 1, m->med[1]);
    dynbuf_addstr(o, ", \"change_pct\": ");
    jnum(o, m->has_change, m->change);
    dynbuf_addstr(o, ", \"ci_low_pct\": ");
    jnum(o, m->has_ci, m->ci_low);
    dynbuf_addstr(o, ", \"ci_high_pct\": ");
    jnum(o, m->has_ci, m->ci_high);
    dynbuf_addstr(o, ", \"p_value\": ");
    jnum(o, 1, m->p);
    dynbuf_printf(o, ", \"significant\": %s, \"a_runs\": %zu, \"b_runs\": %zu, "
                     "\"effect_size\": ", m->significant ? "true" : "false", m->n[0], m->n[1]);
    jnum(o, 1, m->effect);
    dynbuf_printf(o, ", \"higher_is_worse\": %s}", m->worse_up ? "true" : "false");
}

static void json_report(const struct cmp_set *s, const size_t *slow, size_t nslow,
                        const struct cmp_gate *g, size_t ng, struct dynbuf *o)
{
    dynbuf_printf(o, "{\n  \"a_runs\": %u,\n  \"b_runs\": %u,\n  \"alpha\": %.2f,\n"
                     "  \"noise_judged\": %s,\n  \"one_sided_metrics\": %zu,\n  \"metrics\": [",
                  s->runs[0], s->runs[1], CMP_ALPHA, noise_judged(s) ? "true" : "false",
                  s->one_sided);
    for (size_t i = 0; i < s->n; i++) {
        dynbuf_addstr(o, i ? ",\n" : "\n");
        json_metric(&s->m[i], o);
    }
    dynbuf_addstr(o, s->n ? "\n  ],\n  \"slower\": [" : "],\n  \"slower\": [");
    for (size_t i = 0; i < nslow; i++) {
        dynbuf_addstr(o, i ? ", " : "");
        dynbuf_add_jstr(o, s->m[slow[i]].name);
    }
    dynbuf_addstr(o, "],\n  \"fail_on\": [");
    size_t tripped = 0;
    for (size_t i = 0; i < ng; i++) {
        dynbuf_addstr(o, i ? ",\n    {\"expr\": " : "\n    {\"expr\": ");
        dynbuf_add_jstr(o, g[i].text);
        dynbuf_printf(o, ", \"matched\": %zu, \"tripped\": %zu}", g[i].matched, g[i].tripped);
        tripped += g[i].tripped;
    }
    dynbuf_printf(o, "%s],\n  \"failed\": %s\n}\n", ng ? "\n  " : "", tripped ? "true" : "false");
}

enum st_err cmp_report(const struct cmp_set *s, const struct cmp_gate *g, size_t ng,
                       enum cmp_format f, struct dynbuf *out)
{
    size_t nslow;
    size_t *slow = cmp_slower(s, &nslow);
    if (!slow)
        return ST_ENOMEM;
    if (f == CMP_JSON)
        json_report(s, slow, nslow, g, ng, out);
    else if (f == CMP_MARKDOWN)
        md_report(s, slow, nslow, g, ng, out);
    else
        text_report(s, slow, nslow, g, ng, out);
    free(slow);
    /* appends fail only for memory; the last line tells */
    return out->len && out->data[out->len - 1] == '\n' ? ST_OK : ST_ENOMEM;
}
