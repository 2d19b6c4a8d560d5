/* Viewer lookup and verification; see viewer.h. */
#include "viewer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "assets.h"
#include "lib/plat.h"
#include "lib/rsakey.h"

static const char *const known_viewer[] = {
    /* Debian golang-1.19-src trace_viewer_full.html */
    "631caffe52d46bd18811e758694630314edff12abfef5058529668608e2861ef",
    /* AOSP chromium-trace systrace_trace_viewer.html (NO_AUTO_UPDATE) */
    "1e47680c9779f29f2f1c0179c47a69cecadfd6653f15796aa9148c195a5647b0",
};
static const char *const known_polyfill[] = {
    "3858273ab39b299e7c2227f0830534afafaabf4a572c9ea73c2076fecbd8978c",
};

void viewer_sha256_hex(const void *p, size_t n, char out[65])
{
    uint8_t md[32];
    if (crypto_sha256(p, n, md)) {
        out[0] = '\0';
        return;
    }
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
}

int viewer_known(int kind, const void *p, size_t n)
{
    char hex[65];
    viewer_sha256_hex(p, n, hex);
    const char *test = kind ? NULL : getenv("SYSTRACE_TEST_VIEWER_SHA256");
    if (test && *test && !strcmp(hex, test))
        return 1;
    const char *const *list = kind ? known_polyfill : known_viewer;
    size_t cnt = kind ? sizeof(known_polyfill) / sizeof(*known_polyfill)
                      : sizeof(known_viewer) / sizeof(*known_viewer);
    for (size_t i = 0; i < cnt; i++)
        if (!strcmp(hex, list[i]))
            return 1;
    return 0;
}

static enum st_err read_file(const char *path, char **out, size_t *len)
{
    int fd = plat_open(path, O_RDONLY, 0);
    if (fd < 0)
        return errno == ENOENT ? ST_ENOENT : ST_EIO;
    struct dynbuf b;
    dynbuf_init(&b, VIEWER_MAX);
    char tmp[65536];
    enum st_err e = ST_OK;
    for (;;) {
        ssize_t r = read(fd, tmp, sizeof(tmp));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            e = ST_EIO;
            break;
        }
        if (r == 0 || (e = dynbuf_add(&b, tmp, (size_t)r)))
            break;
    }
    close(fd);
    if (e) {
        dynbuf_free(&b);
        return e;
    }
    *out = dynbuf_take(&b, len);
    return *out ? ST_OK : ST_ENOMEM;
}

static enum st_err inflate_asset(const struct st_asset *a, char **out, size_t *len)
{
    if (!a->compressed) {
        *out = malloc(a->len + 1);
        if (!*out)
            return ST_ENOMEM;
        memcpy(*out, a->data, a->len);
        *len = a->len;
        return ST_OK;
    }
    uLongf n = a->raw_len;
    *out = malloc(n + 1);
    if (!*out)
        return ST_ENOMEM;
    if (uncompress((Bytef *)*out, &n, a->data, a->len) != Z_OK || n != a->raw_len) {
        free(*out);
        *out = NULL;
        return ST_EZLIB;
    }
    *len = n;
    return ST_OK;
}

/* An automatic source (a file replaced only by rename: the download
 * cache, Debian's copy) as a view of the file where the platform has one:
 * its bytes are only hashed and written out. */
static enum st_err map_file(const char *path, struct viewer *v)
{
    int fd = plat_open(path, O_RDONLY, 0);
    if (fd < 0)
        return errno == ENOENT ? ST_ENOENT : ST_EIO;
    struct plat_stat st;
    void *p = NULL;
    if (!plat_fstat(fd, &st) && st.kind == PLAT_FILE && st.size > 0 && st.size <= VIEWER_MAX)
        p = plat_map_file(fd, (size_t)st.size);
    close(fd);
    if (!p)
        return read_file(path, &v->html, &v->html_len);
    v->html = p;
    v->html_len = (size_t)st.size;
    v->html_mapped = 1;
    return ST_OK;
}

void viewer_free(struct viewer *v)
{
    if (v->html_mapped)
        plat_unmap_file(v->html, v->html_len);
    else
        free(v->html);
    free(v->js);
    memset(v, 0, sizeof(*v));
}

static int polyfill_in(const char *dir, struct viewer *v)
{
    char path[4096];
    if (!dir)
        return 0;
    snprintf(path, sizeof(path), "%s%cwebcomponents.min.js", dir, PLAT_SEP);
    if (read_file(path, &v->js, &v->js_len) == ST_OK) {
        if (viewer_known(1, v->js, v->js_len))
            return 1;
        free(v->js);
        v->js = NULL;
    }
    return 0;
}

/* Polyfill: beside the viewer, else Debian's, else embedded. */
static enum st_err load_polyfill(const struct viewer_cfg *c, const char *dir,
                                 struct viewer *v)
{
    if (polyfill_in(dir, v) || polyfill_in(c->debian_dir, v))
        return ST_OK;
    const struct st_asset *a = c->embedded ? asset_find("webcomponents.min.js") : NULL;
    if (a && inflate_asset(a, &v->js, &v->js_len) == ST_OK &&
        viewer_known(1, v->js, v->js_len))
        return ST_OK;
    free(v->js);
    v->js = NULL;
    return ST_ENOENT;
}

static void dir_of(const char *path, char *dir, size_t n)
{
    const char *s = plat_last_sep(path);
    if (!s)
        snprintf(dir, n, ".");
    else
        snprintf(dir, n, "%.*s", (int)(s - path), path);
}

/* A file the user named: used even when its sum is unknown. */
static enum st_err try_explicit(const struct viewer_cfg *c, const char *path,
                                const char *what, struct viewer *v, struct dynbuf *warn,
                                struct dynbuf *err)
{
    enum st_err e = read_file(path, &v->html, &v->html_len);
    if (e) {
        dynbuf_printf(err, "%s: cannot read the trace viewer (%s): %s", path, what,
                      e == ST_ENOENT ? "no such file" : st_strerror(e));
        return e;
    }
    if (!viewer_known(0, v->html, v->html_len) && warn)
        dynbuf_printf(warn, "%s: not a known trace viewer build (sha256 differs); "
                            "using it anyway\n", path);
    char dir[4096];
    dir_of(path, dir, sizeof(dir));
    if (load_polyfill(c, dir, v)) {
        dynbuf_printf(err, "%s: no webcomponents.min.js beside it and no other copy "
                           "found; the viewer needs this polyfill", path);
        return ST_ENOENT;
    }
    snprintf(v->source, sizeof(v->source), "%s", path);
    return ST_OK;
}

/* An automatic source: used only when its sum is known-good. */
static int try_auto(const struct viewer_cfg *c, const char *path, struct viewer *v,
                    struct dynbuf *warn)
{
    if (map_file(path, v))
        return 0;
    char dir[4096];
    dir_of(path, dir, sizeof(dir));
    if (!viewer_known(0, v->html, v->html_len)) {
        if (warn)
            dynbuf_printf(warn, "%s: checksum does not match a known viewer; skipped\n",
                          path);
    } else if (!load_polyfill(c, dir, v)) {
        snprintf(v->source, sizeof(v->source), "%s", path);
        return 1;
    }
    viewer_free(v);
    return 0;
}

int viewer_cache_dir(char *buf, size_t n)
{
    return plat_cache_dir("systrace", buf, n);
}

static int try_dir(const struct viewer_cfg *c, const char *dir, const char *file,
                   struct viewer *v, struct dynbuf *warn)
{
    char path[4096];
    if (!dir)
        return 0;
    snprintf(path, sizeof(path), "%s%c%s", dir, PLAT_SEP, file);
    return try_auto(c, path, v, warn);
}

static int try_embedded(const struct viewer_cfg *c, struct viewer *v)
{
    const struct st_asset *a = c->embedded ? asset_find("trace_viewer_full.html") : NULL;
    if (!a || inflate_asset(a, &v->html, &v->html_len) ||
        !viewer_known(0, v->html, v->html_len) || load_polyfill(c, NULL, v)) {
        viewer_free(v);
        return 0;
    }
    snprintf(v->source, sizeof(v->source), "embedded copy");
    return 1;
}

enum st_err viewer_load_cfg(const struct viewer_cfg *c, struct viewer *v,
                            struct dynbuf *warn, struct dynbuf *err)
{
    memset(v, 0, sizeof(*v));
    if (c->explicit_path)
        return try_explicit(c, c->explicit_path, "--viewer", v, warn, err);
    if (c->env_path)
        return try_explicit(c, c->env_path, "$SYSTRACE_VIEWER", v, warn, err);
    if (try_dir(c, c->cache_dir, VIEWER_CACHE_FILE, v, warn) ||
        try_dir(c, c->debian_dir, "trace_viewer_full.html", v, warn) || try_embedded(c, v))
        return ST_OK;
    dynbuf_printf(err, "no trace viewer found: run `systrace --update-viewer` to download "
                       "it, install Debian's golang-1.19-src (apt-get install "
                       "golang-1.19-src), or pass --viewer FILE (a catapult trace viewer "
                       "HTML with webcomponents.min.js beside it)");
    return ST_ENOENT;
}

enum st_err viewer_load(const char *explicit_path, struct viewer *v,
                        struct dynbuf *warn, struct dynbuf *err)
{
    char cache[4096];
    const char *env = getenv("SYSTRACE_VIEWER");
    struct viewer_cfg c = {
        .explicit_path = explicit_path,
        .env_path = env && *env ? env : NULL,
        .cache_dir = viewer_cache_dir(cache, sizeof(cache)) ? NULL : cache,
        .debian_dir = VIEWER_DEBIAN_DIR,
        .embedded = 1,
    };
    return viewer_load_cfg(&c, v, warn, err);
}
