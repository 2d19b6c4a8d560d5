/* Fetching a --perfetto session's file; see pffetch.h. */
#include "pffetch.h"

#include <stdio.h>
#include <string.h>

#include "adb/adb.h"
#include "agents/android/devcmd.h"
#include "lib/outfile.h"

struct fetch {
    struct outfile *o;
    pffetch_tap_fn tap;
    void *tap_ctx;
    char errtext[256];      /* cat's stderr */
    size_t nerr;
};

static enum st_err to_file(void *ctx, const void *b, size_t n)
{
    struct fetch *f = ctx;
    if (f->tap)
        f->tap(f->tap_ctx, outfile_tell(f->o), b, n);
    return outfile_write(f->o, b, n);
}

static enum st_err keep_err(void *ctx, const void *b, size_t n)
{
    struct fetch *f = ctx;
    dev_keep_text(f->errtext, sizeof(f->errtext), &f->nerr, b, n);
    return ST_OK;
}

/* One try, by sync or by cat, from byte 0 (an earlier try's bytes are
 * dropped); why: how it failed, in a word and a line. */
static enum st_err fetch_once(struct capture *c, const char *path, struct fetch *f,
                              int by_cat, char *why, size_t n)
{
    struct adb_sink sink = {to_file, keep_err, NULL, f};
    char line[256];
    f->nerr = 0;
    f->errtext[0] = '\0';
    enum st_err e = outfile_keep(f->o, 0, outfile_tell(f->o));
    if (!e && !by_cat) {
        struct adb_sync *sy = NULL;
        e = adb_sync_open(c->dev, &sy);
        if (!e)
            e = adb_sync_pull(sy, path, &sink);
        dev_first_line(sy ? adb_sync_error(sy) : adb_device_error(c->dev), line, sizeof(line));
        adb_sync_free(sy);
    } else if (!e) {
        const char *argv[] = {"cat", path, NULL};
        int rc = ADB_EXIT_UNKNOWN;
        e = adb_stream_cmd(c->dev, dev_dump_mode(c), argv, &sink, &rc);
        if (!e && rc != 0 && rc != ADB_EXIT_UNKNOWN)
            e = ST_EDEVICE;
        dev_first_line(e == ST_EDEVICE ? f->errtext : adb_device_error(c->dev), line,
                       sizeof(line));
    }
    if (outfile_error(f->o)) {
        e = outfile_error(f->o);
        snprintf(line, sizeof(line), "%s: %s", outfile_path(f->o), outfile_errtext(f->o));
    }
    const char *way = by_cat ? "cat: " : "adb pull: ";
    snprintf(why, n, "%s%s", strncmp(line, way, strlen(way)) ? way : "",   /* cat says "cat: " */
             *line ? line : st_strerror(e));
    return e;
}

enum st_err pffetch(struct capture *c, const char *path, struct outfile *o, char *why,
                    size_t n)
{
    return pffetch_tap(c, path, o, NULL, NULL, why, n);
}

enum st_err pffetch_tap(struct capture *c, const char *path, struct outfile *o,
                        pffetch_tap_fn tap, void *tap_ctx, char *why, size_t n)
{
    struct fetch f = {o, tap, tap_ctx, "", 0};
    char tries[2][300] = {"", ""};
    int by_cat = 0, again = 0;
    enum st_err e;
    for (;;) {
        e = fetch_once(c, path, &f, by_cat, tries[by_cat], sizeof(tries[0]));
        if (!e || e == ST_EINTR || outfile_error(o))
            break;
        if (!again && e != ST_ENOENT && dev_link_lost(e)) {
            again = 1;
            enum st_err w = dev_wait_back(c, tries[by_cat], ", to fetch the Perfetto "
                                                            "trace again");
            if (!w)
                continue;
            e = w;
            break;
        }
        if (by_cat)
            break;
        by_cat = 1;
    }
    snprintf(why, n, "%s%s%s", tries[0], by_cat ? "; " : "", tries[1]);
    return e;
}

