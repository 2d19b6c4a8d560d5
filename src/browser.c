/* Open a page in the user's browser, detached; see browser.h. */
#include "browser.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plat.h"

int browser_wanted(int flag)
{
    const char *e = getenv("SYSTRACE_OPEN");
    if (flag || !e || !*e || !strcmp(e, "0"))
        return flag;
    return !strcmp(e, "perfetto") ? BROWSER_PERFETTO : BROWSER_PAGE;
}

/* The program of a command line: its first word, if it can be run. */
static int runnable(const char *cmd)
{
    size_t n = strcspn(cmd, " \t");
    if (!n || n >= PATH_MAX)
        return 0;
    char prog[PATH_MAX];
    memcpy(prog, cmd, n);
    prog[n] = '\0';
    return plat_runnable(prog);
}

/* The command line for CMD: the BROWSER convention (sensible-browser,
 * Python's webbrowser) puts the URL in place of each %s (%% is a %), else
 * after the command.  A file:// URL is percent-encoded down to characters
 * no shell treats specially (file_url), ui.perfetto.dev's adds only '#', '!',
 * '?', '=' and ':' (pfopen.c encodes the name), and the script runs with
 * globbing off: either is one word inside quotes or out. */
static int command_line(const char *cmd, const char *url, char *out, size_t n)
{
    size_t o = 0, ul = strlen(url);
    int placed = 0;
    for (const char *p = cmd; *p; p++) {
        const char *add = p;
        size_t len = 1;
        if (p[0] == '%' && (p[1] == 's' || p[1] == '%')) {
            add = p[1] == 's' ? url : "%";
            len = p[1] == 's' ? ul : 1;
            placed |= p[1] == 's';
            p++;
        }
        if (o + len >= n)
            return -1;
        memcpy(out + o, add, len);
        o += len;
    }
    if (!placed && o + 1 + ul < n) {
        out[o++] = ' ';
        memcpy(out + o, url, ul);
        o += ul;
    } else if (!placed) {
        return -1;
    }
    out[o] = '\0';
    return 0;
}

/* How long a browser command has to fail for it to count as not started
 * (xdg-open without a method, a missing program: at once); one still
 * running then is a browser that opened. */
#define FAIL_WINDOW_MS 1500

/* Run CMD's command line for the URL, detached (plat_spawn_detached);
 * globbing is off (a URL's '?' is no glob).  0, its early exit status, or
 * -1 when it could not be run at all. */
static int spawn(const char *cmd, const char *url)
{
    char script[8192] = "set -f; ";
    size_t pre = PLAT_WINDOWS ? 0 : strlen(script);
    if (command_line(cmd, url, script + pre, sizeof(script) - pre))
        return -1;
    return plat_spawn_detached(script, NULL, FAIL_WINDOW_MS);
}

/* "; CMD: what" into the list of failed tries. */
static void tried(char *list, size_t len, const char *cmd, int rc)
{
    size_t used = strlen(list);
    if (used + 1 >= len)
        return;
    if (rc < 0)
        snprintf(list + used, len - used, "%s%s: could not be started", used ? "; " : "", cmd);
    else if (rc == 127)
        snprintf(list + used, len - used, "%s%s: not found", used ? "; " : "", cmd);
    else
        snprintf(list + used, len - used, "%s%s: exit %d", used ? "; " : "", cmd, rc);
}

/* file://PATH with every byte but letters, digits and - . _ ~ / as %XX
 * (RFC 3986; a '#', '%' or '?' in a name must not cut the path).  A
 * Windows path becomes file:///C:/dir/name (its drive colon kept). */
static int file_url(const char *abs, char *url, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    int drive = abs[0] && abs[1] == ':';
    size_t o = (size_t)snprintf(url, n, drive ? "file:///" : "file://");
    for (const unsigned char *p = (const unsigned char *)abs; *p; p++) {
        int plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9') || strchr("-._~/", *p) ||
                    (drive && p == (const unsigned char *)abs + 1);
        if (plat_is_sep((char)*p)) {
            if (o + 1 >= n)
                return -1;
            url[o++] = '/';
            continue;
        }
        if (o + (plain ? 1 : 3) >= n)
            return -1;
        if (plain) {
            url[o++] = (char)*p;
        } else {
            url[o++] = '%';
            url[o++] = hex[*p >> 4];
            url[o++] = hex[*p & 15];
        }
    }
    url[o] = '\0';
    return 0;
}

void browser_file_link(const char *path, char *out, size_t n)
{
    char *abs = plat_realpath(path);
    const char *a = abs ? abs : path;
    int drive = a[0] && a[1] == ':';
    size_t o = (size_t)snprintf(out, n, drive ? "file:///" : "file://");
    for (; *a && o + 1 < n; a++)
        out[o++] = plat_is_sep(*a) ? '/' : *a;
    if (o < n)
        out[o] = '\0';
    free(abs);
}

/* The first browser that starts: $BROWSER's with url; then on Windows the
 * shell's handler for `target` (a local page's own path: ShellExecute is
 * not relied on to undo the URL's percent escapes), elsewhere the
 * system's openers with url (PLAT_URL_OPENERS: xdg-open and
 * sensible-browser; macOS's open). */
static int open_any(const char *url, const char *target, char *warn, size_t warnlen);

int browser_open(const char *path, char *warn, size_t warnlen)
{
    char url[PATH_MAX * 3 + 16];
    char *abs = plat_realpath(path);
    if (!abs || file_url(abs, url, sizeof(url))) {
        free(abs);
        snprintf(warn, warnlen, "--open: cannot resolve %s", path);
        return -1;
    }
    int r = open_any(url, abs, warn, warnlen);
    free(abs);
    return r;
}

int browser_open_url(const char *url, char *warn, size_t warnlen)
{
    return open_any(url, url, warn, warnlen);
}

static int open_any(const char *url, const char *target, char *warn, size_t warnlen)
{
    char failed[1024] = "";
    const char *env = getenv("BROWSER");
    if (env && *env) {
        char list[4096];
        snprintf(list, sizeof(list), "%s", env);
        for (char *c = list; *c;) {
            size_t n = strcspn(c, PLAT_WINDOWS ? ";" : ":");
            char save = c[n];
            c[n] = '\0';
            int rc = runnable(c) ? spawn(c, url) : 127;
            if (rc == 0)
                return 0;
            tried(failed, sizeof(failed), c, rc);
            c += n + (save != '\0');
        }
    }
    char why[300];
    if (PLAT_WINDOWS) {
        if (plat_shell_open(target, why, sizeof(why)) == 0)
            return 0;
        size_t used = strlen(failed);
        snprintf(failed + used, sizeof(failed) - used, "%sthe default browser: %s",
                 used ? "; " : "", why);
    }
    static const char *const fallbacks[] = PLAT_URL_OPENERS;
    for (int i = 0; !PLAT_WINDOWS && fallbacks[i]; i++) {
        if (!runnable(fallbacks[i]))
            continue;
        int rc = spawn(fallbacks[i], url);
        if (rc == 0)
            return 0;
        tried(failed, sizeof(failed), fallbacks[i], rc);
    }
    if (failed[0])
        snprintf(warn, warnlen, "--open: no browser could show the page (%s); open %s "
                                "yourself", failed, url);
    else
        snprintf(warn, warnlen, "--open: no browser found ($BROWSER, "
                                PLAT_URL_OPENERS_TEXT "); open %s yourself", url);
    return -1;
}
