/*
 * A trace of any form --from-file reads, converted in passing to its
 * summary's JSON (the metrics of `systrace compare` and --rows), in the
 * same bounded memory as a conversion.  The converted output goes to a
 * temporary file in $TMPDIR (unique per call, so workers may convert at
 * once) that is always removed.
 */
#ifndef SYSTRACE_TRSUM_H
#define SYSTRACE_TRSUM_H

#include "lib/dynbuf.h"

struct trsum_info {
    char model[128], release[64];   /* the trace's device, "" when unknown */
    char err[600];                  /* why it failed: "PATH: what" */
    char warn[600];                 /* a truncated input: "PATH: what", else "" */
};

/* 0, or -1 with info->err. */
int trsum_convert(const char *path, struct dynbuf *json, struct trsum_info *info);

#endif
