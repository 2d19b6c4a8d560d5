/* libFuzzer target: the whole --from-file path (sniff, gunzip, HTML,
 * decode, repair, JSON writer) on a file holding the input; then the
 * same bytes pushed in pieces as a recording arrives (ff_push with
 * FF_PUSH_HOLE) into an HTML page, where a Perfetto trace's process dump
 * fills (or outgrows) room kept before the text. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "formats/input/fromfile.h"
#include "formats/html/tracewriter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void pushed(const uint8_t *data, size_t size, const char *out)
{
    static char html[] = "<!-- viewer -->", js[] = "/* js */";
    struct viewer v = {.html = html, .html_len = sizeof(html) - 1, .js = js,
                       .js_len = sizeof(js) - 1};
    struct tracewriter *w = NULL;
    struct ff_push *p = NULL;
    if (!tw_open(out, TW_HTML, &v, &w) && !ff_push_new(w, FF_PUSH_HOLE, &p)) {
        size_t piece = size ? (size_t)data[size - 1] * 61 + 1 : 1;
        enum st_err e = ST_OK;
        for (size_t at = 0; at < size && !e; at += piece)
            e = ff_push(p, data + at, size - at < piece ? size - at : piece);
        e = ff_push_finish(p);
        if (!e || e == ST_ETRUNCATED)
            tw_commit(w);
    }
    ff_push_free(p);
    tw_free(w);
    unlink(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char in[] = "/tmp/systrace-fuzz-in.XXXXXX";
    int fd = mkstemp(in);
    if (fd < 0)
        return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        unlink(in);
        return 0;
    }
    close(fd);
    char out[64];
    snprintf(out, sizeof(out), "%s.json", in);
    struct tracewriter *w = NULL;
    if (!tw_open(out, TW_JSON, NULL, &w)) {
        struct ff_result res;
        enum st_err e = fromfile_convert(in, w, &res);
        if (!e || e == ST_ETRUNCATED)
            tw_commit(w);
    }
    tw_free(w);
    unlink(out);
    unlink(in);
    pushed(data, size, out);
    return 0;
}
