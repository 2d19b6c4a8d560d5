/* Signal handling through a self-pipe; see signals.h. */
#include "signals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

static int pipefd[2] = {-1, -1};
static volatile sig_atomic_t n_int, got_term, got_alarm, exit_first;
static const char *volatile unlink_path;
static struct sigaction old_int, old_term, old_alrm;

static void handler(int sig)
{
    int saved = errno;
    if ((sig == SIGINT && ++n_int >= 2) || (exit_first && sig != SIGALRM)) {
        static const char again[] = "\nsystrace: interrupted again; exiting now\n";
        static const char once[] = "\nsystrace: interrupted; nothing written\n";
        const char *msg = exit_first ? once : again;
        size_t len = exit_first ? sizeof(once) - 1 : sizeof(again) - 1;
        if (unlink_path)
            unlink(unlink_path);    /* async-signal-safe */
        if (write(STDERR_FILENO, msg, len) < 0) {
            /* nothing to do */
        }
        _exit(sig == SIGTERM ? 143 : 130);
    }
    if (sig == SIGTERM)
        got_term = 1;
    if (sig == SIGALRM)
        got_alarm = 1;
    char c = (char)sig;
    if (write(pipefd[1], &c, 1) < 0) {
        /* the pipe is full: it is readable already, which is all we need */
    }
    errno = saved;
}

int sig_install(void)
{
    if (pipefd[0] < 0) {
        if (pipe(pipefd) != 0)
            return -1;
        for (int i = 0; i < 2; i++) {
            fcntl(pipefd[i], F_SETFL, fcntl(pipefd[i], F_GETFL) | O_NONBLOCK);
            fcntl(pipefd[i], F_SETFD, FD_CLOEXEC);
        }
    }
    struct sigaction sa;
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;    /* no SA_RESTART: blocking calls return EINTR */
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGALRM, &sa, &old_alrm);
    return pipefd[0];
}

void sig_unlink_on_exit(const char *path)
{
    unlink_path = path;
}

void sig_exit_first(void)
{
    exit_first = 1;
}

void sig_restore(void)
{
    unlink_path = NULL;
    exit_first = 0;
    alarm(0);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGALRM, &old_alrm, NULL);
}

int sig_interrupts(void)
{
    return n_int;
}

int sig_terminated(void)
{
    return got_term;
}

int sig_alarmed(void)
{
    return got_alarm;
}

void sig_drain(void)
{
    char buf[64];
    while (pipefd[0] >= 0 && read(pipefd[0], buf, sizeof(buf)) > 0) {
    }
}

void sig_deadline(int seconds)
{
    if (seconds > 0)
        got_alarm = 0;
    alarm(seconds > 0 ? (unsigned)seconds : 0);
}
