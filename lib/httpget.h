/*
 * One HTTP(S) GET, for --update-viewer: libcurl on Linux and macOS
 * (httpget_curl.c), WinHTTP on Windows (httpget_winhttp.c).  Redirects
 * are followed (at most 5), http:// and https:// only, and the body
 * grows body up to its maximum (larger is an error, never a cut).
 */
#ifndef SYSTRACE_HTTPGET_H
#define SYSTRACE_HTTPGET_H

#include "dynbuf.h"
#include "error.h"

/* timeout_s (<= 0: 30 s to connect, 60 s without data) bounds connecting
 * and each stall.  On failure one line in err in the user's terms:
 * ST_ETIMEOUT, ST_ETRUNCATED (cut short), ST_EFAIL (an HTTP error
 * status), ST_EUNSUPPORTED (libcurl not installed), ST_ECONNECT
 * (anything else). */
enum st_err http_get(const char *url, long timeout_s, struct dynbuf *body,
                     struct dynbuf *err);

#endif
