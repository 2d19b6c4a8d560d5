/*
 * `--from-file`: converts a saved trace, detected by content, not by name:
 *   - atrace output with a `TRACE:` marker, raw or zlib (`atrace -z`),
 *     with LF, CR LF or CR CR LF line endings, with console noise before it;
 *   - a bare zlib stream of atrace text (the marker already stripped);
 *   - plain ftrace/atrace text: `# tracer:` first, or just event lines
 *     (e.g. an app's own tracing_mark_write B/E log);
 *   - a systrace HTML page (modern trace-data blocks or 2012-era
 *     linuxPerfData), re-wrapped with the current viewer;
 *   - JSON: catapult's -j form (an object of strings) is unpacked into its
 *     parts again; any other JSON (trace-event files) is one part, as it is;
 *   - a Perfetto protobuf trace (formats/perfetto/pftrace.h; fromfile_pf.c):
 *     its ftrace events as systrace text, its process trees as a process dump;
 *   - any of these gzip-compressed; Android method traces (their own reader).
 * The path "-" is standard input; pipes and FIFOs work for every form.
 * atrace text goes through catapult's processing (decode.h) and the
 * circular-buffer cut (repair.h); no TGID fix, as in catapult.
 *
 * A text line over LCUT_MAX is cut to its start, as a capture cuts it
 * (linecut.h; res.cut_lines counts them), so whatever systrace writes or
 * keeps converts.  Refused with a one-line reason (res.detail): input
 * without a single trace event (it would be a blank page: ST_ENOTRACE),
 * such a line before any trace event or a JSON token over JSCAN_TOKEN_MAX
 * (ST_ETOOBIG), invalid JSON (ST_EFORMAT, with the byte offset, counted
 * from 0).
 */
#ifndef SYSTRACE_FROMFILE_H
#define SYSTRACE_FROMFILE_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "formats/html/tracewriter.h"

enum ff_kind {
    FF_UNKNOWN, FF_ATRACE, FF_ZLIB, FF_TEXT, FF_HTML, FF_JSON, FF_METHODTRACE,
    FF_BINARY, FF_PERFETTO,
};

/* What the first bytes of a (decompressed) file look like. */
enum ff_kind fromfile_sniff(const unsigned char *p, size_t n, int at_eof);
const char *fromfile_kind_name(enum ff_kind k);

struct ff_result {
    enum ff_kind kind;
    int gzipped;
    int truncated;          /* output kept what decoded of a cut input */
    int parts;
    uint64_t bytes_in;      /* file bytes read */
    uint64_t text_bytes;    /* trace text written */
    uint64_t cut_lines;     /* lines cut to LCUT_MAX (linecut.h) */
    int not_text;           /* refused by FF_TEXT_ONLY */
    char detail[320];       /* what is wrong, without the file name */
    char note[1024];        /* worth saying though converted (may be "") */
};

/* Convert path ("-": standard input) into the open writer w (parts are
 * begun and ended here).  ST_ETRUNCATED: written but the input was cut
 * short (res.detail says what was kept). */
enum st_err fromfile_convert(const char *path, struct tracewriter *w,
                             struct ff_result *res);
/* The same with flags: FF_NO_CUT: no circular-buffer cut (the input is
 * systrace's own result, cut already; a filter in the writer, which a
 * cut's rewrite of the output would not see, may then listen). */
#define FF_NO_CUT 2
/* FF_TEXT_ONLY: only ftrace text (atrace output, zlib, plain text) is
 * read; any other kind is refused before anything is written
 * (ST_EUNSUPPORTED, res.not_text set), for a caller that can only cut
 * text in one pass and reads other kinds another way. */
#define FF_TEXT_ONLY 4
enum st_err fromfile_convert_flags(const char *path, struct tracewriter *w, int flags,
                                   struct ff_result *res);

/* The same conversion fed piece by piece (a trace read from a device
 * while it records): ff_push as bytes arrive, ff_push_finish at the end
 * (its return as fromfile_convert's; ff_push_result), then ff_push_free.  FF_PUSH_HOLE:
 * a Perfetto trace's process dump is written at the end into room kept
 * in front of its text (tw_hole) rather than after it, as from a pipe. */
#define FF_PUSH_HOLE 1
struct ff_push;
enum st_err ff_push_new(struct tracewriter *w, int flags, struct ff_push **out);
/* Sticky: after the first error every call returns it. */
enum st_err ff_push(struct ff_push *p, const void *data, size_t n);
enum st_err ff_push_finish(struct ff_push *p);
/* What it did (fromfile_convert's res); valid until ff_push_free. */
const struct ff_result *ff_push_result(const struct ff_push *p);
void ff_push_free(struct ff_push *p);

#endif
