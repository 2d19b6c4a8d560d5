/*
 * Outside text (a device's answer, a file's first bytes) made safe to quote
 * in a message on the user's terminal: control characters are shown as
 * \xHH instead of being sent as they are, so an answer holding ESC [31m,
 * an OSC title sequence or a carriage return cannot recolour, retitle or
 * rewrite the terminal.  Escaped: bytes below 0x20 (a line end too, unless
 * asked to keep it), DEL, and the C1 controls (U+0080..U+009F, which UTF-8
 * writes as C2 80..C2 9F and some terminals obey).  Everything else,
 * UTF-8 included, is kept.
 */
#ifndef SYSTRACE_ESCTEXT_H
#define SYSTRACE_ESCTEXT_H

#include <stddef.h>

#define ESC_KEEP_NL 1   /* keep '\n' and '\t' (a message's own layout) */

/* Write s[0, len) escaped into out (n bytes, always NUL-terminated when
 * n > 0; cut at a whole escape when it does not fit).  Returns strlen(out). */
size_t esc_text(char *out, size_t n, const char *s, size_t len, int flags);

#endif
