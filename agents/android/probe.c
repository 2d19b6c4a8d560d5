/* Device probe and category listing; see probe.h. */
#include "probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atrace_cmd.h"
#include "devcmd.h"
#include "lib/esctext.h"

/* Lines: the SDK, the tracing directory, id; then, after a '|' line,
 * perfetto's pids (none: no line), and after another the atrace and traced
 * properties (empty lines where unset or before Android 9). */
static const char probe_script[] =
    "getprop ro.build.version.sdk; "
    "test -e /sys/kernel/tracing/trace_marker && echo /sys/kernel/tracing || "
    "echo /sys/kernel/debug/tracing; id; echo '|'; pidof perfetto 2>/dev/null; echo '|'; "
    "getprop debug.atrace.user_initiated; getprop persist.traced.enable; "
    "getprop ro.product.model; getprop ro.build.version.release; "
    "getprop ro.build.fingerprint";

/* Line i (0-based) of s, copied into out. */
static void line_at(const char *s, int i, char *out, size_t n)
{
    while (i-- > 0 && s) {
        s = strchr(s, '\n');
        if (s)
            s++;
    }
    if (!s) {
        out[0] = '\0';
        return;
    }
    size_t l = strcspn(s, "\r\n");
    snprintf(out, n, "%.*s", (int)l, s);
}

enum st_err device_probe(struct capture *c)
{
    struct adb_result r;
    enum st_err e = dev_script(c, probe_script, 65536, &r);
    if (e) {
        adb_result_free(&r);    /* filled on errors too */
        return e;
    }
    char sdk[64], dir[64], id[256], pids[64], user[16];
    line_at(r.out, 0, sdk, sizeof(sdk));
    line_at(r.out, 1, dir, sizeof(dir));
    line_at(r.out, 2, id, sizeof(id));
    int bar = 3, second = 0;
    pids[0] = user[0] = c->traced_enable[0] = '\0';
    for (int i = 4; i < 12 && !second; i++) {   /* the pids (if any), the second '|' */
        char l[64];
        line_at(r.out, i, l, sizeof(l));
        if (!strcmp(l, "|"))
            second = i;
        else if (i == bar + 1)
            snprintf(pids, sizeof(pids), "%s", l);
    }
    if (second) {
        line_at(r.out, second + 1, user, sizeof(user));
        line_at(r.out, second + 2, c->traced_enable, sizeof(c->traced_enable));
        /* for the summary's Trace line only: an old device without them is fine */
        line_at(r.out, second + 3, c->model, sizeof(c->model));
        line_at(r.out, second + 4, c->release, sizeof(c->release));
        line_at(r.out, second + 5, c->fingerprint, sizeof(c->fingerprint));   /* --rows */
    }
    adb_result_free(&r);
    char *end;
    long pid = strtol(pids, &end, 10);
    c->perfetto_pid = end != pids && pid > 0 && pid < 4194304 ? (int)pid : 0;
    c->atrace_user = !strcmp(user, "1");
    c->sdk = atrace_parse_sdk(sdk, strlen(sdk));
    if (c->sdk < 0) {
        char shown[sizeof(sdk) * 4];
        esc_text(shown, sizeof(shown), sdk, strlen(sdk), 0);
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "Failed to get device sdk version (getprop said \"%s\")", shown);
        return ST_EDEVICE;
    }
    snprintf(c->tracing_dir, sizeof(c->tracing_dir), "%s",
             !strcmp(dir, "/sys/kernel/tracing") ? dir : "/sys/kernel/debug/tracing");
    c->root = !strncmp(id, "uid=0(root)", 11);
    return ST_OK;
}

enum st_err device_print_categories(struct capture *c, struct atrace_cats *listed)
{
    static const char *const argv[] = {"atrace", "--list_categories", NULL};
    struct adb_result r;
    enum st_err e = dev_run(c, argv, 1u << 20, &r);
    if (e) {
        adb_result_free(&r);
        return e;
    }
    const char *p = r.out, *end = r.out + r.out_len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        while (l && p[l - 1] == '\r')
            l--;
        const char *s = p;
        while (s < p + l && *s == ' ')
            s++;
        int rs = c->sdk < 23 && (size_t)(p + l - s) >= 2 && !strncmp(s, "rs", 2) &&
                 (s + 2 == p + l || s[2] == ' ' || s[2] == '-');
        if (l && !rs)
            c->ui.note(c->ui.ctx, "%.*s", (int)l, p);
        p = nl ? nl + 1 : end;
    }
    if (listed)
        e = atrace_cats_parse(r.out, r.out_len, c->sdk, listed);
    adb_result_free(&r);
    return e;
}

enum st_err device_list_categories(struct capture *c)
{
    enum st_err e = device_print_categories(c, NULL);
    if (!e && !c->root)
        c->ui.note(c->ui.ctx, "\nNOTE: more categories may be available with adb root\n");
    return e;
}
