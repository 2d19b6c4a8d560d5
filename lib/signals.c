/* Signal handling through a self-pipe; see signals.h. */
#include "signals.h"

#include <stdatomic.h>
#include <string.h>

#include "plat.h"
#include "tmpfiles.h"

static int pipefd[2] = {-1, -1};
/* Lock-free atomics, not volatile sig_atomic_t: the handler writes them and
 * every device's worker thread reads them. */
static _Atomic int n_int, got_hup, got_term, term_sig, got_alarm, exit_first, hup_wakes = 1;
static _Atomic int n_tracing, grace;    /* grace: 1 armed, 2 used */
static _Atomic int serving;             /* sig_serving: signals seen + 1 */
static _Atomic int64_t term_at;         /* plat_now_ms() of the first SIGTERM */
/* A second SIGTERM this soon is the same request: timeout(1) signals the
 * command and then its whole process group, so the command gets two at
 * once, and exiting on the second left the device tracing. */
#define TERM_REPEAT_MS 1000
static char hint[8192];     /* the stop commands of up to 64 devices */
static _Atomic int hint_set;
static void (*volatile emergency_fn)(void *);
static void *volatile emergency_ctx;

#define say plat_sig_say

static void exit_now(enum plat_sig sig)
{
    tmpfiles_close();
    if (atomic_load(&serving)) {
        say("\nsystrace: interrupted again; stopped serving, the output is kept\n");
        plat_exit_now(0);
    }
    if (emergency_fn)
        emergency_fn(emergency_ctx);
    say(exit_first ? "\nsystrace: interrupted; nothing written\n"
                   : "\nsystrace: interrupted again; exiting now, nothing written\n");
    if (atomic_load(&hint_set)) {
        say("systrace: ");
        say(hint);
        say("\n");
    }
    plat_exit_now(sig == PLAT_SIGTERM ? 143 : sig == PLAT_SIGQUIT ? 131 : 130);
}

static void wake(enum plat_sig sig)
{
    char c = (char)sig;
    if (plat_sock_write(pipefd[1], &c, 1) < 0) {
        /* the pipe is full: it is readable already, which is all we need */
    }
}

/* A signal (POSIX: in its handler) or a console event (Windows: on a
 * thread of its own). */
static void handler(enum plat_sig sig)
{
    int term = sig == PLAT_SIGTERM || sig == PLAT_SIGQUIT;
    int intr = sig == PLAT_SIGINT || sig == PLAT_SIGHUP;
    if (atomic_load(&serving) && (term || intr)) {
        if (atomic_fetch_add(&serving, 1) >= 3)
            exit_now(sig);      /* the third: serving did not end */
        wake(sig);
        return;
    }
    if (exit_first && (term || intr))
        exit_now(sig);
    if (intr && sig == PLAT_SIGINT && atomic_load(&grace)) {
        int armed = 1;
        if (atomic_compare_exchange_strong(&grace, &armed, 2)) {
            say("\nsystrace: tracing has stopped; still writing the page "
                "(Ctrl-C again to abandon it)\n");
            return;
        }
        if (n_int < 1)
            n_int = 1;      /* so the next one abandons, whatever stopped tracing */
    }
    if (term && got_term && plat_now_ms() - atomic_load(&term_at) < TERM_REPEAT_MS)
        return;
    if ((term && got_term) || (intr && n_int >= 2))
        exit_now(sig);
    if (term) {
        atomic_store(&term_at, plat_now_ms());  /* before got_term: read after it */
        got_term = 1;
        term_sig = sig;
    } else if (sig == PLAT_SIGHUP && !hup_wakes) {
        got_hup = 1;    /* noted; the collection under way goes on */
        return;
    } else if (intr) {
        n_int++;
        got_hup |= sig == PLAT_SIGHUP;
    } else if (sig == PLAT_SIGALRM) {
        got_alarm = 1;
    }
    wake(sig);
}

int sig_install(void)
{
    if (pipefd[0] < 0 && plat_pipe(pipefd) != 0)
        return -1;
    plat_sig_install(handler);
    return pipefd[0];
}

void sig_exit_first(void)
{
    exit_first = 1;
}

void sig_set_hint(const char *text)
{
    atomic_store(&hint_set, 0);
    if (!text)
        return;
    size_t n = strlen(text);
    if (n >= sizeof(hint))
        n = sizeof(hint) - 1;
    memcpy(hint, text, n);
    hint[n] = '\0';
    atomic_store(&hint_set, 1);
}

void sig_set_emergency(void (*fn)(void *ctx), void *ctx)
{
    emergency_fn = NULL;
    emergency_ctx = ctx;
    emergency_fn = fn;
}

void sig_hangup_stops(int on)
{
    hup_wakes = on;
}

void sig_serving(void)
{
    exit_first = 0;
    grace = 0;
    atomic_store(&serving, 1);
}

void sig_restore(void)
{
    serving = 0;
    exit_first = 0;
    n_tracing = 0;
    grace = 0;
    hup_wakes = 1;
    sig_set_hint(NULL);
    sig_set_emergency(NULL, NULL);
    plat_sig_restore();
}

void sig_tracing_begin(void)
{
    atomic_fetch_add(&n_tracing, 1);
}

void sig_tracing_end(void)
{
    int zero = 0;
    if (atomic_fetch_sub(&n_tracing, 1) == 1 && n_int < 2 && !got_term)
        atomic_compare_exchange_strong(&grace, &zero, 1);
}

int sig_tracing_over(void)
{
    return atomic_load(&grace) != 0;
}

int sig_interrupts(void)
{
    return n_int;
}

int sig_hangup(void)
{
    return got_hup;
}

int sig_terminated(void)
{
    return got_term;
}

int sig_exit_status(void)
{
    return !got_term ? 130 : term_sig == PLAT_SIGQUIT ? 131 : 143;
}

int sig_alarmed(void)
{
    return got_alarm;
}

void sig_drain(void)
{
    char buf[64];
    while (pipefd[0] >= 0 && plat_sock_read(pipefd[0], buf, sizeof(buf)) > 0) {
    }
}

void sig_deadline(int seconds)
{
    if (seconds > 0)
        got_alarm = 0;
    plat_alarm(seconds);
}
