/* Device command helpers; see devcmd.h. */
#include "devcmd.h"

#include <stdio.h>
#include <string.h>

#define RC_MARK "__systrace_rc="

void dev_first_line(const char *s, char *out, size_t n)
{
    while (*s == '\n' || *s == '\r' || *s == ' ')
        s++;
    size_t l = strcspn(s, "\r\n");
    if (l > 200)
        l = 200;
    snprintf(out, n, "%.*s", (int)l, s);
}

/* Take "<marker>N" off the end of a legacy shell's output. */
static void take_rc(struct adb_result *r)
{
    char *m = NULL;
    for (char *p = r->out; (p = strstr(p, RC_MARK)); p++)
        m = p;
    if (!m)
        return;
    int rc = 0;
    for (const char *d = m + strlen(RC_MARK); *d >= '0' && *d <= '9'; d++)
        rc = rc * 10 + (*d - '0');
    r->exit_code = rc;
    /* drop the marker and the blank our echo put before it */
    if (m > r->out && m[-1] == ' ')
        m--;
    r->out_len = (size_t)(m - r->out);
    r->out[r->out_len] = '\0';
}

static enum st_err finish(struct capture *c, enum st_err e, const char *what,
                          struct adb_result *r)
{
    if (e) {
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "%s: %s", what, adb_device_error(c->dev));
        return e;
    }
    if (!r->split)
        take_rc(r);
    return ST_OK;
}

enum st_err dev_script(struct capture *c, const char *script, size_t max,
                       struct adb_result *r)
{
    enum st_err e;
    if (adb_device_has_feature(c->dev, "shell_v2"))
        return finish(c, adb_run_script(c->dev, ADB_SHELL_V2, script, max, r), script, r);
    struct dynbuf s;
    dynbuf_init(&s, 65536);
    /* one echo, so $? is still the command's status */
    dynbuf_printf(&s, "%s; echo \" " RC_MARK "$?\"", script);
    e = adb_run_script(c->dev, ADB_SHELL_LEGACY, dynbuf_str(&s), max, r);
    dynbuf_free(&s);
    return finish(c, e, script, r);
}

enum st_err dev_run(struct capture *c, const char *const *argv, size_t max,
                    struct adb_result *r)
{
    struct dynbuf s;
    dynbuf_init(&s, 65536);
    enum st_err e = adb_quote_argv(&s, argv);
    if (!e)
        e = dev_script(c, dynbuf_str(&s), max, r);
    dynbuf_free(&s);
    return e;
}

enum adb_mode dev_dump_mode(const struct capture *c)
{
    if (adb_device_has_feature(c->dev, "shell_v2"))
        return ADB_SHELL_V2;
    return c->sdk >= 21 ? ADB_EXEC : ADB_SHELL_LEGACY;
}
