/* Unit tests for the --target=linux categories (agents/linux/ftrace_cats.c):
 * availability against a kernel's available_events, expansion to events,
 * SUBSYSTEM/EVENT names, and catapult's -l text. */
#include "testutil.h"

#include "agents/linux/ftrace_cats.h"

/* A small kernel: sched without sched_waking, power with idle but no
 * cpu_frequency, irq, no binder. */
static const char avail[] =
    "sched:sched_switch\n"
    "sched:sched_wakeup\n"
    "sched:sched_wakeup_new\n"
    "irq:irq_handler_entry\n"
    "irq:irq_handler_exit\n"
    "irq:softirq_entry\n"
    "power:cpu_idle\n"
    "power:suspend_resume\n"
    "workqueue:workqueue_execute_start\n"
    "workqueue:workqueue_execute_end\n"
    "vmscan:mm_vmscan_kswapd_wake\n"
    "task:task_newtask\n"
    "broken line without colon\n"
    ":nosub\n";

static struct evset *kernel(void)
{
    struct evset *s = evset_new();
    assert_int_equal(evset_parse(s, avail, sizeof(avail) - 1), ST_OK);
    return s;
}

static void parse(void **st)
{
    (void)st;
    struct evset *s = kernel();
    assert_int_equal(evset_count(s), 12);
    assert_true(evset_has(s, "sched", "sched_switch"));
    assert_true(evset_has(s, "power", "cpu_idle"));
    assert_false(evset_has(s, "sched", "sched_waking"));
    assert_false(evset_has(s, "sched", "sched_switc"));
    evset_free(s);
}

static void availability(void **st)
{
    (void)st;
    struct evset *s = kernel();
    assert_true(fcat_available(fcat_find("sched"), s));
    assert_true(fcat_available(fcat_find("idle"), s));
    assert_true(fcat_available(fcat_find("irq"), s));
    assert_true(fcat_available(fcat_find("workq"), s));
    assert_false(fcat_available(fcat_find("freq"), s));       /* cpu_frequency required */
    assert_false(fcat_available(fcat_find("memreclaim"), s)); /* 1 of 4 required */
    assert_false(fcat_available(fcat_find("binder_driver"), s));
    assert_false(fcat_available(fcat_find("sync"), s));       /* none of its optional ones */
    assert_null(fcat_find("gfx"));
    evset_free(s);
}

static void resolve(void **st)
{
    (void)st;
    struct evset *s = kernel();
    char *cats[] = {"sched", "freq", "irq", "gfx", "sched", "power/suspend_resume",
                    "workqueue:workqueue_execute_end", "power/*", "nope/none"};
    struct evlist ev = {0};
    struct dynbuf un;
    dynbuf_init(&un, 4096);
    assert_int_equal(fcat_resolve(s, cats, sizeof(cats) / sizeof(*cats), &ev, &un), ST_OK);
    assert_string_equal(dynbuf_str(&un), "freq gfx nope/none");
    static const char *const want[] = {
        "sched/sched_switch", "sched/sched_wakeup", "sched/sched_wakeup_new",
        "task/task_newtask", "irq/irq_handler_entry", "irq/irq_handler_exit",
        "irq/softirq_entry", "power/suspend_resume", "workqueue/workqueue_execute_end",
        "power/cpu_idle"};
    assert_int_equal(ev.n, sizeof(want) / sizeof(*want));
    for (size_t i = 0; i < ev.n; i++)
        assert_string_equal(ev.v[i], want[i]);
    evlist_free(&ev);
    dynbuf_free(&un);
    evset_free(s);
}

static void list_text(void **st)
{
    (void)st;
    struct evset *s = kernel();
    struct dynbuf out;
    dynbuf_init(&out, 65536);
    assert_int_equal(fcat_list(s, &out), ST_OK);
    assert_string_equal(dynbuf_str(&out), "tracing config:\n"
                                          "sched            :  CPU Scheduling\n"
                                          "idle             :  CPU Idle\n"
                                          "irq              :  IRQ Events\n"
                                          "workq            :  Kernel Workqueues\n");
    evset_free(s);
    struct evset *none = evset_new();
    dynbuf_reset(&out);
    assert_int_equal(fcat_list(none, &out), ST_OK);
    assert_string_equal(dynbuf_str(&out),
                        "No tracing categories available - perhaps you need root?\n");
    evset_free(none);
    dynbuf_free(&out);
}

static void table_sane(void **st)
{
    (void)st;
    /* every category has events, no duplicates by name, catapult's set present */
    static const char *const catapult[] = {"sched", "freq", "irq", "workq", "memreclaim",
                                           "idle", "regulators", "disk"};
    for (size_t i = 0; i < sizeof(catapult) / sizeof(*catapult); i++)
        assert_non_null(fcat_find(catapult[i]));
    for (const struct fcat *c = ftrace_categories; c->name; c++) {
        assert_non_null(c->events[0]);
        assert_ptr_equal(fcat_find(c->name), c);
        for (const char *const *e = c->events; *e; e++)
            assert_non_null(strchr(*e, '/'));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse),     cmocka_unit_test(availability),
        cmocka_unit_test(resolve),   cmocka_unit_test(list_text),
        cmocka_unit_test(table_sane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
