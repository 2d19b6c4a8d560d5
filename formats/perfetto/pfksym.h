/*
 * Kernel symbols a recorder interned (`symbolize_ksyms`): a packet's
 * InternedData.kernel_symbols (field 26) maps an iid to a function name,
 * and ftrace fields that hold a kernel function (workqueue, blocked
 * reason, hrtimer, ...) then carry the iid; Perfetto prints the name, and
 * so does pfevent.h through pfksym_lookup.  Interned data is scoped to a
 * packet sequence in the format; traced_probes writes kernel symbols on
 * one sequence only, so the map here is global, last definition winning.
 * Bounded: PFKSYM_MAX entries and PFKSYM_BYTES of names; past that, new
 * symbols are not kept (their fields print as numbers).
 */
#ifndef SYSTRACE_PFKSYM_H
#define SYSTRACE_PFKSYM_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"

#define PFKSYM_MAX ((size_t)1 << 18)
#define PFKSYM_BYTES ((size_t)8 << 20)

struct pfksym;

struct pfksym *pfksym_new(void);
void pfksym_free(struct pfksym *k);

/* An InternedData message: its kernel_symbols.  ST_EFORMAT if malformed. */
enum st_err pfksym_interned(struct pfksym *k, const uint8_t *p, size_t n);

/* The name of iid, or NULL; *len its length.  (pfevent_ctx.ksym) */
const char *pfksym_lookup(void *k, uint64_t iid, size_t *len);

#endif
