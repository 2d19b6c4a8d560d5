/*
 * System properties of the simulated device: getprop [NAME [DEFAULT]]
 * and setprop NAME VALUE.  Values derive from the options (--sdk,
 * --no-root); debug.atrace.tags.enableflags, debug.atrace.app_* and
 * (Android 9+) debug.atrace.user_initiated follow what atrace set
 * (cleared by its cleanup).  getprop without arguments lists "[k]: [v]" lines
 * sorted by name, as Android's getprop does.
 */
#include "sim_cmds.h"
#include "sim_atrace.h"

#include <stdlib.h>
#include <string.h>

struct prop {
    char key[96];
    char value[128];
};

static const char *release_for(int sdk)
{
    static const struct { int sdk; const char *rel; } t[] = {
        {16, "4.1.2"}, {17, "4.2.2"}, {18, "4.3.1"}, {19, "4.4.4"},
        {20, "4.4W.2"}, {21, "5.0.2"}, {22, "5.1.1"}, {23, "6.0.1"},
        {24, "7.0"}, {25, "7.1.2"}, {26, "8.0.0"}, {27, "8.1.0"}, {28, "9"},
        {29, "10"}, {30, "11"}, {31, "12"}, {32, "12"}, {33, "13"},
        {34, "14"}, {35, "15"}, {36, "16"},
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        if (t[i].sdk == sdk)
            return t[i].rel;
    return sdk < 16 ? "4.0.4" : "17";
}

/* atrace -a: debug.atrace.app_number and app_0.. (one per comma-separated
 * cmdline, at most 16), set at start and cleared by atrace's cleanup. */
static size_t app_props(struct sim_device *dev, struct prop *p, size_t n, size_t max)
{
    char apps[256];
    pthread_mutex_lock(&dev->lock);
    snprintf(apps, sizeof(apps), "%s", dev->trace->apps);
    pthread_mutex_unlock(&dev->lock);
    if (!apps[0] || n == max)
        return n;
    size_t count_at = n++, k = 0;
    for (char *a = apps; a && k < 16 && n < max; k++) {
        char *comma = strchr(a, ',');
        if (comma)
            *comma = '\0';
        snprintf(p[n].key, sizeof(p[n].key), "debug.atrace.app_%zu", k);
        snprintf(p[n].value, sizeof(p[n].value), "%.127s", a);
        n++;
        a = comma ? comma + 1 : NULL;
    }
    snprintf(p[count_at].key, sizeof(p[count_at].key), "debug.atrace.app_number");
    snprintf(p[count_at].value, sizeof(p[count_at].value), "%zu", k);
    return n;
}

static size_t build_props(struct sim_device *dev, struct prop *p, size_t max)
{
    const struct sim_opts *o = &dev->opt;
    size_t n = 0;
    char sdk[16], tags[32];
    snprintf(sdk, sizeof(sdk), "%d", o->sdk);
    pthread_mutex_lock(&dev->lock);
    snprintf(tags, sizeof(tags), "0x%llx",
             (unsigned long long)sim_trace_tags(dev));
    /* set by atrace from Android 9 on (perfetto.rc stops traced_probes
     * while it is 1), cleared by its cleanup */
    const char *user = o->sdk < 28 ? "" : dev->trace->user_initiated ? "1" : "0";
    pthread_mutex_unlock(&dev->lock);
    const char *fixed[][2] = {
        {"debug.atrace.user_initiated", user},
        {"debug.atrace.tags.enableflags", tags},
        {"persist.traced.enable", o->traced_off ? "0" : "1"},
        {"ro.adb.secure", "0"},
        {"ro.build.fingerprint",
         o->no_root ? "adbsim/sim/sim:13/TQ3A.230901.001/1:user/release-keys"
                    : "adbsim/sim/sim:13/TQ3A.230901.001/1:userdebug/test-keys"},
        {"ro.build.type", o->no_root ? "user" : "userdebug"},
        {"ro.build.version.codename", "REL"},
        {"ro.build.version.release", release_for(o->sdk)},
        {"ro.build.version.sdk", sdk},
        {"ro.debuggable", o->no_root ? "0" : "1"},
        {"ro.hardware", "sim"},
        {"ro.product.board", "sim"},
        {"ro.product.brand", "adbsim"},
        {"ro.product.cpu.abi", "arm64-v8a"},
        {"ro.product.device", "sim"},
        {"ro.product.manufacturer", "adbsim"},
        {"ro.product.model", "SystraceSim"},
        {"ro.product.name", "sim"},
        {"ro.secure", "1"},
        {"ro.serialno", "SIM0001"},
        {"sys.boot_completed", "1"},
    };
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]) && n < max; i++) {
        snprintf(p[n].key, sizeof(p[n].key), "%s", fixed[i][0]);
        snprintf(p[n].value, sizeof(p[n].value), "%s", fixed[i][1]);
        n++;
    }
    for (int i = 0; i < o->nprops; i++) {   /* --prop: a device's odd answers */
        const char *eq = strchr(o->props[i], '=');
        size_t j, kl = (size_t)(eq - o->props[i]);
        for (j = 0; j < n; j++)
            if (strlen(p[j].key) == kl && !strncmp(p[j].key, o->props[i], kl))
                break;
        if (j == n && n == max)
            continue;
        n += j == n;
        snprintf(p[j].key, sizeof(p[j].key), "%.*s", (int)kl, o->props[i]);
        snprintf(p[j].value, sizeof(p[j].value), "%s", eq + 1);
    }
    n = app_props(dev, p, n, max);
    pthread_mutex_lock(&dev->lock);
    for (size_t i = 0; i < dev->nprops; i++) {
        size_t j;
        for (j = 0; j < n; j++)
            if (!strcmp(p[j].key, dev->props[i].key))
                break;
        if (j == n) {
            if (n == max)
                break;
            n++;
        }
        snprintf(p[j].key, sizeof(p[j].key), "%s", dev->props[i].key);
        snprintf(p[j].value, sizeof(p[j].value), "%s", dev->props[i].value);
    }
    pthread_mutex_unlock(&dev->lock);
    return n;
}

static int cmp_prop(const void *a, const void *b)
{
    return strcmp(((const struct prop *)a)->key, ((const struct prop *)b)->key);
}

int sim_cmd_getprop(struct sh_cmd *c)
{
    struct prop p[96];
    size_t n = build_props(c->sh->dev, p, 96);
    if (c->argc < 2) {
        qsort(p, n, sizeof(p[0]), cmp_prop);
        for (size_t i = 0; i < n; i++)
            if (sink_printf(c->out, "[%s]: [%s]\n", p[i].key, p[i].value))
                return 1;
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!strcmp(p[i].key, c->argv[1]))
            return sink_printf(c->out, "%s\n", p[i].value) ? 1 : 0;
    return sink_printf(c->out, "%s\n", c->argc > 2 ? c->argv[2] : "") ? 1
                                                                         : 0;
}

int sim_cmd_setprop(struct sh_cmd *c)
{
    if (c->argc != 3) {
        sink_puts(c->err, "usage: setprop NAME VALUE\n");
        return 1;
    }
    struct sim_device *dev = c->sh->dev;
    if (strlen(c->argv[1]) >= sizeof(dev->props[0].key) ||
        strlen(c->argv[2]) >= sizeof(dev->props[0].value) ||
        !strncmp(c->argv[1], "ro.", 3)) {
        sink_printf(c->err, "Failed to set property '%s' to '%s'.\n",
                    c->argv[1], c->argv[2]);
        return 1;
    }
    pthread_mutex_lock(&dev->lock);
    size_t i;
    for (i = 0; i < dev->nprops; i++)
        if (!strcmp(dev->props[i].key, c->argv[1]))
            break;
    if (i == dev->nprops && dev->nprops < SIM_MAX_SETPROPS)
        dev->nprops++;
    if (i < dev->nprops) {
        snprintf(dev->props[i].key, sizeof(dev->props[i].key), "%s",
                 c->argv[1]);
        snprintf(dev->props[i].value, sizeof(dev->props[i].value), "%s",
                 c->argv[2]);
    }
    pthread_mutex_unlock(&dev->lock);
    return 0;
}
