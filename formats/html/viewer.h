/*
 * Finds the third-party trace viewer (catapult's, BSD licence) and the
 * web-components polyfill it needs, and checks them against known-good
 * sha256 sums.  Never committed: the bytes come from, in order,
 * --viewer FILE, $SYSTRACE_VIEWER, the download cache
 * ($XDG_CACHE_HOME/systrace/, filled by --update-viewer), Debian's
 * golang-1.19-src copy, or the copy embedded at build time.  An explicitly
 * named file with an unknown sum is used with a warning; an automatic
 * source with a wrong sum is skipped with a warning.  The polyfill is
 * taken from beside the viewer, else Debian's, else the embedded one.
 *
 * Known-good sums: catapult's viewer as Debian packages it, the pinned
 * AOSP systrace_trace_viewer.html, the polyfill; for tests only,
 * $SYSTRACE_TEST_VIEWER_SHA256 adds one viewer sum (docs/viewer.md).
 */
#ifndef SYSTRACE_VIEWER_H
#define SYSTRACE_VIEWER_H

#include <stddef.h>
#include "lib/dynbuf.h"
#include "lib/error.h"

#define VIEWER_DEBIAN_DIR "/usr/share/go-1.19/src/cmd/trace/static"
#define VIEWER_MAX (64u << 20)

struct viewer {
    char *html;             /* the viewer document */
    size_t html_len;
    int html_mapped;        /* html is a view of its file (plat_map_file) */
    char *js;               /* webcomponents polyfill */
    size_t js_len;
    char source[4200];      /* where it came from, for messages */
};

/* explicit: --viewer value or NULL.  warn: receives warnings (one per
 * line), may be NULL.  On failure err holds a one-line explanation that
 * says how to get a viewer. */
enum st_err viewer_load(const char *explicit_path, struct viewer *v,
                        struct dynbuf *warn, struct dynbuf *err);
void viewer_free(struct viewer *v);

/* Where each source is looked for; viewer_load fills it from the
 * command line and the environment.  NULL / 0 skips a source. */
struct viewer_cfg {
    const char *explicit_path;  /* --viewer */
    const char *env_path;       /* $SYSTRACE_VIEWER */
    const char *cache_dir;      /* the --update-viewer cache */
    const char *debian_dir;
    int embedded;
};
enum st_err viewer_load_cfg(const struct viewer_cfg *c, struct viewer *v,
                            struct dynbuf *warn, struct dynbuf *err);

/* The cache directory: $XDG_CACHE_HOME/systrace (an absolute path), else
 * $HOME/.cache/systrace.  0, or -1 when neither is set. */
int viewer_cache_dir(char *buf, size_t n);
#define VIEWER_CACHE_FILE "systrace_trace_viewer.html"

/* 1 if the sha256 of p is one of the known-good viewer (kind 0) or
 * polyfill (kind 1) sums. */
int viewer_known(int kind, const void *p, size_t n);
/* Lower-case hex sha256 (empty string if the digest failed). */
void viewer_sha256_hex(const void *p, size_t n, char out[65]);

#endif
