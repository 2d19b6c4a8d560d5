/*
 * Base64 (RFC 4648, standard alphabet, '=' padding): adb's public keys
 * and gitiles' ?format=TEXT bodies.
 */
#ifndef SYSTRACE_BASE64_H
#define SYSTRACE_BASE64_H

#include <stddef.h>

#include "dynbuf.h"
#include "error.h"

enum st_err b64_encode(const void *p, size_t n, struct dynbuf *out);
/* Decode, skipping blanks and line breaks; '=' only at the end.
 * ST_EFORMAT (detail in err, if given) for a byte that is not base64,
 * ST_ETRUNCATED when the text stops inside a group of four. */
enum st_err b64_decode(const char *in, size_t n, struct dynbuf *out, struct dynbuf *err);

#endif
