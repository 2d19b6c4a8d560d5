/*
 * Running commands on the device for the agents, with a known exit status
 * on every channel: shell v2 reports it; on older devices the command is
 * followed by `; echo <marker>$?` and the marker line is taken off the
 * output.  Also picks the binary-clean channel for large dumps.
 *
 * A dropped link (Wi-Fi, a loose cable, adbd restarting) is waited out:
 * when a command fails the way a lost connection fails, the device is
 * given until --timeout (default 30 s) to come back, as `adb
 * wait-for-device` would, and the command is run once more.  A device
 * that does not come back is remembered (capture.dev_gone), so later
 * commands fail at once instead of waiting again; so does one whose
 * command got no answer within --timeout (a hung adbd or device), so a
 * run ends about one --timeout after the hang rather than one per step.
 *
 * While a stream reader thread shares the device (capture.dev_lock),
 * every command and wait here takes the lock for its duration.
 */
#ifndef SYSTRACE_DEVCMD_H
#define SYSTRACE_DEVCMD_H

#include "adb/adb.h"
#include "agents/capture.h"

/* Run argv (quoted) or trusted script text; r->exit_code is the status
 * (ADB_EXIT_UNKNOWN only if the marker never came back).  Errors leave a
 * detail in c->err.  r is filled whatever happens (on an error too, with
 * what arrived): the caller always frees it with adb_result_free. */
enum st_err dev_run(struct capture *c, const char *const *argv, size_t max,
                    struct adb_result *r);
enum st_err dev_script(struct capture *c, const char *script, size_t max,
                       struct adb_result *r);

/* Channel for a dump: shell v2 if usable (binary-clean, stderr apart),
 * else exec: (Android 5+), else the legacy shell (a PTY: CR LF damage the
 * decoder repairs). */
enum adb_mode dev_dump_mode(const struct capture *c);

/* 1 if e is how a command fails when the connection to the device
 * dropped (closed, cut inside a frame, offline, no longer listed). */
int dev_link_lost(enum st_err e);

/* After a dropped link: say so in one warning line ("the connection to
 * the device dropped (why); waiting up to N s for it to come back" +
 * then), and wait.  ST_OK when it is back; else the error, with c->err
 * saying the device did not come back (and dev_gone set), or ST_EINTR. */
enum st_err dev_wait_back(struct capture *c, const char *why, const char *then);

/* How long dev_wait_back waits, in seconds. */
int dev_wait_s(const struct capture *c);

/* First line of text (at most 200 chars), for messages. */
void dev_first_line(const char *s, char *out, size_t n);

/* Append p to the text in buf (*n bytes so far, cap in all), cut to fit,
 * NUL-terminated: what a command said, kept for messages. */
void dev_keep_text(char *buf, size_t cap, size_t *n, const void *p, size_t len);

#endif
