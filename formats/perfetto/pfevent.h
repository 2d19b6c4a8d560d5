/*
 * The text of one Perfetto ftrace event after "NAME:", as Perfetto's own
 * to_ftrace (the code behind `traceconv systrace`) prints it: the
 * kernel-style formats Perfetto writes by hand (sched_switch with its
 * prev_state letters, sched_wakeup, print -> tracing_mark_write, binder,
 * workqueue, irq, i2c, ...) and " field=value" pairs for every other typed
 * event, in the order the fields sit in the message.
 *
 * The body starts with its own leading space, exactly as to_ftrace writes
 * it, so a caller prints "NAME:" then the body.  An event whose message is
 * empty has an empty body (to_ftrace prints nothing after the colon).
 *
 * Field names, numbers and types come from pfevent_table.c, generated from
 * Perfetto's perfetto_trace.proto (scripts/gen-pfevent-table).  Differences
 * from Perfetto are listed in pfevent.c's top comment.
 */
#ifndef SYSTRACE_PFEVENT_H
#define SYSTRACE_PFEVENT_H

#include <stddef.h>
#include <stdint.h>
#include "lib/dynbuf.h"

/* The kernel version decides sched_switch's prev_state letters and the
 * gfp_flags names.  Perfetto's to_ftrace at ec5d16b14b ignores the trace's
 * version and prints every trace with 4.4's layout (its importer's sched
 * table does use the version: 0x80 is "I" on 4.14+, to_ftrace prints "K").
 * Leave 0,0 for text byte-equal to to_ftrace; set it (pfevent_ctx_uname)
 * for the letters the kernel itself would print.  sched_* alone decides
 * prev_state: the trace reader sets only it, so that Perfetto (and the
 * classic viewer) reading the page give each CPU slice the end state
 * Perfetto's sched importer gives it reading the trace, while gfp_flags
 * stay to_ftrace's. */
struct pfevent_ctx {
    int kernel_major, kernel_minor;     /* SystemInfo.utsname; 0,0 unknown */
    int sched_major, sched_minor;       /* prev_state's layout; 0,0 unknown (4.4) */
    /* Optional (NULL: none): the kernel symbol interned under IID
     * (InternedData.kernel_symbols, field 26, of the event's packet
     * sequence), NULL if not known; *len its length.  Perfetto prints it
     * instead of the address in workqueue/blocked-reason/hrtimer fields. */
    const char *(*ksym)(void *arg, uint64_t iid, size_t *len);
    void *ksym_arg;
};

/* Sets the kernel version (kernel_* and sched_*) from SystemInfo.utsname's
 * sysname and release the way Perfetto does ("Linux", "5.10.43-android12-..."
 * -> 5,10); anything else leaves 0,0 (unknown, which Perfetto reads as 4.4). */
void pfevent_ctx_uname(struct pfevent_ctx *c, const char *sysname, size_t sysname_len,
                       const char *release, size_t release_len);

/* The event name to_ftrace prints for FtraceEvent field number ID
 * (4 -> "sched_switch", 3 (print) -> "tracing_mark_write"), NULL if the id
 * is not an event type (0-2, 5, removed numbers, generic 327: its name is in
 * the message, see pfevent_generic_name). */
const char *pfevent_name(uint32_t id);

/* FtraceEvent field number of GenericFtraceEvent. */
#define PFEVENT_GENERIC_ID 327u

/* Appends the body of event ID (message bytes MSG, LEN) to OUT.
 * ST_EFORMAT for malformed bytes, ST_EINVAL for an unknown ID, ST_ETOOBIG
 * when OUT is full; OUT may then hold part of the body (the caller cuts it
 * back to its old length). */
enum st_err pfevent_format(const struct pfevent_ctx *c, uint32_t id, const uint8_t *msg,
                           size_t len, struct dynbuf *out);

/* A GenericFtraceEvent's name (event_name, field 1): *name and *name_len point
 * into MSG ("" if absent).  ST_EFORMAT for malformed bytes. */
enum st_err pfevent_generic_name(const uint8_t *msg, size_t len, const char **name,
                                 size_t *name_len);

/* Switches and wakings rebuilt from compact sched, printed as Perfetto
 * prints them (the same as the full events).  Comms are NUL-terminated,
 * NULL prints as empty.  Types follow Perfetto's: pids are unsigned (a -1
 * in the trace prints as 4294967295), a compact waking's prio and
 * target_cpu are 16 bits. */
struct pf_switch {
    const char *prev_comm;
    uint32_t prev_pid;
    int32_t prev_prio;
    int64_t prev_state;
    const char *next_comm;
    uint32_t next_pid;
    int32_t next_prio;
};
enum st_err pfevent_sched_switch(const struct pfevent_ctx *c, const struct pf_switch *s,
                                 struct dynbuf *out);

struct pf_waking {
    const char *comm;
    uint32_t pid;
    uint16_t prio, target_cpu;
};
enum st_err pfevent_sched_waking(const struct pfevent_ctx *c, const struct pf_waking *w,
                                 struct dynbuf *out);

/* prev_state as sched_switch prints it ("R+", "S", "D|K", "?") for the
 * context's kernel version, into BUF (at least 4 bytes, as Perfetto's
 * 3-character limit). */
void pfevent_task_state(const struct pfevent_ctx *c, int64_t prev_state, char buf[4]);

/* The generated descriptor table (pfevent_table.c).  How a field's value is
 * kept follows Perfetto's importer: PFT_INT int32/int64/bool/enum (signed
 * 64-bit), PFT_UINT uint32/uint64, PFT_SINT zigzag, PFT_STR string/bytes,
 * PFT_MSG a nested message (not printed). */
enum { PFT_INT, PFT_UINT, PFT_SINT, PFT_STR, PFT_MSG, PFT_KIND = 0x0f, PFT_REPEATED = 0x10 };
struct pfevent_field {
    uint8_t num, type;
    uint16_t name;          /* pfevent_str offset */
};
struct pfevent_desc {
    uint16_t name;          /* pfevent_str offset, the descriptor's event name */
    uint16_t first, nfields;
};
const struct pfevent_desc *pfevent_desc(uint32_t id);     /* NULL: no such event */
const struct pfevent_field *pfevent_fields(const struct pfevent_desc *d);
const char *pfevent_str(uint32_t off);

#endif
