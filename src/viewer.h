/*
 * Finds the third-party trace viewer (catapult's, BSD licence) and the
 * web-components polyfill it needs, and checks them against known-good
 * sha256 sums.  Never committed: the bytes come from, in order,
 * --viewer FILE, $SYSTRACE_VIEWER, the download cache
 * ($XDG_CACHE_HOME/systrace/), Debian's golang-1.19-src copy, or the copy
 * embedded at build time.  An explicitly named file with an unknown sum is
 * used with a warning; an automatic source with a wrong sum is skipped.
 */
#ifndef SYSTRACE_VIEWER_H
#define SYSTRACE_VIEWER_H

#include <stddef.h>
#include "dynbuf.h"
#include "error.h"

#define VIEWER_DEBIAN_DIR "/usr/share/go-1.19/src/cmd/trace/static"
#define VIEWER_MAX (64u << 20)

struct viewer {
    char *html;             /* the viewer document */
    size_t html_len;
    char *js;               /* webcomponents polyfill */
    size_t js_len;
    char source[512];       /* where it came from, for messages */
};

/* explicit: --viewer value or NULL.  warn: receives warnings (one per
 * line), may be NULL.  On failure err holds a one-line explanation that
 * says how to get a viewer. */
enum st_err viewer_load(const char *explicit_path, struct viewer *v,
                        struct dynbuf *warn, struct dynbuf *err);
void viewer_free(struct viewer *v);

/* 1 if the sha256 of p is one of the known-good viewer (kind 0) or
 * polyfill (kind 1) sums. */
int viewer_known(int kind, const void *p, size_t n);

#endif
