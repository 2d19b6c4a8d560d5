/*
 * Small buffered JSON text writer for the trace-event output: hands 64 KiB
 * pieces to a write callback, keeps the first failure (sticky), escapes
 * strings and replaces invalid UTF-8 with U+FFFD so the output is always
 * valid JSON.
 */
#ifndef SYSTRACE_MTRACE_JW_H
#define SYSTRACE_MTRACE_JW_H

#include <stddef.h>
#include <stdint.h>

#include "lib/dynbuf.h"
#include "mtrace.h"

#define MT_JW_BUF 65536u

struct mt_jw {
    mtrace_write_fn write;
    void *ctx;
    int failed;
    size_t len;
    char buf[MT_JW_BUF];
};

void mt_jw_raw(struct mt_jw *w, const char *p, size_t n);
void mt_jw_lit(struct mt_jw *w, const char *s);
void mt_jw_i64(struct mt_jw *w, int64_t v);
/* A quoted, escaped JSON string of n bytes. */
void mt_jw_str(struct mt_jw *w, const char *p, size_t n);
void mt_jw_flush(struct mt_jw *w);

/* Length of the well-formed UTF-8 sequence at p (1-4), or 0. */
size_t mt_utf8_len(const unsigned char *p, size_t n);

/* The same escaping into a dynbuf (for cached fragments). */
enum st_err mt_json_escape(struct dynbuf *b, const char *p, size_t n);

#endif
