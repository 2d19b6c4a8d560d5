/*
 * `--from-file`: converts a saved trace, detected by content, not by name:
 *   - atrace output with a `TRACE:` marker, raw or zlib (`atrace -z`),
 *     with LF, CR LF or CR CR LF line endings, with console noise before it;
 *   - a bare zlib stream of atrace text (the marker already stripped);
 *   - plain ftrace/atrace text: `# tracer:` first, or just event lines
 *     (e.g. an app's own tracing_mark_write B/E log);
 *   - a systrace HTML page (modern trace-data blocks or 2012-era
 *     linuxPerfData), re-wrapped with the current viewer;
 *   - a JSON trace (passed through as one part);
 *   - any of these gzip-compressed.
 * atrace text goes through catapult's processing (decode.h) and the
 * circular-buffer cut (repair.h); no TGID fix, as in catapult.  Method
 * traces are routed elsewhere by the CLI (fromfile_sniff tells).
 */
#ifndef SYSTRACE_FROMFILE_H
#define SYSTRACE_FROMFILE_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "formats/html/tracewriter.h"

enum ff_kind {
    FF_UNKNOWN, FF_ATRACE, FF_ZLIB, FF_TEXT, FF_HTML, FF_JSON, FF_METHODTRACE,
    FF_BINARY,
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
    char detail[320];       /* what is wrong, without the file name */
};

/* Convert path into the open writer w (parts are begun and ended here).
 * ST_ETRUNCATED: written but the input was cut short (res.detail says). */
enum st_err fromfile_convert(const char *path, struct tracewriter *w,
                             struct ff_result *res);

#endif
