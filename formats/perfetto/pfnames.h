/*
 * Thread and process names of a Perfetto trace, as Perfetto's trace
 * processor keeps them: a thread's name comes from sched_switch comms,
 * task_newtask/task_rename and compact sched's intern table (priority
 * PFN_FTRACE) or from ProcessTree (PFN_PTREE, which ftrace names never
 * override); a process has its cmdline.  Bounded: at most PFN_THREADS
 * threads (names up to 31 bytes: comms are 15) and PFN_PROCS processes
 * with PFN_CMDLINES bytes of command lines; past that, new ones are not
 * remembered (their lines say <unknown>, as Perfetto does for threads it
 * cannot name) and pfnames_dropped() counts them.
 *
 * The process dump is written in the toybox `ps` form the live capture
 * writes (agents/android/procdump.c), so both viewers name each process
 * by its cmdline and attach threads to it.
 */
#ifndef SYSTRACE_PFNAMES_H
#define SYSTRACE_PFNAMES_H

#include <stddef.h>
#include <stdint.h>
#include "lib/error.h"
#include "lib/sink.h"

#define PFN_THREADS ((size_t)1 << 18)
#define PFN_PROCS ((size_t)1 << 17)
#define PFN_CMDLINES ((size_t)8 << 20)
#define PFN_NAME 32
#define PFN_PROBE_MAX 64    /* slots a lookup visits at most */

/* PFN_FIXED: the idle task is "swapper" whatever the comms say, as in
 * Perfetto's thread table. */
enum { PFN_FTRACE = 1, PFN_PTREE = 2, PFN_FIXED = 3 };

struct pfnames;

struct pfnames *pfnames_new(void);
void pfnames_free(struct pfnames *n);

/* Name a thread (kept unless a higher-priority name is there). */
void pfnames_thread(struct pfnames *n, uint32_t tid, const char *name, size_t len, int prio);
/* A thread starts (task_newtask): forget what was known of the tid. */
void pfnames_new_thread(struct pfnames *n, uint32_t tid, const char *name, size_t len,
                        uint32_t tgid);
void pfnames_set_tgid(struct pfnames *n, uint32_t tid, uint32_t tgid);
/* "" when unknown; valid until the next change. */
const char *pfnames_name(const struct pfnames *n, uint32_t tid);
uint32_t pfnames_tgid(const struct pfnames *n, uint32_t tid);
/* Changes with every change of a thread's name or tgid: what was read
 * of them still holds while it stays. */
uint64_t pfnames_gen(const struct pfnames *n);

/* A process seen start (task_newtask without CLONE_THREAD): named by its
 * main thread's name in the dump until a process tree gives its cmdline. */
void pfnames_process(struct pfnames *n, uint32_t pid, uint32_t ppid);

/* A ProcessTree message: its processes (cmdline, ppid, tgid of the main
 * thread) and threads (name, tgid).  ST_EFORMAT if malformed. */
enum st_err pfnames_tree(struct pfnames *n, const uint8_t *p, size_t len);

/* "PROCESS DUMP\n" and the two ps tables; ST_ENOTRACE when no process is
 * known (no part to write). */
enum st_err pfnames_dump(const struct pfnames *n, st_write_fn write, void *ctx);
size_t pfnames_processes(const struct pfnames *n);
uint64_t pfnames_dropped(const struct pfnames *n);
/* Slots the longest insertion so far visited (at most PFN_PROBE_MAX; a
 * lookup visits no more than its insertion did). */
size_t pfnames_longest_probe(const struct pfnames *n);

#endif
