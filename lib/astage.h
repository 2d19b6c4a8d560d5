/*
 * A write stage on a thread of its own: the bytes written are copied into
 * one of a few fixed buffers, which a thread hands on, in order, to the
 * next stage.  So a producer (zlib inflate) and the stages after it
 * (normalise, repair, escape) use two cores instead of taking turns on one.
 *
 * The next stage's first error comes back from a later astage_write, or
 * from astage_finish; bytes after it are dropped.  Memory: ASTAGE_NBUF
 * buffers of ASTAGE_BUF bytes.  The thread runs with signals blocked (the
 * main thread handles them).
 */
#ifndef SYSTRACE_ASTAGE_H
#define SYSTRACE_ASTAGE_H

#include <stddef.h>

#include "error.h"
#include "sink.h"

#define ASTAGE_BUF (1024u << 10)
#define ASTAGE_NBUF 4
#define ASTAGE_INLINE_BUF (64u << 10)

struct astage;

/* Stages made from now on by the calling thread run on it, inline: the
 * bytes gathered in one ASTAGE_INLINE_BUF buffer and handed on when it is
 * full, at drain and at finish.  For a thread that is itself one of
 * several workers (--rows), where a thread per stage would only add
 * switches and memory.  Per thread: other threads keep their stages. */
void astage_inline_here(int on);

/* NULL when out of memory or no thread could be started. */
struct astage *astage_new(st_write_fn out, void *ctx);
/* The same with buffers of `size` bytes (ASTAGE_BUF above): for a stage
 * of a conversion that has several, whose peak memory is bounded. */
struct astage *astage_new_sized(st_write_fn out, void *ctx, size_t size);
/* An st_write_fn: ctx is the struct astage. */
enum st_err astage_write(void *ctx, const void *p, size_t n);
/* Hand on what is held and wait until the next stage has taken all of it
 * (the thread goes on); the first error of the next stage, if any. */
enum st_err astage_drain(struct astage *a);
/* astage_drain, then stop the thread. */
enum st_err astage_finish(struct astage *a);
/* Finishes first if that was not done.  NULL is a no-op. */
void astage_free(struct astage *a);

#endif
