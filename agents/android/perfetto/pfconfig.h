/*
 * The TraceConfig of a `--perfetto` capture, built from the options as
 * Perfetto's own record script and `perfetto` short form do
 * (perfetto-recording.md §1): one buffer (-b) written into the file every
 * PFCONFIG_WRITE_PERIOD_MS (write_into_file),
 * linux.ftrace with the kernel categories as ftrace_events (sched with
 * compact sched), the userspace ones as atrace_categories and -a as
 * atrace_apps, linux.process_stats for process names, duration_ms from
 * -t (0: until stopped), and the data sources the presets ask for
 * (capture_opts.pf_sources: frame timeline, packages list, polled process
 * stats, battery counters, power rails) where the device's SDK has them.  Text for `perfetto --txt`, binary for Android 9,
 * which has no --txt.  Pure: no I/O.
 */
#ifndef SYSTRACE_PFCONFIG_H
#define SYSTRACE_PFCONFIG_H

#include "agents/capture.h"
#include "agents/android/atrace_cmd.h"
#include "lib/dynbuf.h"

#define PFCONFIG_DEFAULT_KB (64 * 1024)
/* write_into_file: the session writes its file every this many ms, so
 * the host reads and converts it while it records (pflive.h) and the
 * buffer only holds one period of data; a capture can be of any length.
 * Perfetto's minimum: what is left after the stop is at most a tenth of a
 * second of data (250 ms left about 0.09 s more work after the stop). */
#define PFCONFIG_WRITE_PERIOD_MS 100

struct pfconfig {
    struct dynbuf text, binary; /* a user's config may have only one (len 0) */
    size_t nkernel, nuser;      /* categories kept */
    char lacking[300];          /* data sources left out: the device's SDK lacks them */
};

/* avail: the device's atrace categories (userspace ones must be there);
 * sdk: the device's, for the data sources it has.
 * Categories with no Perfetto equivalent go to `dropped`, space-separated;
 * a category or app name that is not a plain token is ST_EINVAL with the
 * reason in `dropped`. */
enum st_err pfconfig_make(const struct capture_opts *o, const struct atrace_cats *avail,
                          int sdk, struct pfconfig *cfg, struct dynbuf *dropped);
/* The fields of systrace's stop appended to both forms: duration_ms,
 * write_into_file, file_write_period_ms (PFCONFIG_WRITE_PERIOD_MS). */
void pfconfig_add_stop(struct pfconfig *cfg, uint32_t duration_ms);
void pfconfig_free(struct pfconfig *cfg);

/* The i-th kernel category the config records as ftrace events (through
 * traced_probes, which needs no adb root), its description in *longname;
 * NULL past the last. */
const char *pfconfig_kernel_category(size_t i, const char **longname);

/* Append cfg's binary form to cmd as an `echo -n` argument of octal
 * escapes (\0NNN, which mksh's echo interprets): bytes for a device shell
 * whatever they are. */
enum st_err pfconfig_echo_binary(const struct pfconfig *cfg, struct dynbuf *cmd);

#endif
