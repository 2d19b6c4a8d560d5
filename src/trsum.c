/*
 * A trace converted to its summary (trsum.h): the conversion writes into
 * a writer without a file (tw_open of NULL: its bytes are dropped) while
 * the summary reads the parts through the writer's tee.  A third of a
 * worker's time went to a temporary file's kernel work before.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "formats/html/tracewriter.h"
#include "formats/input/fromfile.h"
#include "formats/summary/summary.h"
#include "lib/plat.h"
#include "trsum.h"

static void copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src);
}

int trsum_convert(const char *path, struct dynbuf *out, struct trsum_info *info)
{
    struct viewer v = {0};
    struct tracewriter *w = NULL;
    struct summary *sum = summary_new();
    struct ff_result res;
    const char *model, *release;
    int rc = -1;
    memset(info, 0, sizeof(*info));
    enum st_err e = sum ? tw_open(NULL, TW_JSON, &v, &w) : ST_ENOMEM;
    if (e) {
        snprintf(info->err, sizeof(info->err), "%s: cannot convert: %s", path,
                 w ? tw_errtext(w) : st_strerror(e));
        goto done;
    }
    struct tw_tee tee;
    summary_tee(sum, &tee);
    tw_set_tee(w, &tee);
    e = fromfile_convert(path, w, &res);
    if (e && e != ST_ETRUNCATED) {
        snprintf(info->err, sizeof(info->err), "%s: %s", path,
                 tw_error(w) ? tw_errtext(w) : res.detail[0] ? res.detail : st_strerror(e));
        goto done;
    }
    if (e == ST_ETRUNCATED)
        snprintf(info->warn, sizeof(info->warn), "%s: %s", path, res.detail);
    if ((e = summary_finish(sum)) || (e = summary_json(sum, NULL, out))) {
        snprintf(info->err, sizeof(info->err), "%s: %s", path, st_strerror(e));
        goto done;
    }
    summary_device(sum, &model, &release);
    copy(info->model, sizeof(info->model), model);
    copy(info->release, sizeof(info->release), release);
    rc = 0;
done:
    tw_free(w);     /* never committed: the temporary output goes */
    summary_free(sum);
    return rc;
}
