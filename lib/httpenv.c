/* The proxy from the environment, as curl takes it; see httpenv.h. */
#include "httpenv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void http_host_of(const char *url, char *host, size_t n)
{
    const char *s = strstr(url, "://");
    s = s ? s + 3 : url;
    size_t l = strcspn(s, "/:?#");
    snprintf(host, n, "%.*s", (int)l, s);
}

/* no_proxy: `*`, or a list of host names / domain suffixes. */
static int no_proxy_for(const char *host)
{
    const char *np = getenv("no_proxy");
    if (!np || !*np)
        np = getenv("NO_PROXY");
    if (!np)
        return 0;
    size_t hl = strlen(host);
    while (*np) {
        size_t l = strcspn(np, ", ");
        const char *e = np;
        size_t el = l;
        if (el && *e == '.')
            e++, el--;
        if ((l == 1 && *np == '*') ||
            (el && el <= hl && !strncmp(host + hl - el, e, el) &&
             (el == hl || host[hl - el - 1] == '.')))
            return 1;
        np += l;
        np += strspn(np, ", ");
    }
    return 0;
}

int http_env_no_proxy(const char *url)
{
    char host[256];
    http_host_of(url, host, sizeof(host));
    return no_proxy_for(host);
}

const char *http_env_proxy(const char *url, const char **var)
{
    static const char *const https_vars[] = {"https_proxy", "HTTPS_PROXY", "all_proxy",
                                             "ALL_PROXY", NULL};
    static const char *const http_vars[] = {"http_proxy", "all_proxy", "ALL_PROXY", NULL};
    if (http_env_no_proxy(url))
        return NULL;
    const char *const *v = strncmp(url, "https:", 6) ? http_vars : https_vars;
    for (; *v; v++) {
        const char *p = getenv(*v);
        if (p && *p) {
            *var = *v;
            return p;
        }
    }
    return NULL;
}
