/*
 * Fetching the file a --perfetto session wrote on the device into the
 * kept .perfetto-trace (perfetto-recording.md §1-2): a sync pull, then
 * `cat FILE` over the dump channel (shell v2: binary-clean, with its exit
 * status) where the pull fails, as adbd before Android 10 may not read
 * /data/misc/perfetto-traces.  A link that drops during either is waited
 * out once (devcmd.h, --timeout) and that way tried again; every try
 * starts the output over from byte 0, so what is kept is one whole copy.
 */
#ifndef SYSTRACE_PFFETCH_H
#define SYSTRACE_PFFETCH_H

#include <stddef.h>
#include <stdint.h>

#include "agents/capture.h"
#include "lib/error.h"

struct outfile;

/* path: the device's file (our own name, quoted for cat).  On failure why
 * names each way tried and how it failed ("adb pull: ...; cat: ..."); a
 * failed write of o stops at once (outfile_error says which). */
enum st_err pffetch(struct capture *c, const char *path, struct outfile *o, char *why,
                    size_t n);

/* The same, with every chunk also shown to tap at its offset in the file
 * (a try that starts over shows the file from offset 0 again). */
typedef void (*pffetch_tap_fn)(void *ctx, uint64_t off, const void *p, size_t n);
enum st_err pffetch_tap(struct capture *c, const char *path, struct outfile *o,
                        pffetch_tap_fn tap, void *tap_ctx, char *why, size_t n);

#endif
