/*
 * `--perfetto-config FILE`: a user's own TraceConfig (perfetto_config.proto),
 * text (protobuf text format, as `perfetto --txt` reads it) or binary (as
 * Perfetto's record_android_trace takes it), told apart by its bytes: text
 * is printable (UTF-8, tab, newline), a binary config never is.
 *
 * Checked before any device is asked: well formed (text: names, values,
 * quoted strings, balanced blocks; binary: protobuf wire format), every
 * top-level field one of TraceConfig's, at least one buffer and one data
 * source with a name, and small enough for the one device command that
 * carries it (PFUSER_ARG_MAX).  The user's buffers, data sources and
 * other fields are kept as they are; the fields that decide when the
 * session stops and where its file goes (duration_ms, write_into_file,
 * file_write_period_ms, output_path) are systrace's, which follows the file
 * as it records and stops it at -t, Enter or Ctrl-C.  The config's
 * duration_ms is reported so that it can stand for -t.  Pure: no I/O.
 */
#ifndef SYSTRACE_PFUSER_H
#define SYSTRACE_PFUSER_H

#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"
#include "pfconfig.h"

#define PFUSER_FILE_MAX (1 << 20)   /* a bigger file is no trace config */
/* the config as the echo argument of the start command: one adb request
 * carries at most 65535 bytes, the rest of the command included */
#define PFUSER_ARG_MAX 60000

struct pfuser_info {
    int binary;
    int64_t duration_ms;    /* the config's, -1: not set (64 bits: a uint32 fits
                             * on every system, Windows' 32-bit long too) */
    char replaced[120];     /* the stop fields it set, comma-separated ("" none) */
};

/* 0, or ST_EINVAL with one line in why (without the file name). */
enum st_err pfuser_check(const char *data, size_t len, struct pfuser_info *info,
                         char *why, size_t whylen);

/* cfg from the checked config: its own form only (the other empty), the
 * stop fields replaced by systrace's (pfconfig_add_stop). */
enum st_err pfuser_make(const char *data, size_t len, uint32_t duration_ms,
                        struct pfconfig *cfg);

#endif
