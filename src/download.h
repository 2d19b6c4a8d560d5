/*
 * `systrace --update-viewer`: downloads the classic trace viewer and the
 * web-components polyfill it needs with libcurl, checks them against the
 * pinned sha256 sums, and stores them in the viewer cache
 * ($XDG_CACHE_HOME/systrace/, default ~/.cache/systrace/) where
 * viewer_load() looks second, after an explicitly named viewer.
 *
 * Source (pinned): AOSP platform/external/chromium-trace at commit
 * 4537bffda5f89155f2f27afc7c80e4c0354c1c20, served by gitiles, which
 * gives a raw file base64-encoded with `?format=TEXT`.  --viewer-url or
 * $SYSTRACE_VIEWER_URL replaces the base (a mirror, or a test server); the
 * files are then BASE/PATH?format=TEXT, base64 or raw.  Whatever the
 * source, only the pinned sums are accepted (docs/viewer.md), plus, for
 * tests only, the one in $SYSTRACE_TEST_VIEWER_SHA256 for the viewer.
 *
 * Both files are fetched and verified before anything is written; they
 * are then written to temporary files in the cache directory and renamed
 * into place, so a failed or bad download never replaces a good copy.
 * The only file that includes libcurl.
 */
#ifndef SYSTRACE_DOWNLOAD_H
#define SYSTRACE_DOWNLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "lib/dynbuf.h"
#include "lib/error.h"
#include "options.h"

#define DL_DEFAULT_BASE                                                     \
    "https://android.googlesource.com/platform/external/chromium-trace/+/"  \
    "4537bffda5f89155f2f27afc7c80e4c0354c1c20"
#define DL_BODY_MAX (128u << 20)    /* base64 of a VIEWER_MAX file fits */

struct dl_file {
    const char *path;       /* below the base URL */
    const char *store_as;   /* name in the cache directory */
    uint64_t size;          /* pinned size */
    const char *sha256;     /* pinned sum, lower-case hex */
};

/* [0] the viewer, [1] the polyfill. */
extern const struct dl_file dl_files[2];

/* gitiles `?format=TEXT`: base64, line breaks and blanks allowed, '='
 * padding only at the end.  ST_EFORMAT (detail in err) if not base64. */
enum st_err dl_base64_decode(const char *in, size_t n, struct dynbuf *out,
                             struct dynbuf *err);
/* A response body: base64 if it decodes as such, else the raw bytes (a
 * mirror serving plain files).  *was_base64 tells which.  Base64 cut
 * short (a partial download) is ST_ETRUNCATED, detail in err. */
enum st_err dl_decode_body(const char *in, size_t n, struct dynbuf *out, int *was_base64,
                           struct dynbuf *err);

/* Is this the pinned file (or, for the viewer, the test sum)?  On a
 * mismatch err gets a line saying what differs. */
int dl_verify(const struct dl_file *f, int is_viewer, const void *p, size_t n,
              struct dynbuf *err);

struct dl_opts {
    const char *base_url;   /* NULL: DL_DEFAULT_BASE */
    const char *cache_dir;  /* NULL: the viewer cache */
    long timeout_s;         /* <= 0: connect 30 s, give up after 60 s without data */
};

/* Download, verify, store.  msg gets a line per stored file; err one
 * line saying what failed. */
enum st_err dl_update_viewer(const struct dl_opts *o, struct dynbuf *msg, struct dynbuf *err);

/* The --update-viewer command: prints, returns an exit code. */
int cmd_update_viewer(const struct st_options *o);

#endif
