/*
 * The --stream spool files of one capture: one per CPU of the tracing
 * directory (per_cpu/cpuN), named BASE.cpuN beside the output, with the
 * per-CPU trace_pipe each is filled from.  After the capture they are
 * merged in time order (ftrace_merge.h) into the result, or into one raw
 * text file that --from-file reads, and removed.
 */
#ifndef SYSTRACE_FTRACE_SPOOL_H
#define SYSTRACE_FTRACE_SPOOL_H

#include <stddef.h>

#include "lib/error.h"
#include "ftrace_fs.h"

struct spools {
    char **pipes;       /* per_cpu/cpuN/trace_pipe paths */
    char **files;       /* BASE.cpuN */
    size_t n;
};

/* Lists t's CPUs (numeric order). ST_ENOENT: no per_cpu directory. */
enum st_err spools_make(struct spools *s, struct tracefs *t, const char *base);
/* Merge into path (0 or an errno value); the spool files stay. */
int spools_merge_to(const struct spools *s, const char *path, char **kept);
void spools_remove(const struct spools *s);
/* 1 if any spool file exists. */
int spools_exist(const struct spools *s);
void spools_free(struct spools *s);

#endif
