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

/* Run `sh -c` on CMD's command line for the URL, detached: a double fork so nothing is left to reap, a new session so the terminal's
 * Ctrl-C and hang-up do not reach it.  The middle process reports, through
 * a pipe, whether the command failed at once: 0, its exit status, or -1
 * when it could not be run at all. */
static int spawn(const char *cmd, const char *url)
{
    char script[8192] = "set -f; ";  /* a URL's '?' is no glob */
    if (command_line(cmd, url, script + 8, sizeof(script) - 8))
        return -1;
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
        execl("/bin/sh", "sh", "-c", script, "sh", (char *)NULL);
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
