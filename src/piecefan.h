/*
 * Several pieces of a --split cut in one read of the whole result
 * (piececut.h): a filter on a writer to nowhere hands each part to every
 * piece's cutter (formats/piece/pcut.h), each writing into the piece's own
 * page writer.  PIECEFAN_MAX pieces at a time bound the writers open at
 * once (each has its own output stage and buffers).
 */
#ifndef SYSTRACE_PIECEFAN_H
#define SYSTRACE_PIECEFAN_H

#include <stddef.h>
#include <stdint.h>

#include "formats/html/tracewriter.h"
#include "formats/input/fromfile.h"
#include "formats/piece/pcut.h"

#define PIECEFAN_MAX 8

struct piece_out {
    struct piece_window win;        /* set by the caller */
    struct tracewriter *w;          /* open, set by the caller */
    struct pcut *c;
    int taking;                     /* the cutter takes the current part */
    uint64_t kept;                  /* events kept, after the run */
};

/* Reads path (systrace's own result: FF_NO_CUT) once into every piece;
 * the conversion's error (res.detail says what), or a piece's write error
 * (tw_error of its writer). */
enum st_err piecefan_run(const char *path, struct piece_out *p, size_t n,
                         struct ff_result *res);

#endif
