/*
 * Merges per-CPU ftrace text files (the --stream spools) into one text in
 * timestamp order, as the kernel's own trace_pipe would have, read like a
 * file: each source is in time order already, so this is a k-way merge on
 * the `TIMESTAMP:` field of each line.  Lines without one (a lost-events
 * notice, a continuation) stay after the line before them; equal times
 * keep source order.  A line longer than a source's buffer comes through
 * in pieces, never interleaved with another source.
 *
 * Memory: one 256 KiB buffer per source.
 */
#ifndef SYSTRACE_FTRACE_MERGE_H
#define SYSTRACE_FTRACE_MERGE_H

#include <stddef.h>
#include <sys/types.h>

#include "lib/error.h"
#include "formats/atrace/ftrace_norm.h"

#define FMERGE_BUF (256u << 10)

struct fmerge;

/* Open every path; on failure *out is NULL and err names the file. */
enum st_err fmerge_open(char *const *paths, size_t n, struct fmerge **out, char *err,
                        size_t errlen);
/* Up to cap bytes of merged text (whole lines unless a line is longer than
 * cap); 0 at the end; -1 with errno on a read error. */
ssize_t fmerge_read(struct fmerge *m, char *out, size_t cap);
/* The same, each line normalised by f as fnorm_feed would (the fields are
 * parsed once for both); cap must exceed FNORM_LINE_MAX + FNORM_GROW. */
ssize_t fmerge_read_norm(struct fmerge *m, struct fnorm *f, char *out, size_t cap);
void fmerge_free(struct fmerge *m);

/* Merge paths into a new file named out_path, or out_path-1.EXT ... when
 * that exists (never replacing a file); 0 with the name taken in *kept
 * (caller frees), or an errno value. */
int fmerge_to_file(char *const *paths, size_t n, const char *out_path, char **kept);

#endif
