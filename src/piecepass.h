/*
 * Pieces of ftrace text in one pass (issue 35): `--from-file` of atrace
 * output or ftrace text with --time-range (not slice:) and/or --split,
 * every process.  The cutter (formats/piece/pcut.h pcut_new_pieces) sits
 * in front of a writer without a file and asks for each piece's page as
 * its first event comes; a piece is complete when the next begins and is
 * renamed into place then (on the tmpfiles list until the run ends, so
 * an interrupted or failed split leaves none).  A circular-buffer cut
 * found late removes the pieces written and starts them again.  Other
 * inputs take the two passes of piececut.h.
 */
#ifndef SYSTRACE_PIECEPASS_H
#define SYSTRACE_PIECEPASS_H

#include <stdint.h>

#include "formats/html/viewer.h"
#include "options.h"

/* Can the input be cut in one pass?  (A regular file: if it turns out
 * not to be ftrace text, it is read again the other way.) */
int piecepass_fits(const struct st_options *o);

/* The pieces into out (-o, its name picked); an exit code, or -1 with
 * nothing said nor written: not ftrace text.  sigfd: sig_install's, to
 * serve the piece with --open=perfetto. */
int piecepass_run(const struct st_options *o, const struct viewer *v, const char *out,
                  int sigfd);

/* "Wrote trace HTML file: LINK (1.000..2.000 s, ts:1001.000000..1002.000000)" */
void piece_report(const struct st_options *o, const char *path, int64_t lo, int64_t hi,
                  int64_t first);
/* "WHAT: the piece holds no events (a..b s from the trace's start)" */
void piece_no_events(const struct st_options *o, const char *what, int64_t lo, int64_t hi,
                     int64_t first, int64_t last);

#endif
