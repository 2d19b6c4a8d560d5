/*
 * Where an output file really goes (outfile.h): what the named path is, the
 * file a rename must replace when symlinks are followed, the mode a new or
 * replacing file gets, and free names for files that must never replace
 * another.  Decided before anything is written, so a directory or a missing
 * parent fails before a capture starts.
 */
#ifndef SYSTRACE_OUTPATH_H
#define SYSTRACE_OUTPATH_H

#include <stddef.h>

#include "error.h"

enum outpath_kind {
    OUTPATH_FILE,       /* a regular file or a new name: temp + rename */
    OUTPATH_STREAM,     /* stdout, a device, FIFO, socket: written in place */
};

struct outpath {
    enum outpath_kind kind;
    char *dest;         /* FILE: the path a rename replaces (links followed) */
    unsigned mode;      /* FILE: the mode to give the new file */
    int replaces;       /* FILE: dest exists (mode and owner kept) */
    unsigned uid, gid;
};

/* Resolve PATH.  On failure returns the error with one line in err
 * ("is a directory", "directory 'x' does not exist", ...). */
enum st_err outpath_resolve(const char *path, struct outpath *p, char *err, size_t errlen);
void outpath_free(struct outpath *p);

/* The n-th candidate name for a file that must not replace another:
 * n = 0: PATH; else PATH with "-n" before its extension ("trace-1.atrace").
 * Caller frees; NULL when out of memory. */
char *outpath_candidate(const char *path, unsigned n);

/* Text for an errno of creating, writing or renaming a file in a
 * directory: ENOENT names the directory, ENOSPC says the disk is full,
 * EPIPE is ST_EPIPE (a pipe's reader went away, not a failure to keep). */
enum st_err outpath_errno(int errnum, const char *path, char *err, size_t errlen);

#endif
