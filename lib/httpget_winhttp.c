/*
 * lib/httpget.h on Windows: not done yet (WinHTTP is the plan); says so.
 */
#include "httpget.h"

enum st_err http_get(const char *url, long timeout_s, struct dynbuf *body, struct dynbuf *err)
{
    (void)url;
    (void)timeout_s;
    (void)body;
    dynbuf_printf(err, "downloading is not available in the Windows build yet; copy "
                       "systrace_trace_viewer.html and webcomponents.min.js into "
                       "%%LOCALAPPDATA%%\\systrace yourself");
    return ST_EUNSUPPORTED;
}
