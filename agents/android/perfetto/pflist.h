/*
 * `systrace --perfetto -l`: the categories a --perfetto capture records on
 * the device.  Without adb root atrace hides its root-only kernel
 * categories (irq, disk, ...), yet Perfetto records their ftrace events
 * through traced_probes, which needs no root (perfetto-recording.md §2):
 * those are listed too, after atrace's lines and marked, so a user on a
 * user build sees what --perfetto can record.  With root, or below SDK 28
 * (no perfetto), the listing is atrace's, as `systrace -l` prints it.
 */
#ifndef SYSTRACE_PFLIST_H
#define SYSTRACE_PFLIST_H

#include "agents/capture.h"
#include "lib/error.h"

enum st_err perfetto_list_categories(struct capture *c);

#endif
