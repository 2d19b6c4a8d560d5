/*
 * Stop requests on Windows: console control events, turned into plat_sig
 * values for lib/signals.c (SetConsoleCtrlHandler); see plat.h.
 *
 *   Ctrl-C, Ctrl-Break    PLAT_SIGINT (Wine also turns SIGINT into Ctrl-C)
 *   closing the console   PLAT_SIGHUP; Windows ends the process about five
 *                         seconds after the event, so the handler holds the
 *                         event that long for the capture to stop the device
 *   log-off, shutdown     PLAT_SIGTERM
 *
 * The handler runs on a thread of its own; the alarm is a timer-queue
 * callback on another.  Both only set atomics and write the signal pipe.
 */
#include "plat.h"

#include <windows.h>
#include <io.h>
#include <string.h>

static void (*volatile deliver_fn)(enum plat_sig);
static HANDLE alarm_timer;

static BOOL WINAPI on_console(DWORD ev)
{
    void (*fn)(enum plat_sig) = deliver_fn;
    if (!fn)
        return FALSE;
    switch (ev) {
    case CTRL_C_EVENT:
    case CTRL_BREAK_EVENT:
        fn(PLAT_SIGINT);
        return TRUE;
    case CTRL_CLOSE_EVENT:
        fn(PLAT_SIGHUP);
        Sleep(4500);
        return TRUE;
    default:
        fn(PLAT_SIGTERM);
        return TRUE;
    }
}

void plat_sig_install(void (*deliver)(enum plat_sig sig))
{
    deliver_fn = deliver;
    SetConsoleCtrlHandler(on_console, TRUE);
}

void plat_sig_restore(void)
{
    plat_alarm(0);
    SetConsoleCtrlHandler(on_console, FALSE);
    deliver_fn = NULL;
}

static VOID CALLBACK on_alarm(PVOID ctx, BOOLEAN fired)
{
    (void)ctx;
    (void)fired;
    void (*fn)(enum plat_sig) = deliver_fn;
    if (fn)
        fn(PLAT_SIGALRM);
}

void plat_alarm(int seconds)
{
    if (alarm_timer) {
        DeleteTimerQueueTimer(NULL, alarm_timer, NULL);     /* does not wait: never blocks */
        alarm_timer = NULL;
    }
    if (seconds > 0 && !CreateTimerQueueTimer(&alarm_timer, NULL, on_alarm, NULL,
                                              (DWORD)seconds * 1000, 0, WT_EXECUTEONLYONCE))
        alarm_timer = NULL;
}

void plat_sig_say(const char *s)
{
    if (_write(2, s, (unsigned)strlen(s)) < 0) {
        /* stderr is gone too: nothing left to tell */
    }
}

void plat_exit_now(int status)
{
    _exit(status);
}
