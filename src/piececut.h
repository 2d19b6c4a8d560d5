/*
 * Pieces of a trace as pages (issue 35: --time-range, --process, --split
 * with HTML or JSON output).  A file of ftrace text cut by time, every
 * process, takes one pass (piecepass.h).  Otherwise two passes: the conversion
 * as always, into a temporary page without a viewer (a live capture: a
 * temporary JSON result) while the scan (formats/piece/
 * pscan.h) listens; then, once the window is known, that result is read
 * again through the cutter (pcut.h), a filter in front of the page
 * writer, so the tees (--trace-events, the summary) see the piece.  A
 * split reads the temporary result once per PIECEFAN_MAX pieces
 * (piecefan.h), each piece written through its own temporary file and
 * renamed when complete; if one fails the pieces already written are
 * removed again.
 */
#ifndef SYSTRACE_PIECECUT_H
#define SYSTRACE_PIECECUT_H

#include "options.h"

/* --from-file with a piece; an exit code (cli.h). */
int piece_from_file(const struct st_options *o);

/* Who a live piece came from, for its summary (strings may be NULL). */
struct piece_dev {
    const char *prefix;         /* before each summary line ("SERIAL: ") */
    const char *device;         /* the summary JSON's "device" */
    const char *model, *release;
    int show;                   /* print the summary's lines */
};

/* A capture's result written whole at tmp_json (TW_JSON) becomes the
 * piece at out (HTML or JSON as o asks), with the tees o asks for;
 * prints its errors; an exit code. */
/* reader_left: set when an output's reader went away (| head -c1). */
int piece_of_result(const struct st_options *o, const char *tmp_json, const char *out,
                    const struct piece_dev *dev, int *reader_left);

#endif
