/*
 * The one error enum of the project, shared by the adb library, the agents
 * and the CLI.  Codes and their messages are generated from one list so the
 * two cannot drift.  Functions return an enum st_err (ST_OK == 0); the
 * object that failed keeps any detail text (a device's FAIL message, a byte
 * offset), the code only says what kind of failure it was.
 */
#ifndef SYSTRACE_ERROR_H
#define SYSTRACE_ERROR_H

#define ST_ERRORS(X)                                                        \
    X(ST_OK, "success")                                                     \
    X(ST_ENOMEM, "out of memory")                                           \
    X(ST_EIO, "input/output error")                                         \
    X(ST_EINVAL, "invalid argument")                                        \
    X(ST_ETOOBIG, "data exceeds the size limit")                            \
    X(ST_EFORMAT, "malformed data")                                         \
    X(ST_ETRUNCATED, "data is truncated")                                   \
    X(ST_EZLIB, "corrupt compressed data")                                  \
    X(ST_ENOTRACE, "no trace data found")                                   \
    X(ST_EUNKNOWN, "unknown format")                                        \
    X(ST_ENOENT, "not found")                                               \
    X(ST_EPROTO, "protocol error")                                          \
    X(ST_ECONNECT, "cannot connect")                                        \
    X(ST_ECLOSED, "connection closed")                                      \
    X(ST_ETIMEOUT, "timed out")                                             \
    X(ST_EFAIL, "request refused")                                          \
    X(ST_ENODEVICE, "no device")                                            \
    X(ST_EMULTIDEV, "more than one device")                                 \
    X(ST_EUNAUTH, "device unauthorized")                                    \
    X(ST_EOFFLINE, "device offline")                                        \
    X(ST_EDEVICE, "device command failed")                                  \
    X(ST_EPERM, "permission denied")                                        \
    X(ST_ENOSPC, "no space left on device")                                 \
    X(ST_EINTR, "interrupted")                                              \
    X(ST_ECHECKSUM, "checksum mismatch")                                    \
    X(ST_EUNSUPPORTED, "not supported")                                     \
    X(ST_EPIPE, "the reader went away")

enum st_err {
#define ST_ENUM_(name, msg) name,
    ST_ERRORS(ST_ENUM_)
#undef ST_ENUM_
    ST_ERR_COUNT
};

/* Message for a code; never NULL, also for out-of-range values. */
const char *st_strerror(enum st_err e);

/* Name of the code ("ST_EZLIB"), for tests and debug logs. */
const char *st_errname(enum st_err e);

#endif
