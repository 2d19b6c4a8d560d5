/*
 * An output file that is never seen half-written: bytes go to a temporary
 * file beside the target (same directory, so rename is atomic) and the
 * target appears only on outfile_commit().  Errors are sticky: after the
 * first failed write every call is a no-op and commit reports the error.
 *
 * outfile_keep() rewrites the tail in place, which is how the circular
 * buffer repair drops (or, in catapult's odd corner case, repeats) a range
 * of an already written trace without holding the trace in memory.
 */
#ifndef SYSTRACE_OUTFILE_H
#define SYSTRACE_OUTFILE_H

#include <stdint.h>
#include <stddef.h>
#include "error.h"

struct outfile;

/* Create the temporary file for PATH ("-": stdout, no keep support).
 * On failure *out is still set so the caller can read the error text. */
enum st_err outfile_open(const char *path, struct outfile **out);
enum st_err outfile_write(struct outfile *o, const void *p, size_t n);
uint64_t outfile_tell(const struct outfile *o);

/* Make the contents [0, a) followed by [b, end).  b > a drops a range;
 * b < a repeats [b, a).  Both offsets must be <= tell. */
enum st_err outfile_keep(struct outfile *o, uint64_t a, uint64_t b);

/* Flush, close and rename into place. */
enum st_err outfile_commit(struct outfile *o);
/* Free; removes the temporary file unless committed.  NULL is a no-op. */
void outfile_free(struct outfile *o);

/* errno-style text for the last failure. */
const char *outfile_errtext(const struct outfile *o);
const char *outfile_path(const struct outfile *o);
/* The temporary file's name (NULL for stdout or once committed). */
const char *outfile_tmppath(const struct outfile *o);

#endif
