/* Open a page in the user's browser, detached; see browser.h. */
#include "browser.h"

#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int browser_wanted(int flag)
{
    const char *e = getenv("SYSTRACE_OPEN");
    return flag || (e && *e && strcmp(e, "0") != 0);
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
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t d = strcspn(path, ":");
        char full[PATH_MAX];
        if (d && (size_t)snprintf(full, sizeof(full), "%.*s/%s", (int)d, path, prog) <
                     sizeof(full) && access(full, X_OK) == 0)
            return 1;
        path += d + (path[d] == ':');
    }
    return 0;
}

/* The command line for CMD: the BROWSER convention (sensible-browser,
 * Python's webbrowser) puts the URL in place of each %s (%% is a %), else
 * after the command.  The URL is percent-encoded down to characters no
 * shell treats specially, so it is one word inside quotes or out. */
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

/* Run `sh -c` on CMD's command line for the URL, detached: a double fork
 * so nothing is left to reap, a new session so the terminal's Ctrl-C and
 * hang-up do not reach it. */
static int spawn(const char *cmd, const char *url)
{
    char script[8192];
    if (command_line(cmd, url, script, sizeof(script)))
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);   /* ignored in systrace itself (signals.h) */
        setsid();
        if (fork() != 0)
            _exit(0);
        int fd = open("/dev/null", O_RDWR);
        if (fd >= 0) {
            dup2(fd, 0);
            dup2(fd, 1);
            dup2(fd, 2);
            if (fd > 2)
                close(fd);
        }
        execl("/bin/sh", "sh", "-c", script, "sh", (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0) {
    }
    return 0;
}

/* file://PATH with every byte but letters, digits and - . _ ~ / as %XX
 * (RFC 3986; a '#', '%' or '?' in a name must not cut the path). */
static int file_url(const char *abs, char *url, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = (size_t)snprintf(url, n, "file://");
    for (const unsigned char *p = (const unsigned char *)abs; *p; p++) {
        int plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9') || strchr("-._~/", *p);
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

int browser_open(const char *path, char *warn, size_t warnlen)
{
    char abs[PATH_MAX], url[PATH_MAX * 3 + 16];
    if (!realpath(path, abs) || file_url(abs, url, sizeof(url))) {
        snprintf(warn, warnlen, "--open: cannot resolve %s", path);
        return -1;
    }
    const char *env = getenv("BROWSER");
    if (env && *env) {
        char list[4096];
        snprintf(list, sizeof(list), "%s", env);
        for (char *c = list; *c;) {
            size_t n = strcspn(c, ":");
            char save = c[n];
            c[n] = '\0';
            if (runnable(c) && spawn(c, url) == 0)
                return 0;
            c += n + (save == ':');
        }
    }
    static const char *const fallbacks[] = {"xdg-open", "sensible-browser", NULL};
    for (int i = 0; fallbacks[i]; i++)
        if (runnable(fallbacks[i]) && spawn(fallbacks[i], url) == 0)
            return 0;
    snprintf(warn, warnlen, "--open: no browser found ($BROWSER, xdg-open, sensible-browser); "
                            "open %s yourself", url);
    return -1;
}
