/*
 * A --perfetto recording read while the device writes it.  The session
 * writes its file a piece at a time (write_into_file, every
 * PFCONFIG_WRITE_PERIOD_MS), and one device command,
 *
 *   tail -c +1 -f FILE 2>/dev/null
 *
 * over the binary-clean dump channel hands the host each piece as it
 * lands.  A reader thread copies it into the kept .perfetto-trace and
 * pushes it through --from-file's converter into the page (ff_push with
 * FF_PUSH_HOLE: the process dump goes into room kept in front of the
 * text), so when the session ends only its last piece is left to fetch
 * and convert, however long it recorded.
 *
 * The file only ever grows, so what tail gave is a prefix of it.  Once
 * the session is gone the file's size (sync stat) says when everything
 * has arrived.  Where tail could not follow (a toybox without -f, a
 * dropped link, a stat adbd refuses before Android 10) the file is
 * fetched whole as before (pffetch.h) and the bytes past those already
 * converted go on into the same conversion: the result is the same.
 *
 * The thread takes the device (capture.dev_lock) for one short read at a
 * time; nothing else writes into the page until pflive_convert_end.
 */
#ifndef SYSTRACE_PFLIVE_H
#define SYSTRACE_PFLIVE_H

#include <stddef.h>

#include "agents/capture.h"
#include "formats/input/fromfile.h"
#include "formats/html/tracewriter.h"
#include "lib/error.h"

struct outfile;
struct pflive;

/* Follow the device's file path (the session has just started) into
 * c->raw_path and w.  On failure nothing runs, c->err is left alone and
 * the caller fetches and converts at the end as before. */
enum st_err pflive_start(struct capture *c, const char *path, struct tracewriter *w,
                         struct pflive **out);

/* The session is gone: every byte of its file into the kept trace and the
 * conversion, what tail did not deliver fetched (pffetch.h; why as
 * there).  The kept trace is not committed yet: pflive_outfile. */
enum st_err pflive_fetch(struct pflive *l, char *why, size_t n);
struct outfile *pflive_outfile(struct pflive *l);

/* 1 once the conversion refused what the device sent (a malformed
 * trace, a page that cannot be written): recording on is of no use. */
int pflive_conversion_failed(struct pflive *l);

/* End the conversion (ff_push_finish: its codes and res). */
enum st_err pflive_convert_end(struct pflive *l, struct ff_result *res);

/* Stops the thread and the device's tail; an uncommitted kept trace is
 * removed.  NULL is a no-op. */
void pflive_free(struct pflive *l);

#endif
