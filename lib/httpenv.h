/*
 * What both HTTP back ends (httpget_curl.c, httpget_winhttp.c) take from
 * the environment the way curl does: the proxy for a URL ($http_proxy;
 * $https_proxy for https; $all_proxy; unless $no_proxy names the host),
 * so a failure can name the proxy and the variable it came from.
 */
#ifndef SYSTRACE_HTTPENV_H
#define SYSTRACE_HTTPENV_H

#include <stddef.h>

/* The host part of url (no user info handling: the viewer URLs have none). */
void http_host_of(const char *url, char *host, size_t n);
/* 1 if $no_proxy exempts url's host from any proxy. */
int http_env_no_proxy(const char *url);
/* The proxy for url, or NULL; *var names the variable it came from. */
const char *http_env_proxy(const char *url, const char **var);

#endif
