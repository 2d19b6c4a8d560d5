/*
 * Signals on the simulated device: a table of the commands that run until
 * signalled (atrace --stream, perfetto, tail -f) and the `kill` builtin
 * that signals them.
 * A running command registers its pid and polls for a pending signal; it
 * decides itself what the signal does (atrace stops and cleans up on INT,
 * TERM, HUP and QUIT; KILL ends it on the spot).
 *
 *   kill [-s NAME | -NAME | -N] PID...     (mksh's builtin)
 *
 * Signal 0 only checks that the process exists.  A pid of the static
 * process table (sim_ps.c) is accepted and ignored with root and refused
 * without ("Operation not permitted"), any other pid is "No such process",
 * status 1.
 */
#include "sim_cmds.h"
#include "sim_ps.h"

#include <signal.h>
#include <string.h>

int sim_run_start(struct sim_device *dev, int pid)
{
    int rc = -1;
    pthread_mutex_lock(&dev->lock);
    for (int i = 0; i < SIM_MAX_RUNNING && rc; i++)
        if (!dev->running[i].pid) {
            dev->running[i].pid = pid;
            dev->running[i].sig = 0;
            dev->running[i].perfetto = 0;
            dev->running[i].comm = NULL;
            rc = 0;
        }
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

static struct sim_running *find(struct sim_device *dev, int pid)
{
    for (int i = 0; i < SIM_MAX_RUNNING; i++)
        if (dev->running[i].pid == pid)
            return &dev->running[i];
    return NULL;
}

int sim_run_signal(struct sim_device *dev, int pid)
{
    pthread_mutex_lock(&dev->lock);
    struct sim_running *r = find(dev, pid);
    int sig = r ? r->sig : 0;
    pthread_mutex_unlock(&dev->lock);
    return sig;
}

void sim_run_set_comm(struct sim_device *dev, int pid, const char *comm)
{
    pthread_mutex_lock(&dev->lock);
    struct sim_running *r = find(dev, pid);
    if (r)
        r->comm = comm;
    pthread_mutex_unlock(&dev->lock);
}

void sim_run_end(struct sim_device *dev, int pid)
{
    pthread_mutex_lock(&dev->lock);
    struct sim_running *r = find(dev, pid);
    if (r)
        r->pid = r->sig = 0;
    pthread_mutex_unlock(&dev->lock);
}

static const struct {
    const char *name;
    int sig;
} signames[] = {
    {"HUP", SIGHUP}, {"INT", SIGINT}, {"QUIT", SIGQUIT}, {"KILL", SIGKILL},
    {"TERM", SIGTERM}, {"USR1", SIGUSR1}, {"USR2", SIGUSR2},
};

/* "INT", "SIGINT" or "2"; -1 if unknown. */
static int parse_sig(const char *s)
{
    uint64_t n;
    if (!sim_parse_u64(s, &n))
        return n < 65 ? (int)n : -1;
    if (!strncmp(s, "SIG", 3))
        s += 3;
    for (size_t i = 0; i < sizeof(signames) / sizeof(signames[0]); i++)
        if (!strcmp(signames[i].name, s))
            return signames[i].sig;
    return -1;
}

static int in_table(int pid)
{
    return sim_proc_find(pid) != NULL;
}

/* SIGKILL ends a process before kill returns (the kernel's doing, not
 * the process's); here the command notices at its next poll, so wait for
 * that, bounded: whatever the caller runs next (rm of the file a killed
 * perfetto wrote) finds it gone. */
static void reaped(struct sim_device *dev, int pid)
{
    for (int i = 0; i < 400; i++) {
        pthread_mutex_lock(&dev->lock);
        int alive = find(dev, pid) != NULL;
        pthread_mutex_unlock(&dev->lock);
        if (!alive)
            return;
        usleep(5000);
    }
}

/* One pid: 0, or 1 with the message printed. */
static int signal_one(struct sh_cmd *c, const char *arg, int sig)
{
    struct sim_device *dev = c->sh->dev;
    uint64_t n;
    if (sim_parse_u64(arg, &n) || n == 0 || n > 4194304) {
        sink_printf(c->err, "sh: kill: %s: arguments must be jobs or process IDs\n", arg);
        return 1;
    }
    int pid = (int)n;
    pthread_mutex_lock(&dev->lock);
    struct sim_running *r = find(dev, pid);
    if (r && sig)
        r->sig = sig;
    pthread_mutex_unlock(&dev->lock);
    if (r && sig == SIGKILL)
        reaped(dev, pid);
    if (r)
        return 0;
    if (in_table(pid) && !dev->opt.no_root)
        return 0;
    sink_printf(c->err, "sh: kill: %s: %s\n", arg,
                in_table(pid) ? "Operation not permitted" : "No such process");
    return 1;
}

int sim_cmd_kill(struct sh_cmd *c)
{
    int i = 1, sig = SIGTERM;
    if (i < c->argc && !strcmp(c->argv[i], "-s") && i + 1 < c->argc) {
        sig = parse_sig(c->argv[i + 1]);
        i += 2;
    } else if (i < c->argc && c->argv[i][0] == '-' && c->argv[i][1]) {
        sig = parse_sig(c->argv[i] + 1);
        i++;
    }
    if (sig < 0) {
        sink_printf(c->err, "sh: kill: %s: unknown signal\n", c->argv[i - 1]);
        return 1;
    }
    if (i >= c->argc) {
        sink_puts(c->err, "kill: usage: kill [-s signame | -signum | -signame] pid...\n");
        return 1;
    }
    int status = 0;
    for (; i < c->argc; i++)
        status |= signal_one(c, c->argv[i], sig);
    return status;
}
