/*
 * Kernel symbols a recorder interned (`symbolize_ksyms`): a packet's
 * InternedData.kernel_symbols (field 26) maps an iid to a function name,
 * and ftrace fields that hold a kernel function (workqueue, blocked
 * reason, hrtimer, ...) then carry the iid; Perfetto prints the name, and
 * so does pfevent.h through pfksym_lookup.  Interned data is scoped, as
 * Perfetto scopes it, to a packet sequence (trusted_packet_sequence_id)
 * until that sequence clears its incremental state
 * (incremental_state_cleared, or SEQ_INCREMENTAL_STATE_CLEARED in
 * sequence_flags): each such span is a scope, and an event reads the
 * symbols of its packet's scope only.  Entries of an ended scope stay
 * (events of it may still wait in the sort).  Bounded: PFKSYM_MAX
 * entries, PFKSYM_BYTES of names and PFKSYM_SEQS sequences; past that,
 * new symbols are not kept (their fields print as numbers).
 */
#ifndef SYSTRACE_PFKSYM_H
#define SYSTRACE_PFKSYM_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"

#define PFKSYM_MAX ((size_t)1 << 18)
#define PFKSYM_BYTES ((size_t)8 << 20)
#define PFKSYM_SEQS 256

struct pfksym;

struct pfksym *pfksym_new(void);
void pfksym_free(struct pfksym *k);

/* The scope of a packet of sequence seq (0: none, past PFKSYM_SEQS);
 * cleared: the packet clears the sequence's incremental state, so its
 * interned data and events start a new scope. */
uint32_t pfksym_scope(struct pfksym *k, uint32_t seq, int cleared);
/* An InternedData message of a scope: its kernel_symbols.  ST_EFORMAT if
 * malformed. */
enum st_err pfksym_interned(struct pfksym *k, uint32_t scope, const uint8_t *p, size_t n);
/* Does an InternedData message hold kernel symbols (a reader that formats
 * on another thread waits for it before pfksym_interned changes them)? */
int pfksym_has_symbols(const uint8_t *p, size_t n);
/* The scope pfksym_lookup reads: the event's, before it is formatted. */
void pfksym_use(struct pfksym *k, uint32_t scope);

/* The name of iid, or NULL; *len its length.  (pfevent_ctx.ksym) */
const char *pfksym_lookup(void *k, uint64_t iid, size_t *len);

#endif
