/*
 * lib/httpget.h on libcurl (Linux, macOS): redirects followed, http and
 * https only, the proxy from the environment as libcurl takes it (named in
 * failures: httpenv.h), and failures in the user's terms.
 */
#include "httpget.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "httpenv.h"

static size_t on_data(char *p, size_t size, size_t nmemb, void *ctx)
{
    return dynbuf_add(ctx, p, size * nmemb) ? 0 : size * nmemb;
}

static void explain(CURLcode rc, const char *url, const char *eb, long timeout,
                    curl_off_t got, curl_off_t want, size_t max, struct dynbuf *err)
{
    char host[256];
    http_host_of(url, host, sizeof(host));
    const char *var = NULL, *proxy = http_env_proxy(url, &var);
    switch (rc) {
    case CURLE_COULDNT_RESOLVE_HOST:
        dynbuf_printf(err, "cannot resolve %s: no network or no DNS?", host);
        break;
    case CURLE_COULDNT_RESOLVE_PROXY:
        dynbuf_printf(err, "cannot resolve the proxy %s (from $%s)", proxy ? proxy : "?",
                      var ? var : "?");
        break;
    case CURLE_COULDNT_CONNECT:
        if (proxy)
            dynbuf_printf(err, "cannot connect to the proxy %s (from $%s): %s", proxy, var,
                          eb);
        else
            dynbuf_printf(err, "cannot connect to %s: %s (no network?)", host, eb);
        break;
    case CURLE_OPERATION_TIMEDOUT:
        dynbuf_printf(err, "timed out: no data for %ld s (%s); --timeout=S waits longer",
                      timeout, eb);
        break;
    case CURLE_PARTIAL_FILE:
        dynbuf_printf(err, "the transfer stopped after %lld of %lld bytes (partial "
                           "download)", (long long)got, (long long)want);
        break;
    case CURLE_WRITE_ERROR:
        dynbuf_printf(err, "the response is larger than %zu bytes: not the expected file",
                      max);
        break;
    case CURLE_UNSUPPORTED_PROTOCOL:
        dynbuf_printf(err, "unsupported URL (http:// and https:// only)");
        break;
    default:
        dynbuf_printf(err, "%s%s%s", curl_easy_strerror(rc), *eb ? ": " : "", eb);
        if (proxy)
            dynbuf_printf(err, " (through the proxy %s from $%s)", proxy, var);
    }
}

enum st_err http_get(const char *url, long timeout, struct dynbuf *body, struct dynbuf *err)
{
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        dynbuf_printf(err, "libcurl could not start");
        return ST_ENOMEM;
    }
    CURL *c = curl_easy_init();
    if (!c) {
        curl_global_cleanup();
        return ST_ENOMEM;
    }
    char eb[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, eb);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, body);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_USERAGENT, "systrace");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, timeout > 0 ? timeout : 30L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, timeout > 0 ? timeout : 60L);
    CURLcode rc = curl_easy_perform(c);
    long code = 0;
    curl_off_t got = 0, want = -1;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    curl_easy_getinfo(c, CURLINFO_SIZE_DOWNLOAD_T, &got);
    curl_easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &want);
    curl_easy_cleanup(c);
    curl_global_cleanup();
    enum st_err e = ST_OK;
    if (rc != CURLE_OK) {
        explain(rc, url, eb, timeout > 0 ? timeout : 60L, got, want, body->max, err);
        e = rc == CURLE_OPERATION_TIMEDOUT ? ST_ETIMEOUT
            : rc == CURLE_PARTIAL_FILE ? ST_ETRUNCATED : ST_ECONNECT;
    } else if (code >= 400 || (code && code < 200)) {
        dynbuf_printf(err, "HTTP status %ld", code);
        e = ST_EFAIL;
    }
    return e;
}

