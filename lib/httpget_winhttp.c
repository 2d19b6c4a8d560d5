/*
 * lib/httpget.h on WinHTTP (Windows): what httpget_curl.c does on Linux.
 * http:// and https:// only (TLS and its certificates are Windows'),
 * redirects followed (WinHTTP's own, at most 5, never https to http), the
 * proxy from $http_proxy / $https_proxy / $all_proxy as curl takes them
 * (httpenv.h) or else the system's WinHTTP proxy setting, a stall of
 * `timeout` seconds an error (WinHTTP's receive timeout), and a body
 * shorter than its Content-Length a partial download, not a success.
 * Messages are the curl build's where the failure is the same.
 */
#include "httpget.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <winhttp.h>

#include "httpenv.h"
#include "plat_win.h"

struct get {
    const char *url;
    long timeout_s;
    const char *proxy, *proxy_var;
    int no_proxy;           /* $no_proxy names the host */
    HINTERNET session, conn, req;
    DWORD status;
    long long want, got;    /* Content-Length (-1: none), bytes read */
};

/* WinHTTP's own text for an error code (its messages live in winhttp.dll). */
static void system_text(DWORD code, char *buf, size_t n)
{
    DWORD len = FormatMessageA(FORMAT_MESSAGE_FROM_HMODULE | FORMAT_MESSAGE_IGNORE_INSERTS,
                               GetModuleHandleA("winhttp.dll"), code, 0, buf, (DWORD)n, NULL);
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == '.'))
        len--;
    if (!len)
        snprintf(buf, n, "WinHTTP error %lu", (unsigned long)code);
    else
        buf[len] = '\0';
}

static enum st_err explain(const struct get *g, DWORD code, size_t max, struct dynbuf *err)
{
    char host[256], text[256];
    http_host_of(g->url, host, sizeof host);
    system_text(code, text, sizeof text);
    switch (code) {
    case ERROR_WINHTTP_NAME_NOT_RESOLVED:
        if (g->proxy)
            dynbuf_printf(err, "cannot resolve the proxy %s (from $%s)", g->proxy, g->proxy_var);
        else
            dynbuf_printf(err, "cannot resolve %s: no network or no DNS?", host);
        return ST_ECONNECT;
    case ERROR_WINHTTP_CANNOT_CONNECT:
        if (g->proxy)
            dynbuf_printf(err, "cannot connect to the proxy %s (from $%s): %s", g->proxy,
                          g->proxy_var, text);
        else
            dynbuf_printf(err, "cannot connect to %s: %s (no network?)", host, text);
        return ST_ECONNECT;
    case ERROR_WINHTTP_TIMEOUT:
    case WSAETIMEDOUT:      /* Wine's WinHTTP passes the socket's error on */
        dynbuf_printf(err, "timed out: no data for %ld s; --timeout=S waits longer",
                      g->timeout_s > 0 ? g->timeout_s : 60L);
        return ST_ETIMEOUT;
    case ERROR_NOT_ENOUGH_MEMORY:
        dynbuf_printf(err, "the response is larger than %zu bytes: not the expected file", max);
        return ST_ECONNECT;
    case ERROR_WINHTTP_UNRECOGNIZED_SCHEME:
    case ERROR_WINHTTP_INVALID_URL:
        dynbuf_printf(err, "unsupported URL (http:// and https:// only)");
        return ST_ECONNECT;
    default:
        if (g->want >= 0 && g->got < g->want) {
            dynbuf_printf(err, "the transfer stopped after %lld of %lld bytes (partial "
                               "download)", g->got, g->want);
            return ST_ETRUNCATED;
        }
        dynbuf_printf(err, "%s", text);
        if (g->proxy)
            dynbuf_printf(err, " (through the proxy %s from $%s)", g->proxy, g->proxy_var);
        return ST_ECONNECT;
    }
}

/* WinHTTP names a proxy HOST:PORT; Wine's cannot take a scheme before it. */
static wchar_t *proxy_name(const char *proxy)
{
    char buf[512];
    if (!strncmp(proxy, "http://", 7))
        proxy += 7;
    snprintf(buf, sizeof buf, "%.*s", (int)strcspn(proxy, "/"), proxy);
    return win_wide(buf);
}

/* The environment's proxy; none when $no_proxy says so (Wine's default
 * would take $http_proxy regardless); else the system's setting. */
static DWORD access_type(const struct get *g)
{
    return g->proxy ? WINHTTP_ACCESS_TYPE_NAMED_PROXY
           : g->no_proxy ? WINHTTP_ACCESS_TYPE_NO_PROXY : WINHTTP_ACCESS_TYPE_DEFAULT_PROXY;
}

/* The session (proxy, timeouts) and the request, sent; headers received. */
static int send_request(struct get *g)
{
    wchar_t *wurl = win_wide(g->url), *wproxy = g->proxy ? proxy_name(g->proxy) : NULL;
    URL_COMPONENTS uc = {.dwStructSize = sizeof uc, .dwHostNameLength = (DWORD)-1,
                         .dwUrlPathLength = (DWORD)-1, .dwExtraInfoLength = (DWORD)-1};
    int ok = wurl && (!g->proxy || wproxy) && WinHttpCrackUrl(wurl, 0, 0, &uc);
    wchar_t *host = NULL;
    if (ok && (host = calloc(uc.dwHostNameLength + 1, sizeof *host)))
        memcpy(host, uc.lpszHostName, uc.dwHostNameLength * sizeof *host);
    DWORD connect_ms = (DWORD)(g->timeout_s > 0 ? g->timeout_s : 30) * 1000;
    DWORD stall_ms = (DWORD)(g->timeout_s > 0 ? g->timeout_s : 60) * 1000, redirects = 5;
    ok = ok && host &&
         (g->session = WinHttpOpen(L"systrace", access_type(g),
                                   g->proxy ? wproxy : WINHTTP_NO_PROXY_NAME,
                                   WINHTTP_NO_PROXY_BYPASS, 0)) &&
         WinHttpSetTimeouts(g->session, (int)connect_ms, (int)connect_ms, (int)stall_ms,
                            (int)stall_ms) &&
         (g->conn = WinHttpConnect(g->session, host, uc.nPort, 0)) &&
         (g->req = WinHttpOpenRequest(g->conn, L"GET", uc.lpszUrlPath, NULL,
                                      WINHTTP_NO_REFERER, WINHTTP_DEFAULT_ACCEPT_TYPES,
                                      uc.nScheme == INTERNET_SCHEME_HTTPS ? WINHTTP_FLAG_SECURE
                                                                          : 0));
    if (ok)     /* not every WinHTTP has it; its default is larger, not unbounded */
        WinHttpSetOption(g->req, WINHTTP_OPTION_MAX_HTTP_AUTOMATIC_REDIRECTS, &redirects,
                         sizeof redirects);
    ok = ok && WinHttpSendRequest(g->req, WINHTTP_NO_ADDITIONAL_HEADERS, 0,
                                  WINHTTP_NO_REQUEST_DATA, 0, 0, 0) &&
         WinHttpReceiveResponse(g->req, NULL);
    free(host);
    free(wurl);
    free(wproxy);
    return ok;
}

static void read_headers(struct get *g)
{
    DWORD v = 0, len = sizeof v;
    if (WinHttpQueryHeaders(g->req, WINHTTP_QUERY_STATUS_CODE | WINHTTP_QUERY_FLAG_NUMBER,
                            WINHTTP_HEADER_NAME_BY_INDEX, &v, &len, WINHTTP_NO_HEADER_INDEX))
        g->status = v;
    len = sizeof v;
    g->want = -1;
    if (WinHttpQueryHeaders(g->req, WINHTTP_QUERY_CONTENT_LENGTH | WINHTTP_QUERY_FLAG_NUMBER,
                            WINHTTP_HEADER_NAME_BY_INDEX, &v, &len, WINHTTP_NO_HEADER_INDEX))
        g->want = v;
}

/* The body into `body`: 0, or the error (ERROR_NOT_ENOUGH_MEMORY: too big). */
static DWORD read_body(struct get *g, struct dynbuf *body)
{
    char buf[65536];
    for (;;) {
        DWORD n = 0;
        if (!WinHttpReadData(g->req, buf, sizeof buf, &n))
            return GetLastError();
        if (!n)
            break;
        if (dynbuf_add(body, buf, n))
            return ERROR_NOT_ENOUGH_MEMORY;
        g->got += n;
    }
    /* the server closed early: WinHTTP may call that the end */
    return g->want >= 0 && g->got < g->want ? ERROR_WINHTTP_CONNECTION_ERROR : 0;
}

enum st_err http_get(const char *url, long timeout_s, struct dynbuf *body, struct dynbuf *err)
{
    struct get g = {.url = url, .timeout_s = timeout_s};
    if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8)) {
        dynbuf_printf(err, "unsupported URL (http:// and https:// only)");
        return ST_ECONNECT;
    }
    g.proxy = http_env_proxy(url, &g.proxy_var);
    g.no_proxy = http_env_no_proxy(url);
    enum st_err e = ST_OK;
    DWORD code = 0;
    if (!send_request(&g))
        code = GetLastError();
    if (!code) {
        read_headers(&g);
        if (g.status >= 400 || g.status < 200) {
            dynbuf_printf(err, "HTTP status %lu", (unsigned long)g.status);
            e = ST_EFAIL;
        } else {
            code = read_body(&g, body);
        }
    }
    if (code)
        e = explain(&g, code, body->max, err);
    if (g.req)
        WinHttpCloseHandle(g.req);
    if (g.conn)
        WinHttpCloseHandle(g.conn);
    if (g.session)
        WinHttpCloseHandle(g.session);
    return e;
}
