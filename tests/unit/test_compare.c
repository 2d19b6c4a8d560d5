/* Unit tests of systrace compare's pieces: the summary's JSON read back as
 * metrics (formats/summary/sumread.c: names, what is left out, malformed
 * input), the --fail-on gates (src/compare.c: parsing, '*' patterns, what
 * trips them) and the ranking of what got slower. */
#include <stdlib.h>

#include "testutil.h"

#include "formats/summary/sumread.h"
#include "src/compare.h"

struct got {
    char names[32][SUMREAD_NAME_MAX];
    double v[32];
    int n;
};

static void on_metric(void *ctx, const char *name, double v)
{
    struct got *g = ctx;
    assert_true(g->n < 32);
    snprintf(g->names[g->n], SUMREAD_NAME_MAX, "%s", name);
    g->v[g->n++] = v;
}

static const char sample[] =
    "{\n  \"device\": \"emulator-5554\",\n  \"duration_s\": 10.5,\n  \"cpus\": 4,\n"
    "  \"cpu_busy_pct\": 12.5,\n  \"vsync_period_ms\": null,\n"
    "  \"processes\": [\n    {\"pid\": 7, \"name\": \"app\", \"cpu_ms\": 100.0, "
    "\"cpu_pct\": 1.0},\n    {\"pid\": 8, \"name\": \"app\", \"cpu_ms\": 5.0, \"cpu_pct\": 0.1},\n"
    "    {\"pid\": 9, \"name\": \"\", \"cpu_ms\": 3.0, \"cpu_pct\": 0.1}\n  ],\n"
    "  \"frames\": [{\"pid\": 7, \"process\": \"app\", \"source\": \"x\", \"frames\": 60, "
    "\"janky\": 2, \"worst_ms\": null, \"worst_at_s\": null, \"dur_p90\": 9.5}],\n"
    "  \"slices\": [{\"name\": \"a\\\"b\", \"count\": 3, \"dur_ms\": 1.5}],\n"
    "  \"startup\": {\"dur_ms\": 321, \"phases\": [1, 2]},\n"
    "  \"event_counts\": {\"sched_switch\": 5},\n  \"dropped\": 0\n}\n";

static void reads_metrics(void **st)
{
    (void)st;
    struct got g = {.n = 0};
    char err[200];
    assert_true(sumread_sniff(sample, sizeof(sample) - 1));
    assert_int_equal(sumread_metrics(sample, sizeof(sample) - 1, on_metric, &g, err,
                                     sizeof(err)), ST_OK);
    static const char *const want[] = {
        "cpu_busy_pct", "cpu.app", "cpu.app", "cpu.pid 9", "frames.app.frames",
        "frames.app.janky", "frames.app.dur_p90", "slices.a\"b.count", "slices.a\"b.dur_ms",
        "startup.dur_ms"};
    assert_int_equal(g.n, 10);
    for (int i = 0; i < g.n; i++)
        assert_string_equal(g.names[i], want[i]);
    assert_true(g.v[1] == 100.0 && g.v[9] == 321);
}

static void refuses_junk(void **st)
{
    (void)st;
    static const char *const bad[] = {"", "[1]", "{\"device\": ", "{\"a\": 1} x",
                                      "{\"a\": [1, }", "{\"a\": \"\\q\"}", "{\"a\": tru}"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct got g = {.n = 0};
        char err[200] = "";
        assert_int_equal(sumread_metrics(bad[i], strlen(bad[i]), on_metric, &g, err,
                                         sizeof(err)), ST_EFORMAT);
        assert_true(!strncmp(err, "not a summary's JSON: ", 22));
    }
    assert_false(sumread_sniff("{\"traceEvents\": []}", 19));
    assert_false(sumread_sniff("# tracer: nop", 13));
}

static void gates(void **st)
{
    (void)st;
    struct cmp_gate g;
    char err[400];
    assert_int_equal(cmp_gate_parse("frames.*.dur_p90>+10%", &g, err, sizeof(err)), 0);
    assert_string_equal(g.pattern, "frames.*.dur_p90");
    assert_int_equal(g.op, '>');
    assert_true(g.pct == 10);
    assert_int_equal(cmp_gate_parse("cpu.x<-5.5%", &g, err, sizeof(err)), 0);
    assert_true(g.op == '<' && g.pct == -5.5);
    assert_int_equal(cmp_gate_parse("cpu.x>5", &g, err, sizeof(err)), -1);
    assert_int_equal(cmp_gate_parse(">5%", &g, err, sizeof(err)), -1);
    assert_int_equal(cmp_gate_parse("x", &g, err, sizeof(err)), -1);
    assert_true(cmp_gate_match("frames.*.dur_p90", "frames.com.example.app.dur_p90"));
    assert_false(cmp_gate_match("frames.*.dur_p90", "frames.app.dur_p99"));
    assert_true(cmp_gate_match("*", ""));
    assert_true(cmp_gate_match("a**b", "ab"));
    assert_false(cmp_gate_match("cpu.app", "cpu.app2"));
}

/* Side A 100..109, B: `slow` 30% up, `same` unchanged, `fast` 30% down,
 * `mild` 10% up with overlap. */
static void add_runs(struct cmp_set *s)
{
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < 10; i++) {
            cmp_next_run(s, side);
            double a = 100 + i;
            assert_int_equal(cmp_add(s, side, "slices.slow.mean_ms", side ? a * 1.3 : a), 0);
            assert_int_equal(cmp_add(s, side, "slices.slow.mean_ms", 1e9), 0);  /* ignored */
            assert_int_equal(cmp_add(s, side, "slices.same.mean_ms", a), 0);
            assert_int_equal(cmp_add(s, side, "slices.fast.mean_ms", side ? a * 0.7 : a), 0);
            assert_int_equal(cmp_add(s, side, "slices.mild.mean_ms", side ? a + 8 : a), 0);
            assert_int_equal(cmp_add(s, side, "frames.app.frames", side ? a * 2 : a), 0);
            if (side)
                assert_int_equal(cmp_add(s, side, "only.b", 1), 0);
        }
}

static void ranks_slower(void **st)
{
    (void)st;
    struct cmp_set s;
    cmp_init(&s);
    add_runs(&s);
    assert_int_equal(cmp_compute(&s), ST_OK);
    assert_int_equal(s.n, 5);
    assert_int_equal(s.one_sided, 1);
    size_t n, *v = cmp_slower(&s, &n);
    assert_non_null(v);
    /* counts never, drops never; the cleaner separation first */
    assert_int_equal(n, 2);
    assert_string_equal(s.m[v[0]].name, "slices.slow.mean_ms");
    assert_string_equal(s.m[v[1]].name, "slices.mild.mean_ms");
    free(v);
    struct cmp_gate g[3];
    char err[400];
    assert_int_equal(cmp_gate_parse("slices.*>+20%", &g[0], err, sizeof(err)), 0);
    assert_int_equal(cmp_gate_parse("slices.*<-20%", &g[1], err, sizeof(err)), 0);
    assert_int_equal(cmp_gate_parse("slices.same.*>+0%", &g[2], err, sizeof(err)), 0);
    assert_int_equal(cmp_gates_apply(&s, g, 3), 2);
    assert_int_equal(g[0].matched, 4);
    assert_int_equal(g[0].tripped, 1);
    assert_int_equal(g[1].tripped, 1);
    assert_int_equal(g[2].tripped, 0);
    struct dynbuf out;
    dynbuf_init(&out, 1 << 20);
    assert_int_equal(cmp_report(&s, g, 3, CMP_JSON, &out), ST_OK);
    assert_non_null(strstr(out.data, "\"slower\": [\"slices.slow.mean_ms\", "
                                     "\"slices.mild.mean_ms\"]"));
    dynbuf_free(&out);
    cmp_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_metrics), cmocka_unit_test(refuses_junk),
        cmocka_unit_test(gates),         cmocka_unit_test(ranks_slower),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
