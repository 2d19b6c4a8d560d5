/* --update-viewer: download (lib/httpget.h), verification, atomic store; see download.h. */
#include "download.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "formats/html/viewer.h"
#include "lib/base64.h"
#include "lib/httpget.h"
#include "lib/plat.h"

const struct dl_file dl_files[2] = {
    {"catapult/systrace/systrace/systrace_trace_viewer.html", "systrace_trace_viewer.html",
     2624705, "1e47680c9779f29f2f1c0179c47a69cecadfd6653f15796aa9148c195a5647b0"},
    {"catapult/third_party/polymer/components/webcomponentsjs/webcomponents.min.js",
     "webcomponents.min.js", 118419,
     "3858273ab39b299e7c2227f0830534afafaabf4a572c9ea73c2076fecbd8978c"},
};

/* ---- body decoding ---------------------------------------------------- */

enum st_err dl_base64_decode(const char *in, size_t n, struct dynbuf *out, struct dynbuf *err)
{
    return b64_decode(in, n, out, err);
}

enum st_err dl_decode_body(const char *in, size_t n, struct dynbuf *out, int *was_base64,
                           struct dynbuf *err)
{
    dynbuf_reset(out);
    struct dynbuf why;
    dynbuf_init(&why, 256);
    enum st_err e = dl_base64_decode(in, n, out, &why);
    if (e == ST_ETRUNCATED && err)
        dynbuf_addstr(err, dynbuf_str(&why));
    dynbuf_free(&why);
    *was_base64 = e != ST_EFORMAT;
    if (e != ST_EFORMAT)
        return e;
    dynbuf_reset(out);
    return dynbuf_add(out, in, n);
}

int dl_verify(const struct dl_file *f, int is_viewer, const void *p, size_t n,
              struct dynbuf *err)
{
    char hex[65];
    viewer_sha256_hex(p, n, hex);
    if (n == f->size && !strcmp(hex, f->sha256))
        return 1;
    const char *test = is_viewer ? getenv("SYSTRACE_TEST_VIEWER_SHA256") : NULL;
    if (test && *test && !strcmp(hex, test))
        return 1;
    dynbuf_printf(err, "got %zu bytes with sha256 %s; expected the pinned file (%llu bytes, "
                       "sha256 %s)", n, hex, (unsigned long long)f->size, f->sha256);
    if (test && *test)
        dynbuf_printf(err, " or sha256 %s from $SYSTRACE_TEST_VIEWER_SHA256", test);
    if (n == f->size)
        dynbuf_addstr(err, " (same size as the pinned file: modified or corrupted)");
    return 0;
}

/* ---- storing ---------------------------------------------------------- */

static int mkdir_p(char *dir)
{
    for (char *s = dir + 1; *s; s++) {
        if (!plat_is_sep(*s) || s[-1] == ':')
            continue;   /* not "C:" alone */
        char sep = *s;
        *s = '\0';
        int r = plat_mkdir(dir, 0700);
        *s = sep;
        if (r && errno != EEXIST)
            return -1;
    }
    return plat_mkdir(dir, 0700) && errno != EEXIST ? -1 : 0;
}

static int write_tmp(const char *dir, const char *name, const struct dynbuf *b, char *tmp,
                     size_t tn)
{
    snprintf(tmp, tn, "%s%c.%s.XXXXXX", dir, PLAT_SEP, name);
    int fd = plat_mkstemp(tmp);
    if (fd < 0)
        return -1;
    size_t off = 0;
    while (off < b->len) {
        ssize_t w = write(fd, b->data + off, b->len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    int ok = off == b->len && plat_fchmod(fd, 0644) == 0 && plat_fsync(fd) == 0;
    if (close(fd) != 0 || !ok) {
        plat_unlink(tmp);
        return -1;
    }
    return 0;
}

/* Both files to temporary names, then renamed: polyfill first, so a
 * viewer in the cache always has its polyfill beside it. */
static enum st_err store(const char *cache, struct dynbuf files[2], struct dynbuf *err)
{
    char dir[4096], tmp[2][4200] = {"", ""};
    snprintf(dir, sizeof(dir), "%s", cache);
    if (mkdir_p(dir)) {
        dynbuf_printf(err, "%s: cannot create the cache directory: %s", dir, strerror(errno));
        return ST_EIO;
    }
    enum st_err e = ST_OK;
    for (int i = 1; i >= 0 && !e; i--)
        if (write_tmp(dir, dl_files[i].store_as, &files[i], tmp[i], sizeof(tmp[i]))) {
            dynbuf_printf(err, "%s: cannot write: %s", dir, strerror(errno));
            e = ST_EIO;
        }
    for (int i = 1; i >= 0 && !e; i--) {
        char dst[4200];
        snprintf(dst, sizeof(dst), "%s%c%s", dir, PLAT_SEP, dl_files[i].store_as);
        if (plat_rename(tmp[i], dst)) {
            dynbuf_printf(err, "%s: cannot rename into place: %s", dst, strerror(errno));
            e = ST_EIO;
        } else {
            tmp[i][0] = '\0';
        }
    }
    for (int i = 0; i < 2; i++)
        if (tmp[i][0])
            plat_unlink(tmp[i]);
    return e;
}

/* Fetch, decode and verify file i. */
static enum st_err get_one(const struct dl_opts *o, int i, struct dynbuf *out,
                           struct dynbuf *err)
{
    const char *base = o->base_url ? o->base_url : DL_DEFAULT_BASE;
    size_t bl = strlen(base);
    while (bl && base[bl - 1] == '/')
        bl--;
    char url[4096];
    snprintf(url, sizeof(url), "%.*s/%s?format=TEXT", (int)bl, base, dl_files[i].path);
    struct dynbuf body, why;
    dynbuf_init(&body, DL_BODY_MAX);
    dynbuf_init(&why, 1024);
    int b64 = 0;
    enum st_err e = http_get(url, o->timeout_s, &body, &why);
    if (!e)
        e = dl_decode_body(dynbuf_str(&body), body.len, out, &b64, &why);
    if (!e && !dl_verify(&dl_files[i], i == 0, dynbuf_str(out), out->len, &why))
        e = ST_ECHECKSUM;
    if (e)
        dynbuf_printf(err, "%s: %s", url, dynbuf_str(&why));
    dynbuf_free(&body);
    dynbuf_free(&why);
    return e;
}

enum st_err dl_update_viewer(const struct dl_opts *o, struct dynbuf *msg, struct dynbuf *err)
{
    char cache[4096];
    if (o->cache_dir)
        snprintf(cache, sizeof(cache), "%s", o->cache_dir);
    else if (viewer_cache_dir(cache, sizeof(cache))) {
        dynbuf_printf(err, "no cache directory: set HOME or XDG_CACHE_HOME");
        return ST_ENOENT;
    }
    struct dynbuf files[2];
    enum st_err e = ST_OK;
    for (int i = 0; i < 2; i++)
        dynbuf_init(&files[i], VIEWER_MAX);
    for (int i = 0; i < 2 && !e; i++)
        e = get_one(o, i, &files[i], err);
    if (!e)
        e = store(cache, files, err);
    for (int i = 0; !e && i < 2; i++) {
        char hex[65];
        viewer_sha256_hex(files[i].data, files[i].len, hex);
        dynbuf_printf(msg, "  %s%c%s  %zu bytes  sha256 %s\n", cache, PLAT_SEP, dl_files[i].store_as,
                      files[i].len, hex);
    }
    for (int i = 0; i < 2; i++)
        dynbuf_free(&files[i]);
    return e;
}

int cmd_update_viewer(const struct st_options *o)
{
    struct dl_opts d = {o->viewer_url, NULL, o->timeout_s};
    struct dynbuf msg, err;
    dynbuf_init(&msg, 65536);
    dynbuf_init(&err, 65536);
    if (!o->quiet) {
        printf("Downloading the trace viewer from %s\n",
               o->viewer_url ? o->viewer_url : DL_DEFAULT_BASE);
        fflush(stdout);
    }
    enum st_err e = dl_update_viewer(&d, &msg, &err);
    if (e)
        fprintf(stderr, "systrace: --update-viewer: %s; nothing was stored (a cached copy, "
                        "if any, is unchanged)\n", dynbuf_str(&err));
    else if (!o->quiet)
        printf("Verified (sha256) and stored:\n%s", dynbuf_str(&msg));
    dynbuf_free(&msg);
    dynbuf_free(&err);
    return e ? EXIT_ERROR : EXIT_OK;
}
