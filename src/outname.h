/*
 * The output name when -o was not given (catapult's rule,
 * catapult-systrace.md §1.3: for `--from-file` the input name without its
 * last extension, plus .html, or .json with -j; `trace.html` for stdin,
 * `-`, and for a live capture), and what happens when that file is already
 * there: it is kept, and the result goes to the first free name of
 * `NAME-1.html`, `NAME-2.html`, ... (the caller says so).  Catapult
 * overwrote it: `dump.txt` and `dump.z` both default to `dump.html`, and a
 * second `systrace sched` destroyed the first capture's page.  A name given
 * with -o is used as it is.
 */
#ifndef SYSTRACE_OUTNAME_H
#define SYSTRACE_OUTNAME_H

#include "options.h"

#define OUTNAME_TRIES 1000      /* NAME-1 ... NAME-999, then give up */

struct outname {
    char *path;         /* where to write (malloc'd) */
    char *taken;        /* the default name that exists, when path avoids
                         * it; else NULL */
};

/* 0, or -1 with a one-line reason in err (out of memory, or no free name
 * among OUTNAME_TRIES). */
int outname_pick(const struct st_options *o, struct outname *n, char *err, size_t errlen);
/* The first free one of DEF, DEF-1EXT, DEF-2EXT, ... (DEF ends in EXT;
 * DEF is malloc'd and taken over, also on failure). */
int outname_free_of(char *def, const char *ext, struct outname *n, char *err, size_t errlen);
/* A piece of a split: NAME.EXT -> NAME.007.EXT (NAME.007 without an
 * extension), or, when that file is there already, the first free
 * NAME.007-1.EXT ... (taken: the one left alone). */
int outname_piece(const char *out, unsigned k, struct outname *n, char *err, size_t errlen);
void outname_free(struct outname *n);

/* 1 when --from-file names standard input ("-"). */
int outname_is_stdin(const char *from_file);

#endif
