/*
 * --rows: the long form of many traces' metrics, one row per metric per
 * trace (rows.c formats them; cmd_rows.c converts the traces).  Columns,
 * in this order: trace, serial, model, android_version, fingerprint,
 * capture_time, metric, dimension, value, error.  A metric's name is
 * compare's (formats/summary/sumread.h); its dimension the process or
 * slice it is of.  A trace that cannot be read is one row with error set
 * and metric, dimension and value empty.  Unknown values are JSON null
 * (an empty CSV field).  JSON Lines (newline-delimited JSON: DuckDB's
 * read_json, BigQuery's NEWLINE_DELIMITED_JSON) or CSV with a header and
 * RFC 4180 quoting, CRLF line ends as the RFC asks.
 */
#ifndef SYSTRACE_ROWS_H
#define SYSTRACE_ROWS_H

#include "lib/dynbuf.h"

enum rows_format { ROWS_JSONL, ROWS_CSV };

/* From FILE's extension: .jsonl, .ndjson, .json or .csv.  0, or -1. */
int rows_format_of(const char *path, enum rows_format *f);

struct rows_meta {
    const char *trace;          /* the input's path as given */
    const char *serial, *model, *release, *fingerprint, *capture_time;  /* "" or NULL: unknown */
};

void rows_header(enum rows_format f, struct dynbuf *o);
void rows_metric(enum rows_format f, const struct rows_meta *m, const char *metric,
                 const char *dim, double v, struct dynbuf *o);
void rows_error(enum rows_format f, const struct rows_meta *m, const char *err,
                struct dynbuf *o);

/* The metrics of a summary's JSON (json[n] readable) as rows, one per
 * metric (sumread.h; of two items of one name the first); ST_EFORMAT with
 * err when it is not such JSON. */
enum st_err rows_of_json(enum rows_format f, const struct rows_meta *m, const char *json,
                         size_t n, struct dynbuf *o, char *err, size_t errn);

struct summary;

/* Every metric of summary s (device: its serial for the JSON, or NULL) as
 * rows; ST_OK, or an error and nothing added. */
enum st_err rows_summary(enum rows_format f, const struct rows_meta *m,
                         const struct summary *s, const char *device, struct dynbuf *o);

/* --rows of a live capture (cmd_live.c): checked before tracing, written
 * after; 0 or an exit code with the message printed. */
int rows_live_check(const char *path);
struct devrun;
int rows_live_write(const char *path, struct devrun *d, size_t n, const char *capture_time);

#endif
