/*
 * The writing side of pb.h: protobuf wire format appended to a dynbuf, for
 * the few messages systrace itself encodes (a TraceConfig for the device's
 * perfetto, agents/android/perfetto/pfconfig.c) and for the traces tests and the
 * simulator write.  Each call returns the dynbuf's error (ST_ETOOBIG past
 * its maximum, the buffer then holding what it held before that call).
 */
#ifndef SYSTRACE_PBW_H
#define SYSTRACE_PBW_H

#include <stddef.h>
#include <stdint.h>

#include "lib/dynbuf.h"

enum st_err pbw_varint(struct dynbuf *b, uint64_t v);
/* A varint field (int32/int64/uint32/uint64/bool/enum; zigzag is the
 * caller's, pb.h's pb_zigzag the other way). */
enum st_err pbw_uint(struct dynbuf *b, uint32_t num, uint64_t v);
/* A length-delimited field: bytes, a string, a packed array, a message. */
enum st_err pbw_bytes(struct dynbuf *b, uint32_t num, const void *p, size_t n);
enum st_err pbw_str(struct dynbuf *b, uint32_t num, const char *s);
/* SUB as field NUM of B; SUB is emptied for the next message. */
enum st_err pbw_msg(struct dynbuf *b, uint32_t num, struct dynbuf *sub);

#endif
