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

/* Run `sh -c CMD` with the URL as "$1" (and in place of %s), detached: a
 * double fork so nothing is left to reap, a new session so the terminal's
 * Ctrl-C and hang-up do not reach it. */
static int spawn(const char *cmd, const char *url)
{
    char script[4096];
    if (strstr(cmd, "%s")) {
        /* sensible-browser's convention: %s is where the URL goes */
        const char *p = strstr(cmd, "%s");
        if ((size_t)snprintf(script, sizeof(script), "%.*s\"$1\"%s", (int)(p - cmd), cmd,
                             p + 2) >= sizeof(script))
            return -1;
    } else if ((size_t)snprintf(script, sizeof(script), "%s \"$1\"", cmd) >= sizeof(script)) {
        return -1;
    }
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
        execl("/bin/sh", "sh", "-c", script, "sh", url, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0) {
    }
    return 0;
}

int browser_open(const char *path, char *warn, size_t warnlen)
{
    char abs[PATH_MAX], url[PATH_MAX + 16];
    if (!realpath(path, abs) || (size_t)snprintf(url, sizeof(url), "file://%s", abs) >=
                                    sizeof(url)) {
        snprintf(warn, warnlen, "--open: cannot resolve %s", path);
        return -1;
    }
    if (browser_open_url(url) == 0)
        return 0;
    snprintf(warn, warnlen, "--open: no browser found ($BROWSER, xdg-open, sensible-browser); "
                            "open %s yourself", url);
    return -1;
}

int browser_open_url(const char *url)
{
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
    return -1;
}
