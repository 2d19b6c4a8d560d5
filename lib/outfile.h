/*
 * An output file that is never seen half-written and never destroys what
 * is there.
 *
 * A regular file (or a new name) is written to a temporary file beside it
 * and appears only on outfile_commit(), by rename.  A symlink is followed:
 * the temporary file goes beside its target and the rename replaces the
 * target, not the link.  A file being replaced keeps its mode (and, where
 * allowed, its owner); a new one gets 0666 minus the umask.
 *
 * Anything else (stdout "-", /dev/null, /dev/stdout, a FIFO, a terminal) is
 * never replaced: the bytes are staged in a file under $TMPDIR and copied
 * into the target, opened as it is, at commit.  Staging keeps outfile_keep
 * working and keeps a reader from seeing a trace that is then abandoned.
 *
 * A directory, a name ending in '/', a missing or closed directory fail at
 * open, which the tool does before it starts tracing.  Errors are sticky:
 * after the first failure every call is a no-op and commit reports it, with
 * the reason in outfile_errtext ("No space left on device", ...).
 * Temporary files are on the tmpfiles list until committed or freed.
 *
 * outfile_keep() rewrites the tail in place, which is how the circular
 * buffer repair drops (or, in catapult's odd corner case, repeats) a range
 * of an already written trace without holding the trace in memory.
 */
#ifndef SYSTRACE_OUTFILE_H
#define SYSTRACE_OUTFILE_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "error.h"

struct outfile;

/* Commit under the first free name of PATH, PATH-1.EXT, PATH-2.EXT ...
 * instead of replacing PATH (raw dumps kept after a failure). */
#define OUTFILE_NOREPLACE 1
/* A failed write (a full disk) does not stop outfile_commit: what reached
 * the file is kept, since placing it is a rename that needs no space (a
 * raw spool: every byte that arrived is worth keeping; never for a page,
 * which would be half-written).  Only for a file target. */
#define OUTFILE_KEEP_WRITTEN 2

/* Create the temporary file for PATH ("-": stdout).  On failure *out is
 * still set so the caller can read the error text.  PATH NULL: no file at
 * all, the bytes are counted and dropped (a conversion read only through
 * a writer's tees, as --rows' summaries are); outfile_path is then NULL. */
enum st_err outfile_open(const char *path, struct outfile **out);
enum st_err outfile_open_flags(const char *path, int flags, struct outfile **out);
enum st_err outfile_write(struct outfile *o, const void *p, size_t n);
uint64_t outfile_tell(const struct outfile *o);
/* Wait until every byte written so far is in the temporary file, so it
 * can be read back (a --stream spool converted at the end). */
enum st_err outfile_flush(struct outfile *o);

/* The temporary file as a stdio stream, for printers written against
 * FILE; not to be mixed with outfile_write.  The caller closes it
 * (fclose) before outfile_commit.  NULL with errno. */
FILE *outfile_stdio(struct outfile *o);

/* Make the contents [0, a) followed by [b, end).  b > a drops a range;
 * b < a repeats [b, a).  Both offsets must be <= tell. */
enum st_err outfile_keep(struct outfile *o, uint64_t a, uint64_t b);

/* Overwrite [off, off + n) of what was written (off + n <= tell): room
 * left earlier for a part known only at the end (tracewriter's holes). */
enum st_err outfile_pwrite(struct outfile *o, uint64_t off, const void *p, size_t n);

/* Make room: n bytes of undefined content appear at `at` (<= tell), what
 * followed moves up by n and tell grows by n. */
enum st_err outfile_insert(struct outfile *o, uint64_t at, uint64_t n);

/* Flush, close and rename (or copy) into place.  With OUTFILE_KEEP_WRITTEN
 * after a failed write: ST_OK once what was written is in place,
 * outfile_tell then says how much that is and outfile_error still gives
 * the write's error. */
enum st_err outfile_commit(struct outfile *o);
/* Free; removes the temporary file unless committed.  NULL is a no-op. */
void outfile_free(struct outfile *o);

/* Would PATH open?  0, or -1 with outfile_errtext's text in err.  For
 * outputs created only later (a raw dump after a failure), checked before
 * tracing starts. */
int outfile_check(const char *path, int flags, char *err, size_t errlen);

/* errno-style text for the last failure. */
const char *outfile_errtext(const struct outfile *o);
/* The error, or ST_OK. */
enum st_err outfile_error(const struct outfile *o);
/* The path as named; after a NOREPLACE commit, the name it got. */
const char *outfile_path(const struct outfile *o);
/* The temporary file's name (NULL once committed). */
const char *outfile_tmppath(const struct outfile *o);

#endif
