/* libFuzzer target: the whole --from-file path (sniff, gunzip, HTML,
 * decode, repair, JSON writer) on a file holding the input. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "formats/atrace/fromfile.h"
#include "formats/html/tracewriter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    return 0;
}
