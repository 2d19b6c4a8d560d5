/*
 * Running commands on the device for the agents, with a known exit status
 * on every channel: shell v2 reports it; on older devices the command is
 * followed by `; echo <marker>$?` and the marker line is taken off the
 * output.  Also picks the binary-clean channel for large dumps.
 */
#ifndef SYSTRACE_DEVCMD_H
#define SYSTRACE_DEVCMD_H

#include "adb/adb.h"
#include "agents/capture.h"

/* Run argv (quoted) or trusted script text; r->exit_code is the status
 * (ADB_EXIT_UNKNOWN only if the marker never came back).  Errors leave a
 * detail in c->err. */
enum st_err dev_run(struct capture *c, const char *const *argv, size_t max,
                    struct adb_result *r);
enum st_err dev_script(struct capture *c, const char *script, size_t max,
                       struct adb_result *r);

/* Channel for a dump: shell v2 if usable (binary-clean, stderr apart),
 * else exec: (Android 5+), else the legacy shell (a PTY: CR LF damage the
 * decoder repairs). */
enum adb_mode dev_dump_mode(const struct capture *c);

/* First line of text (at most 200 chars), for messages. */
void dev_first_line(const char *s, char *out, size_t n);

#endif
