/* Unit tests for presets (src/presets.c) and the option table
 * (src/optdefs.c): --preset's documented values are exactly the presets,
 * every preset's categories are known atrace names, and the table has no
 * option twice. */
#include "testutil.h"

#include "src/optdefs.h"
#include "src/presets.h"

static const struct optdef *find_opt(int id)
{
    for (unsigned i = 0; i < st_noptdefs; i++)
        if (st_optdefs[i].id == id)
            return &st_optdefs[i];
    return NULL;
}

static void documented_values_are_the_presets(void **st)
{
    (void)st;
    const struct optdef *d = find_opt(OPT_PRESET);
    assert_non_null(d);
    char want[256] = "";
    size_t len = 0;
    for (int i = 0; st_presets[i]; i++) {
        len += (size_t)snprintf(want + len, sizeof(want) - len, "%s%s", i ? "|" : "",
                                st_presets[i]->name);
        assert_ptr_equal(preset_find(st_presets[i]->name), st_presets[i]);
    }
    assert_string_equal(d->arg, want);
    assert_null(preset_find("nope"));
}

static void categories_are_atrace_names(void **st)
{
    (void)st;
    static const char *const known =
        ",gfx,input,view,webview,wm,am,sm,audio,video,camera,hal,res,dalvik,rs,bionic,power,"
        "pm,ss,database,network,adb,vibrator,aidl,nnapi,rro,pdx,sched,irq,i2c,freq,idle,disk,"
        "mmc,sync,workq,memreclaim,regulators,binder_driver,binder_lock,pagecache,memory,"
        "thermal,";
    for (int i = 0; st_presets[i]; i++) {
        const char *c = st_presets[i]->categories;
        while (*c) {
            size_t n = strcspn(c, ",");
            char item[64];
            snprintf(item, sizeof(item), ",%.*s,", (int)n, c);
            if (!strstr(known, item))
                fail_msg("preset %s: unknown category %s", st_presets[i]->name, item);
            c += n + (c[n] == ',');
        }
    }
}

static void no_option_twice(void **st)
{
    (void)st;
    for (unsigned i = 0; i < st_noptdefs; i++) {
        for (unsigned j = i + 1; j < st_noptdefs; j++) {
            const struct optdef *a = &st_optdefs[i], *b = &st_optdefs[j];
            assert_false(a->lng && b->lng && !strcmp(a->lng, b->lng));
            assert_false(a->shrt && a->shrt == b->shrt);
            assert_int_not_equal(a->id, b->id);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(documented_values_are_the_presets),
        cmocka_unit_test(categories_are_atrace_names),
        cmocka_unit_test(no_option_twice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
