/*
 * Stop requests on POSIX systems: the signals, turned into plat_sig values
 * for lib/signals.c; see plat.h.  SIGPIPE is ignored (a reader that went
 * away makes writes fail with EPIPE instead of killing the process); the
 * handlers run without SA_RESTART so blocking calls return EINTR.
 */
#include "plat.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static const int handled[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGPIPE};
#define NHANDLED (sizeof(handled) / sizeof(handled[0]))
static struct sigaction old[NHANDLED];
static void (*volatile deliver_fn)(enum plat_sig);

static void handler(int sig)
{
    int saved = errno;
    enum plat_sig s = sig == SIGINT    ? PLAT_SIGINT
                      : sig == SIGHUP  ? PLAT_SIGHUP
                      : sig == SIGTERM ? PLAT_SIGTERM
                      : sig == SIGQUIT ? PLAT_SIGQUIT
                                       : PLAT_SIGALRM;
    if (deliver_fn)
        deliver_fn(s);
    errno = saved;
}

void plat_sig_install(void (*deliver)(enum plat_sig sig))
{
    deliver_fn = deliver;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    for (size_t i = 0; i < NHANDLED; i++) {
        sa.sa_handler = handled[i] == SIGPIPE ? SIG_IGN : handler;
        sigaction(handled[i], &sa, &old[i]);
    }
}

void plat_sig_restore(void)
{
    alarm(0);
    for (size_t i = 0; i < NHANDLED; i++)
        sigaction(handled[i], &old[i], NULL);
}

void plat_alarm(int seconds)
{
    alarm(seconds > 0 ? (unsigned)seconds : 0);
}

void plat_sig_say(const char *s)
{
    if (write(STDERR_FILENO, s, strlen(s)) < 0) {
        /* stderr is gone too: nothing left to tell */
    }
}

void plat_exit_now(int status)
{
    _exit(status);
}
