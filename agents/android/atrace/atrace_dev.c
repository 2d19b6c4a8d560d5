/*
 * What every way of the atrace agent does on the device alike: an error
 * in one line (atrace_fail), the device's TID -> PID listing for the TGID
 * repairs, and atrace's own cleanup (tracing off, categories and app tags
 * cleared, 1 KB buffer), which ends a capture on old devices and resets
 * the device after any failure.  The lowest file of the agent: the face
 * (atrace.c), the start (atrace_start.c) and the ways all call down to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/android/devcmd.h"
#include "atrace_int.h"

#define PROC_LIST_MAX (16u << 20)
#define HUNG_RESET_MS 2000      /* the reset of a device that timed out before */

/* c->err = "what: detail" */
enum st_err atrace_fail(struct capture *c, enum st_err e, const char *what,
                        const char *detail)
{
    dynbuf_reset(&c->err);
    dynbuf_printf(&c->err, "%s: %s", what, detail);
    return e;
}

enum st_err atrace_load_tgids(struct atrace *a, struct tgid_map *m)
{
    struct adb_result r;
    enum st_err e = dev_script(a->c, "echo -n /proc/[0-9]*/task/[0-9]*", PROC_LIST_MAX, &r);
    if (!e)
        e = tgid_map_parse(m, r.out, r.out_len);
    adb_result_free(&r);
    return e;
}

/* Ends the capture as catapult does on old devices, and resets the device
 * after any failure: atrace's own cleanup (tracing off, categories and app
 * tags cleared, buffer back to 1 KB), its dump thrown away on the device. */
enum st_err atrace_reset(struct atrace *a, const char *const *argv, char *why, size_t n)
{
    struct capture *c = a->c;
    struct dynbuf s;
    dynbuf_init(&s, 65536);
    enum st_err e = adb_quote_argv(&s, argv);
    if (!e)
        e = dynbuf_addstr(&s, " >/dev/null");
    struct adb_result r = {0};
    int hung = c->dev_hung;
    if (hung) {     /* one short try: a device left tracing is worse than the wait */
        c->dev_gone = c->dev_hung = 0;
        adb_device_set_timeout(c->dev, HUNG_RESET_MS);
    }
    if (!e && !(e = dev_script(c, dynbuf_str(&s), 65536, &r))) {
        if (r.exit_code == 0 || r.exit_code == ADB_EXIT_UNKNOWN)
            a->dirty = 0;
        else
            dev_first_line(r.err_len ? r.err : r.out, why, n);
        adb_result_free(&r);
    } else if (e) {
        adb_result_free(&r);    /* filled on errors too */
        snprintf(why, n, "%s", c->dev_hung   ? "the device stopped answering"
                               : c->dev_gone ? "the device did not come back"
                                             : adb_device_error(c->dev));
    }
    if (hung) {
        adb_device_set_timeout(c->dev, dev_wait_s(c) * 1000);
        c->dev_gone = c->dev_hung = c->dev_hung || a->dirty;
    }
    dynbuf_free(&s);
    return a->dirty ? ST_EDEVICE : ST_OK;
}
