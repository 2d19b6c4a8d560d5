/* One round trip that learns what the agents need to know about the
 * device: SDK level, where tracefs is, whether adbd runs as root. */
#ifndef SYSTRACE_PROBE_H
#define SYSTRACE_PROBE_H

#include "agents/android/atrace_cmd.h"
#include "agents/capture.h"
#include "lib/error.h"

enum st_err device_probe(struct capture *c);

/* `systrace -l`: the device's categories, printed as atrace lists them
 * (rs dropped below SDK 23), then the root note; through c->ui.note. */
enum st_err device_list_categories(struct capture *c);

/* The listing alone, without the note; the names listed into *listed
 * (free with atrace_cats_free) when it is not NULL. */
enum st_err device_print_categories(struct capture *c, struct atrace_cats *listed);

#endif
