/*
 * The command line of pieces (formats/piece/piece.h): --time-range,
 * --process, --process-and-deps and --split, parsed strictly (bounded,
 * no sscanf), each error one line naming the option and what is wrong.
 *
 *   --time-range=START..END     seconds from the trace's start (units:
 *                               ns us ms s min h; either end may be left out)
 *   --time-range=ts:START..END  the same in the trace's own clock
 *   --time-range=slice:NAME[#N][±D]   the Nth slice NAME (default the
 *                               first), D more each side ("+-" for "±")
 *   --process=NAME|PID,...      at most PIECE_PROCS_MAX
 *   --split=SIZE|DURATION       "256mb", "1g" / "10s", "500ms": a unit is
 *                               required ("m" alone is refused: MB or min?)
 */
#ifndef SYSTRACE_PIECEARG_H
#define SYSTRACE_PIECEARG_H

#include <stddef.h>
#include <stdint.h>

#include "formats/piece/piece.h"

/* Each returns 0, or -1 with one line in err. */
int piecearg_range(struct piece_spec *s, const char *arg, char *err, size_t errlen);
/* arg stays referenced (names point into it) and is cut at its commas. */
int piecearg_process(struct piece_spec *s, char *arg, const char *opt, char *err,
                     size_t errlen);
int piecearg_split(struct piece_spec *s, const char *arg, char *err, size_t errlen);

/* "1.5s", "200ms", "12" (seconds) -> ns; n bytes of p, nothing else. */
int piecearg_time_ns(const char *p, size_t n, int64_t *ns);

#endif
