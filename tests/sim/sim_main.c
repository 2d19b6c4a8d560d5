/*
 * adbsim entry point: options, the listening socket on 127.0.0.1, one
 * thread per accepted connection, clean exit on SIGTERM/SIGINT.
 * Prints "listening on PORT" (flushed) once it accepts connections and
 * writes the port to --port-file.  See docs/simulator.md for options.
 */
#include "sim.h"
#include "sim_atrace.h"
#include "sim_fs.h"
#include "sim_shell.h"
#include "sim_wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "lib/debug.h"

atomic_int sim_stopping;     /* lock-free: set by the signal handler, read by every thread */

static void on_signal(int sig)
{
    (void)sig;
    sim_stopping = 1;
}

static const char usage[] =
    "usage: adbsim [options]\n"
    "  --port N              listen on 127.0.0.1:N (0 = any free port)\n"
    "  --port-file F         write the port number to F\n"
    "  --log F               log opened services and shell commands to F\n"
    "  --state-file F        tracing state, rewritten atomically\n"
    "  --fs-dir DIR          device file system root (default: temp dir)\n"
    "  --sdk N               SDK level (default 33)\n"
    "  --no-root             adbd runs as shell; root-only categories absent\n"
    "  --no-z                atrace rejects -z\n"
    "  --legacy-ps           toolbox ps: ps -A ... fails\n"
    "  --legacy-ps-headers   toolbox ps: ps -A ... prints only a header\n"
    "  --no-shell-v2         banner without shell_v2\n"
    "  --debugfs             tracing only at /sys/kernel/debug/tracing\n"
    "  --old-protocol        version 0x01000000, maxdata 4096, checksums\n"
    "  --crlf                shell: output as through a PTY (\\r\\n)\n"
    "  --disconnect-after B  drop the connection after B bytes of a dump\n"
    "                        (B,B2: after B2 bytes from the second dump on)\n"
    "                        (also --disconnect-after-bytes B)\n"
    "  --disconnect-pull-after B  the same after B bytes of a sync pull\n"
    "  --disconnect-perfetto-after MS  the same MS ms into a perfetto session\n"
    "  --reconnect-after MS  with --disconnect-after: drop once, the device\n"
    "                        refuses connections for MS ms (never: for good)\n"
    "  --rate B              limit each connection to B bytes/second\n"
    "  --hang-on TEXT        never answer a command containing TEXT\n"
    "  --dump-delay MS       a dump waits MS ms between \" done\" and TRACE:\n"
    "  --prop NAME=VALUE     getprop NAME answers VALUE (any bytes; up to 8)\n"
    "  --size-mb N           make trace dumps about N MB of text\n"
    "  --long-marker N       dumps and streams hold one slice whose name is N bytes\n"
    "  --event-rate N        generated events per traced second (20000); also the\n"
    "                        rate atrace --stream writes in real time\n"
    "  --no-stream           atrace without --stream (before Android 7): unknown option\n"
    "  --no-tail-follow      tail knows no -f: unknown option\n"
    "  --tail-noise err|out  tail -f prints a warning first, on stderr or stdout\n"
    "  --no-perfetto         no perfetto command (as before SDK 28)\n"
    "  --launch-never-draws  am start -W: the app never draws (Status: timeout)\n"
    "  --app-stopped         the launchable app is not running at boot (pidof finds none)\n"
    "  --fully-drawn MS      the launched app calls reportFullyDrawn MS ms after its\n"
    "                        first frame (default: never)\n"
    "  --slow-launch PCT     every launch of the app PCT% longer (its slices too)\n"
    "  --launch-spread PCT   launch times vary run to run: log-normal, sigma PCT%\n"
    "                        (from --seed and the launch's number)\n"
    "  --launch-seed N       that variation from N instead of --seed (the same\n"
    "                        generated trace around different launch times)\n"
    "  --traced-off          persist.traced.enable=0: perfetto cannot reach traced\n"
    "  --perfetto-unreadable perfetto's files: pull and cat refused (EACCES)\n"
    "  --perfetto-chatty     perfetto warns for 80 KB, then refuses the config\n"
    "  --slow-flush MS       perfetto flushes MS ms at its end before its pid goes\n"
    "  --slow-rm MS          rm takes MS ms\n"
    "  --stall-on TEXT:MS    the first command containing TEXT waits MS ms\n"
    "                        before it runs (another systrace goes first)\n"
    "  --perfetto-corrupt    perfetto's trace ends in a malformed packet\n"
    "  --perfetto-junk       perfetto writes 64 KiB of 0xff (a varint too long)\n"
    "                        after its first packet, then records on\n"
    "  --tracing-on-at-boot  tracing_on=1 from the start, no atrace running\n"
    "  --zlevel N            zlib level for atrace -z (default 6)\n"
    "  --seed N              seed of the event generator\n"
    "  --overflow            emit circular-buffer overrun markers\n"
    "  --drop-markers        trace_marker writes succeed but never reach the trace\n"
    "  --trace-file F        serve the ftrace text in F instead\n"
    "  --method-trace F      am profile writes a copy of F\n"
    "  --auth-keys F         require RSA auth; F lists trusted adbkey.pub lines\n"
    "  --auth-accept MS      \"user taps Allow\" MS ms after a public key arrives\n"
    "                        (the key is added to F); default: nobody taps\n"
    "  --exec CMD            run CMD in the device shell, print its output\n"
    "                        and exit with its status (no network)\n";

static int opt_u64(const char *name, const char *v, uint64_t *out)
{
    if (!v || sim_parse_u64(v, out)) {
        fprintf(stderr, "adbsim: %s needs a number\n", name);
        return -1;
    }
    return 0;
}

static int parse_opts(int argc, char **argv, struct sim_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->sdk = 33;
    o->auth_accept_ms = -1;
    o->fully_drawn_ms = -1;
    o->reconnect_after_ms = -1;
    o->event_rate = 20000;
    o->zlevel = 6;
    o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n = 0;
        int takes = 1;
        if (!strcmp(a, "--port")) {
            if (opt_u64(a, v, &n) || n > 65535)
                return -1;
            o->port = (int)n;
        } else if (!strcmp(a, "--port-file")) {
            o->port_file = v;
        } else if (!strcmp(a, "--log")) {
            o->log_path = v;
        } else if (!strcmp(a, "--state-file")) {
            o->state_path = v;
        } else if (!strcmp(a, "--fs-dir")) {
            o->fs_dir = v;
        } else if (!strcmp(a, "--trace-file")) {
            o->trace_file = v;
        } else if (!strcmp(a, "--tail-noise")) {
            if (!v || (strcmp(v, "err") && strcmp(v, "out"))) {
                fprintf(stderr, "adbsim: --tail-noise takes err or out\n");
                return -1;
            }
            o->tail_noise = *v == 'o' ? 2 : 1;
        } else if (!strcmp(a, "--method-trace")) {
            o->method_trace = v;
        } else if (!strcmp(a, "--exec")) {
            o->exec = v;
        } else if (!strcmp(a, "--auth-keys")) {
            o->auth_keys = v;
        } else if (!strcmp(a, "--auth-accept")) {
            if (opt_u64(a, v, &n) || n > 600000)
                return -1;
            o->auth_accept_ms = (int)n;
        } else if (!strcmp(a, "--fully-drawn")) {
            if (opt_u64(a, v, &n) || n > 60000)
                return -1;
            o->fully_drawn_ms = (int)n;
        } else if (!strcmp(a, "--slow-launch") || !strcmp(a, "--launch-spread")) {
            if (opt_u64(a, v, &n) || n > 1000)
                return -1;
            *(a[2] == 's' ? &o->slow_launch_pct : &o->launch_spread_pct) = (unsigned)n;
        } else if (!strcmp(a, "--launch-seed")) {
            if (opt_u64(a, v, &n) || !n || n > 0xffffffffu)
                return -1;
            o->launch_seed = (uint32_t)n;
        } else if (!strcmp(a, "--hang-on")) {
            o->hang_on = v;
        } else if (!strcmp(a, "--prop")) {
            if (!strchr(v, '=') || o->nprops == 8)
                return -1;
            o->props[o->nprops++] = v;
        } else if (!strcmp(a, "--slow-flush") || !strcmp(a, "--slow-rm")) {
            if (opt_u64(a, v, &n) || n > 600000)
                return -1;
            *(a[7] == 'f' ? &o->pf_flush_ms : &o->rm_delay_ms) = (unsigned)n;
        } else if (!strcmp(a, "--stall-on")) {
            const char *colon = v ? strrchr(v, ':') : NULL;
            if (!colon || colon == v || opt_u64(a, colon + 1, &n) || n > 600000)
                return -1;
            o->stall_on = v;
            o->stall_len = (size_t)(colon - v);
            o->stall_ms = (unsigned)n;
        } else if (!strcmp(a, "--dump-delay")) {
            if (opt_u64(a, v, &n) || n > 600000)
                return -1;
            o->dump_delay_ms = (unsigned)n;
        } else if (!strcmp(a, "--sdk")) {
            if (opt_u64(a, v, &n) || n < 1 || n > 99)
                return -1;
            o->sdk = (int)n;
        } else if (!strcmp(a, "--disconnect-after") ||
                   !strcmp(a, "--disconnect-after-bytes")) {
            char first[32];
            const char *comma = v ? strchr(v, ',') : NULL;
            snprintf(first, sizeof(first), "%.*s", comma ? (int)(comma - v) : 31, v ? v : "");
            if (opt_u64(a, v ? first : NULL, &o->disconnect_after) ||
                (comma && opt_u64(a, comma + 1, &o->disconnect_later)))
                return -1;
        } else if (!strcmp(a, "--disconnect-pull-after")) {
            if (opt_u64(a, v, &o->disconnect_pull_after))
                return -1;
        } else if (!strcmp(a, "--disconnect-perfetto-after")) {
            if (opt_u64(a, v, &o->pf_drop_ms) || !o->pf_drop_ms)
                return -1;
        } else if (!strcmp(a, "--reconnect-after")) {
            if (v && !strcmp(v, "never"))
                o->reconnect_after_ms = SIM_NEVER;
            else if (opt_u64(a, v, &n) || n > 3600000)
                return -1;
            else
                o->reconnect_after_ms = (int64_t)n;
        } else if (!strcmp(a, "--rate")) {
            if (opt_u64(a, v, &o->rate))
                return -1;
        } else if (!strcmp(a, "--long-marker")) {
            if (opt_u64(a, v, &o->long_marker))
                return -1;
        } else if (!strcmp(a, "--size-mb")) {
            if (opt_u64(a, v, &o->size_mb) || o->size_mb > 100000)
                return -1;
        } else if (!strcmp(a, "--event-rate")) {
            if (opt_u64(a, v, &n) || n < 1 || n > 10000000)
                return -1;
            o->event_rate = (unsigned)n;
        } else if (!strcmp(a, "--zlevel")) {
            if (opt_u64(a, v, &n) || n > 9)
                return -1;
            o->zlevel = (int)n;
        } else if (!strcmp(a, "--seed")) {
            if (opt_u64(a, v, &n) || n > 0xffffffffu)
                return -1;
            o->seed = (uint32_t)n;
        } else {
            takes = 0;
            if (!strcmp(a, "--no-root"))
                o->no_root = 1;
            else if (!strcmp(a, "--no-z"))
                o->no_z = 1;
            else if (!strcmp(a, "--no-stream"))
                o->no_stream = 1;
            else if (!strcmp(a, "--no-tail-follow"))
                o->no_tail_follow = 1;
            else if (!strcmp(a, "--no-perfetto"))
                o->no_perfetto = 1;
            else if (!strcmp(a, "--launch-never-draws"))
                o->launch_never_draws = 1;
            else if (!strcmp(a, "--app-stopped"))
                o->app_stopped = 1;
            else if (!strcmp(a, "--traced-off"))
                o->traced_off = 1;
            else if (!strcmp(a, "--perfetto-unreadable"))
                o->pf_unreadable = 1;
            else if (!strcmp(a, "--perfetto-chatty"))
                o->pf_chatty = 1;
            else if (!strcmp(a, "--perfetto-corrupt"))
                o->pf_corrupt = 1;
            else if (!strcmp(a, "--perfetto-junk"))
                o->pf_junk = 1;
            else if (!strcmp(a, "--tracing-on-at-boot"))
                o->tracing_on_at_boot = 1;
            else if (!strcmp(a, "--legacy-ps"))
                o->legacy_ps = 1;
            else if (!strcmp(a, "--legacy-ps-headers"))
                o->legacy_ps = 2;
            else if (!strcmp(a, "--no-shell-v2"))
                o->no_shell_v2 = 1;
            else if (!strcmp(a, "--debugfs"))
                o->debugfs = 1;
            else if (!strcmp(a, "--old-protocol"))
                o->old_protocol = 1;
            else if (!strcmp(a, "--overflow"))
                o->overflow = 1;
            else if (!strcmp(a, "--drop-markers"))
                o->drop_markers = 1;
            else if (!strcmp(a, "--crlf"))
                o->crlf = 1;
            else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
                fputs(usage, stdout);
                exit(0);
            } else {
                fprintf(stderr, "adbsim: unknown option %s\n%s", a, usage);
                return -1;
            }
        }
        if (takes) {
            if (!v) {
                fprintf(stderr, "adbsim: %s needs a value\n", a);
                return -1;
            }
            i++;
        }
    }
    return 0;
}

static int listen_socket(int port, int *bound)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(sa);
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 64) ||
        getsockname(fd, (struct sockaddr *)&sa, &len)) {
        close(fd);
        return -1;
    }
    *bound = ntohs(sa.sin_port);
    return fd;
}

static int write_port_file(const char *path, int port)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
        return -1;
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    fprintf(f, "%d\n", port);
    if (fclose(f) || rename(tmp, path))
        return -1;
    return 0;
}

struct accepted {
    struct sim_device *dev;
    int fd;
};

static void *conn_thread(void *arg)
{
    struct accepted a = *(struct accepted *)arg;
    free(arg);
    sim_conn_serve(a.dev, a.fd);
    return NULL;
}

void sim_link_drop(struct sim_device *dev, uint64_t after_bytes)
{
    int64_t ms = dev->opt.reconnect_after_ms;
    pthread_mutex_lock(&dev->lock);
    dev->link_drops++;
    dev->down_until_ns = ms == SIM_NEVER ? UINT64_MAX
                                         : sim_now_ns() + (uint64_t)ms * 1000000u;
    pthread_mutex_unlock(&dev->lock);
    char msg[128];
    if (ms == SIM_NEVER)
        snprintf(msg, sizeof(msg), "down after %llu bytes, for good",
                 (unsigned long long)after_bytes);
    else
        snprintf(msg, sizeof(msg), "down after %llu bytes, back in %lld ms",
                 (unsigned long long)after_bytes, (long long)ms);
    sim_log(dev, "link", msg);
    sim_conn_drop_all();
}

void sim_drop_here(struct sim_device *dev, struct sim_stream *s, uint64_t after_bytes)
{
    if (s)
        sim_stream_flush(s);
    if (dev->opt.reconnect_after_ms >= 0)
        sim_link_drop(dev, after_bytes);
    else if (s)
        sim_stream_drop_connection(s);
    else
        sim_conn_drop_all();
}

int sim_drop_armed(struct sim_device *dev)
{
    pthread_mutex_lock(&dev->lock);
    int armed = dev->opt.reconnect_after_ms < 0 || !dev->link_drops;
    pthread_mutex_unlock(&dev->lock);
    return armed;
}

int sim_link_down(struct sim_device *dev)
{
    pthread_mutex_lock(&dev->lock);
    int down = dev->down_until_ns && sim_now_ns() < dev->down_until_ns;
    pthread_mutex_unlock(&dev->lock);
    return down;
}

static void accept_one(struct sim_device *dev, int lfd)
{
    int fd = accept(lfd, NULL, NULL);
    if (fd < 0)
        return;
    if (sim_link_down(dev)) {   /* accepted just before the socket closed */
        close(fd);
        return;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    int one = 1;    /* adbd disables Nagle too: small packets go at once */
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    struct accepted *a = malloc(sizeof(*a));
    pthread_attr_t attr;
    pthread_t t;
    if (!a) {
        close(fd);
        return;
    }
    a->dev = dev;
    a->fd = fd;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, conn_thread, a)) {
        close(fd);
        free(a);
    }
    pthread_attr_destroy(&attr);
}

/* --reconnect-after: while the link is down the listening socket is
 * closed (connections are refused, as by a phone whose adbd restarts or
 * whose Wi-Fi is gone); then it listens on the same port again.  1 while
 * there is nothing to accept. */
static int link_state(struct sim_device *dev, int *lfd, int port)
{
    if (sim_link_down(dev)) {
        if (*lfd >= 0) {
            close(*lfd);
            *lfd = -1;
        }
    } else if (*lfd < 0) {
        int bound = 0;
        *lfd = listen_socket(port, &bound);
        if (*lfd >= 0)
            sim_log(dev, "link", "up");
    }
    if (*lfd >= 0)
        return 0;
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
    return 1;
}

/* --exec: the shell with stdio as its streams. */
struct stdio_sink {
    struct sim_sink base;
    FILE *f;
};

static int stdio_write(struct sim_sink *k, const void *p, size_t n)
{
    FILE *f = ((struct stdio_sink *)k)->f;
    return fwrite(p, 1, n, f) == n ? 0 : -1;
}

static long stdin_read(struct sim_stdin *in, void *p, size_t n)
{
    (void)in;
    return (long)fread(p, 1, n, stdin);
}

static int run_local(struct sim_device *dev, const char *cmd)
{
    struct stdio_sink out = {{stdio_write, NULL, NULL}, stdout};
    struct stdio_sink err = {{stdio_write, NULL, NULL}, stderr};
    struct sim_stdin in = {stdin_read};
    struct sim_shell sh;
    sim_shell_init(&sh, dev, NULL, &in);
    sim_log(dev, "sh", cmd);
    int status = sim_shell_run(&sh, cmd, &out.base, &err.base);
    sim_shell_fini(&sh);
    fflush(stdout);
    return status;
}

static int device_init(struct sim_device *dev, const struct sim_opts *o)
{
    memset(dev, 0, sizeof(*dev));
    dev->opt = *o;
    dev->app_alive = !dev->opt.app_stopped;    /* the launcher is the home screen */
    dev->app_activity = dev->opt.app_stopped ? 0 : 2;
    dev->next_pid = 5000;
    pthread_mutex_init(&dev->lock, NULL);
    pthread_mutex_init(&dev->log_lock, NULL);
    if (o->log_path && !(dev->log = fopen(o->log_path, "a"))) {
        fprintf(stderr, "adbsim: cannot open %s\n", o->log_path);
        return -1;
    }
    char err[256];
    dev->fs = sim_fs_new(dev, o->fs_dir, err, sizeof(err));
    if (!dev->fs) {
        fprintf(stderr, "adbsim: %s\n", err);
        return -1;
    }
    dev->trace = sim_trace_new(dev);
    if (!dev->trace)
        return -1;
    pthread_mutex_lock(&dev->lock);
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
    return 0;
}

static void device_fini(struct sim_device *dev)
{
    sim_trace_free(dev->trace);
    sim_fs_free(dev->fs);
    if (dev->log)
        fclose(dev->log);
    pthread_mutex_destroy(&dev->lock);
    pthread_mutex_destroy(&dev->log_lock);
}

int main(int argc, char **argv)
{
    struct sim_opts o;
    struct sim_device dev;
    st_debug_init();
    if (parse_opts(argc, argv, &o))
        return 2;
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    if (device_init(&dev, &o))
        return 1;
    if (o.exec) {
        int status = run_local(&dev, o.exec);
        device_fini(&dev);
        return status;
    }
    int port = 0;
    int lfd = listen_socket(o.port, &port);
    if (lfd < 0) {
        fprintf(stderr, "adbsim: cannot listen on port %d: %s\n", o.port,
                strerror(errno));
        device_fini(&dev);
        return 1;
    }
    if (o.port_file && write_port_file(o.port_file, port)) {
        fprintf(stderr, "adbsim: cannot write %s\n", o.port_file);
        close(lfd);
        device_fini(&dev);
        return 1;
    }
    printf("listening on %d\n", port);
    fflush(stdout);
    ST_DBG(DBG_SIM, "listening on %d", port);

    while (!sim_stopping) {
        if (link_state(&dev, &lfd, port))
            continue;
        struct pollfd p = {.fd = lfd, .events = POLLIN};
        int r = poll(&p, 1, 50);
        if (r > 0 && (p.revents & POLLIN))
            accept_one(&dev, lfd);
    }
    if (lfd >= 0)
        close(lfd);
    sim_conn_shutdown_all();
    device_fini(&dev);
    return 0;
}
