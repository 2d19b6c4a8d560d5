/*
 * The PROCESS DUMP part of a systrace page (and of an atrace capture's
 * text): `ps` output in the two forms the process-dump agent collects and
 * Perfetto's systrace importer reads (perfetto-and-viewer.md):
 *   long form    USER PID PPID VSZ RSS WCHAN ADDR S NAME [...]   a process's name
 *   thread form  USER PID TID CMD...                             a thread's process and name
 * A header line (`USER PID ...`) says which form the lines after it have.
 * One line at a time, bounded, nothing copied: the summary and the
 * trace-event converter keep what they need of a row.
 */
#ifndef SYSTRACE_PSDUMP_H
#define SYSTRACE_PSDUMP_H

#include <stddef.h>
#include <stdint.h>

enum psdump_row_kind {
    PSDUMP_NONE,        /* a header, or a line that is no row */
    PSDUMP_PROCESS,     /* long form: pid and the process's name */
    PSDUMP_THREAD,      /* thread form: pid (its process), tid and name */
};

struct psdump {
    int form;           /* 0 before a header, else 1 long, 2 thread */
};

struct psdump_row {
    int64_t pid, tid;
    /* the name: the NAME column (long form); the rest of the line, blanks
     * and CR trimmed at its end (thread form: a thread name may hold
     * spaces), of which word_len bytes are its first word */
    const char *name;
    size_t name_len, word_len;
};

void psdump_init(struct psdump *d);
/* One line of the dump (without its LF). */
enum psdump_row_kind psdump_line(struct psdump *d, const char *p, size_t n,
                                 struct psdump_row *row);

#endif
