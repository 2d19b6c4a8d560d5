/*
 * Debug tracing by topic: SYSTRACE_DEBUG=adb,sync,atrace (or "all") turns
 * on per-module logging to stderr, including hex dumps of packets.  Off by
 * default; when off a disabled topic costs one bit test.  This is the only
 * output the adb library may produce, and only when the user asked for it.
 */
#ifndef SYSTRACE_DEBUG_H
#define SYSTRACE_DEBUG_H

#include "printf.h"
#include <stddef.h>

enum st_dbg_topic {
    DBG_ADB = 1u << 0,      /* smart socket, transports, services */
    DBG_WIRE = 1u << 1,     /* ADB wire packets (hex dumps) */
    DBG_SYNC = 1u << 2,
    DBG_ATRACE = 1u << 3,   /* agents talking to the device */
    DBG_DECODE = 1u << 4,   /* trace decoding and repair */
    DBG_SIM = 1u << 5,      /* the device simulator */
    DBG_USB = 1u << 6,
    DBG_AUTH = 1u << 7,     /* never logs key material, only steps */
    DBG_FTRACE = 1u << 8,
    DBG_METHOD = 1u << 9,
};

extern unsigned st_debug_mask;

/* Parse $SYSTRACE_DEBUG once; cheap to call again. */
void st_debug_init(void);

void st_debug_log(enum st_dbg_topic t, const char *fmt, ...)
    ST_PRINTF(2, 3);
void st_debug_hex(enum st_dbg_topic t, const char *what, const void *p, size_t n);

#define ST_DBG(topic, ...)                                                  \
    do {                                                                    \
        if (st_debug_mask & (topic))                                        \
            st_debug_log((topic), __VA_ARGS__);                             \
    } while (0)

#endif
