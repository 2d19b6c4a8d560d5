/* Open a page in the user's browser, detached; see browser.h. */
#include "browser.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
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

/* How long a browser command has to fail for it to count as not started
 * (xdg-open without a method, a missing program: at once); one still
 * running then is a browser that opened. */
#define FAIL_WINDOW_MS 1500

/* In the middle process: wait up to FAIL_WINDOW_MS for the command; its
 * exit status when it ended by then, else 0. */
static int early_status(pid_t pid)
{
    for (int ms = 0; ms < FAIL_WINDOW_MS; ms += 20) {
        int st;
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        if (r < 0)
            return 0;
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* Run `sh -c CMD` with the URL as "$1" (and in place of %s), detached: a
 * double fork so nothing is left to reap, a new session so the terminal's
 * Ctrl-C and hang-up do not reach it.  The middle process reports, through
 * a pipe, whether the command failed at once: 0, its exit status, or -1
 * when it could not be run at all. */
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
    int rep[2];
    if (pipe(rep) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(rep[0]);
        close(rep[1]);
        return -1;
    }
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);   /* ignored in systrace itself (signals.h) */
        setsid();
        close(rep[0]);
        pid_t b = fork();
        if (b != 0) {
            unsigned char st = b < 0 ? 255 : (unsigned char)early_status(b);
            if (write(rep[1], &st, 1) < 0)
                _exit(1);
            _exit(0);
        }
        close(rep[1]);
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
    close(rep[1]);
    unsigned char st = 255;
    ssize_t n;
    while ((n = read(rep[0], &st, 1)) < 0 && errno == EINTR) {
    }
    close(rep[0]);
    int wst;
    while (waitpid(pid, &wst, 0) < 0 && errno == EINTR) {
    }
    return n == 1 && st != 255 ? st : -1;
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

int browser_open(const char *path, char *warn, size_t warnlen)
{
    char abs[PATH_MAX], url[PATH_MAX + 16];
    if (!realpath(path, abs) || (size_t)snprintf(url, sizeof(url), "file://%s", abs) >=
                                    sizeof(url)) {
        snprintf(warn, warnlen, "--open: cannot resolve %s", path);
        return -1;
    }
    return browser_open_url(url, warn, warnlen);
}

int browser_open_url(const char *url, char *warn, size_t warnlen)
{
    char failed[1024] = "";
    const char *env = getenv("BROWSER");
    if (env && *env) {
        char list[4096];
        snprintf(list, sizeof(list), "%s", env);
        for (char *c = list; *c;) {
            size_t n = strcspn(c, ":");
            char save = c[n];
            c[n] = '\0';
            int rc = runnable(c) ? spawn(c, url) : 127;
            if (rc == 0)
                return 0;
            tried(failed, sizeof(failed), c, rc);
            c += n + (save == ':');
        }
    }
    static const char *const fallbacks[] = {"xdg-open", "sensible-browser", NULL};
    for (int i = 0; fallbacks[i]; i++) {
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
        snprintf(warn, warnlen, "--open: no browser found ($BROWSER, xdg-open, "
                                "sensible-browser); open %s yourself", url);
    return -1;
}
