/*
 * Streaming decoder for atrace dumps (catapult-systrace.md §4 steps 1-3):
 * finds the `TRACE:` marker, drops a leading `capturing trace...` notice,
 * undoes the line-ending damage of old adb (a dump starting with CR LF has
 * every CR LF turned into LF, one starting with CR CR LF every CR CR LF),
 * drops one newline, inflates when the text does not start with
 * `# tracer` (atrace -z), removes every CR and drops leading newlines.
 * The result is exactly what catapult's strip_and_decompress_trace returns,
 * produced chunk by chunk with bounded memory.
 *
 * DECODE_TEXT skips the marker search and the CR LF rules: plain ftrace text
 * only has its CRs removed and leading newlines dropped.
 */
#ifndef SYSTRACE_DECODE_H
#define SYSTRACE_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/sink.h"

enum decode_mode { DECODE_ATRACE, DECODE_TEXT };

struct decoder;

struct decoder *decoder_new(enum decode_mode mode, st_write_fn out, void *ctx);
void decoder_free(struct decoder *d);

enum st_err decoder_feed(struct decoder *d, const void *p, size_t n);
/* End of input.  ST_ETRUNCATED: the zlib stream ended early; everything
 * that decoded was written.  ST_ENOTRACE: no marker, or nothing after it. */
enum st_err decoder_finish(struct decoder *d);

/* Detail for the last error, e.g. "zlib: incorrect header check at
 * compressed byte 0" or what the device printed instead of a trace. */
const char *decoder_detail(const struct decoder *d);

int decoder_compressed(const struct decoder *d);
uint64_t decoder_bytes_in(const struct decoder *d);
uint64_t decoder_bytes_out(const struct decoder *d);

#endif
