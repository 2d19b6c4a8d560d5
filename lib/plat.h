/*
 * The platform layer: everything the program needs from the operating
 * system that POSIX and Windows spell differently, behind one interface.
 * It is the only place a platform header is included (scripts/checkplatform
 * keeps the rest of the tree to ISO C, this header and what it declares).
 *
 *   plat_posix.c, plat_posix_net.c, plat_posix_sig.c   Linux and macOS
 *   plat_win.c, plat_win_net.c, plat_win_sig.c         Windows (MinGW-w64)
 *   plat_addrs.c, plat_libc.c                          both (getaddrinfo;
 *                                                      string extras)
 *
 * Both sides keep the C runtime's descriptor model for files (open, read,
 * write, close, lseek through <unistd.h>, which MinGW-w64 also has) and
 * POSIX threads (Windows: the static winpthreads).  What differs is here:
 *
 * - Paths are UTF-8 everywhere; Windows converts at the call (and argv
 *   comes from the wide command line), so non-ASCII names work, and both
 *   '/' and '\' separate.
 * - Anything plat_poll watches is a "socket": on Windows a pipe from
 *   plat_pipe is a loopback socket pair and standard input is fed into one
 *   by a thread, since Windows can wait on sockets only.  Read, write and
 *   close those with plat_sock_read/write/close.
 * - Errors are errno values (Windows socket errors are mapped); plat_strerror
 *   knows the socket ones the Windows C runtime has no text for.
 */
#ifndef SYSTRACE_PLAT_H
#define SYSTRACE_PLAT_H

#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

#ifdef _WIN32
#define PLAT_WINDOWS 1
#define PLAT_NAME "Windows"
#define PLAT_SEP '\\'
#ifndef O_CLOEXEC
#define O_CLOEXEC 0x0080        /* _O_NOINHERIT */
#endif
#ifndef STDIN_FILENO
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#endif
/* What the MinGW C runtime lacks (GNU and POSIX 2008 extras; plat_libc.c). */
void *memmem(const void *hay, size_t hn, const void *needle, size_t nn);
void *memrchr(const void *p, int c, size_t n);
char *strndup(const char *s, size_t n);
#define PLAT_URL_OPENERS {NULL}     /* plat_shell_open instead */
#define PLAT_URL_OPENERS_TEXT "the default browser"
#else
#define PLAT_WINDOWS 0
#ifdef __APPLE__
#define PLAT_NAME "macOS"
void *memrchr(const void *p, int c, size_t n);     /* plat_libc.c: not in macOS's libc */
/* What opens a URL in the user's browser, after $BROWSER (src/browser.c) */
#define PLAT_URL_OPENERS {"open", NULL}
#define PLAT_URL_OPENERS_TEXT "open"
#else
#define PLAT_NAME "Linux"
#define PLAT_URL_OPENERS {"xdg-open", "sensible-browser", NULL}
#define PLAT_URL_OPENERS_TEXT "xdg-open, sensible-browser"
#endif
#define PLAT_SEP '/'
#endif

/* Once, first thing in main: sockets, binary standard streams, UTF-8
 * arguments (Windows replaces *argv; the strings live until exit). */
int plat_init(int *argc, char ***argv);

/* ---- time ---- */
int64_t plat_now_ms(void);          /* monotonic */
double plat_now_us(void);           /* monotonic, microseconds */
void plat_sleep_ms(int ms);
int plat_getpid(void);
/* n unpredictable bytes; 0, or -1 (the caller mixes in the clock). */
int plat_random(void *buf, size_t n);

/* ---- sockets, pipes and waiting ---- */
#define PLAT_POLLIN 0x0001
#define PLAT_POLLOUT 0x0004
#define PLAT_POLLERR 0x0008
#define PLAT_POLLHUP 0x0010
struct plat_pollfd {
    int fd;                         /* < 0: ignored */
    short events, revents;
};
/* At most this many entries per plat_poll (Windows' select sets hold 64). */
#define PLAT_POLL_MAX 64
/* poll(2): the count of ready entries, 0 at the timeout (ms, -1: none),
 * -1 with errno (EINTR: a signal came; its handler wrote the signal fd). */
int plat_poll(struct plat_pollfd *p, size_t n, int timeout_ms);
/* A non-blocking, close-on-exec pair plat_poll can watch: [0] reads. */
int plat_pipe(int fd[2]);
ssize_t plat_sock_read(int fd, void *p, size_t n);
ssize_t plat_sock_write(int fd, const void *p, size_t n);   /* never SIGPIPE */
void plat_sock_close(int fd);
int plat_sock_nonblock(int fd);
/* Standard input as something plat_poll can watch, and reading it. */
int plat_stdin_fd(void);
ssize_t plat_stdin_read(void *p, size_t n);

/* TCP.  Connecting is started per address of a resolved name, so the
 * caller can wait with its deadline and cancel fd (lib/net.c). */
struct plat_addrs;
/* 0, or -1 with the resolver's text in err. */
int plat_resolve(const char *host, unsigned port, struct plat_addrs **out, char *err,
                 size_t errlen);
size_t plat_addrs_count(const struct plat_addrs *a);
void plat_addrs_free(struct plat_addrs *a);
/* Start a non-blocking connect to address i: 0 connected or under way
 * (*pending), -1 with errno. */
int plat_connect_start(const struct plat_addrs *a, size_t i, int *fd, int *pending);
/* After the socket polled writable: 0, or the connect's errno. */
int plat_connect_result(int fd);
/* A listener on 127.0.0.1:port (close-on-exec, SO_REUSEADDR); -1 + errno. */
int plat_listen_loopback(int port);
int plat_accept(int lfd);
/* errno's text, also for the socket errors Windows keeps apart. */
const char *plat_strerror(int err);

/* ---- files (UTF-8 paths) ---- */
enum plat_kind { PLAT_FILE, PLAT_DIR, PLAT_LINK, PLAT_OTHER };
struct plat_stat {
    enum plat_kind kind;
    uint64_t size;
    unsigned mode;                  /* permission bits (Windows: 0644 or 0444) */
    unsigned uid, gid;
    uint64_t dev, ino;              /* the same file has the same pair */
};
int plat_open(const char *path, int flags, unsigned mode);
FILE *plat_fopen(const char *path, const char *mode);
int plat_stat(const char *path, struct plat_stat *st);
int plat_lstat(const char *path, struct plat_stat *st);
int plat_fstat(int fd, struct plat_stat *st);
/* A read-only view of the first n (> 0) bytes of the file open on fd,
 * straight from the page cache: on a VM, reading a 2.6 MB file into fresh
 * memory costs 20 ms of page faults, a view 2 ms.  NULL where the platform
 * has none (Windows) or it fails: read the file instead.  Only for files
 * replaced by rename, never rewritten in place (a view of a file cut short
 * under it faults). */
void *plat_map_file(int fd, size_t n);
void plat_unmap_file(void *p, size_t n);
int plat_same_file(const char *a, const char *b);   /* 1: both name one file */
int plat_access(const char *path, int mode);        /* R_OK, W_OK, X_OK, F_OK */
int plat_unlink(const char *path);
int plat_mkdir(const char *path, unsigned mode);
/* Replace `to` by `from` atomically (rename(2); Windows MoveFileEx). */
int plat_rename(const char *from, const char *to);
/* Rename only if `to` does not exist: -1 with EEXIST if it does. */
int plat_rename_noreplace(const char *from, const char *to);
/* mkstemp: TEMPLATE ends in XXXXXX; binary, close-on-exec, mode 0600. */
int plat_mkstemp(char *tmpl);
/* plat_mkstemp, the file then on the tmpfiles list, with no signal between
 * the two (a Ctrl-C an instant after the file appears leaves none). */
int plat_mkstemp_listed(char *tmpl);
ssize_t plat_pread(int fd, void *p, size_t n, uint64_t off);
ssize_t plat_pwrite(int fd, const void *p, size_t n, uint64_t off);
int plat_ftruncate(int fd, uint64_t size);
int plat_seek(int fd, uint64_t off);
int plat_fsync(int fd);
int plat_fchmod(int fd, unsigned mode);             /* Windows: nothing to do */
int plat_fchown(int fd, unsigned uid, unsigned gid);
/* Only the owner may use path (a private key): mode 0600; on Windows a
 * protected DACL (nothing inherited) granting the current user alone. */
int plat_make_private(const char *path);
/* readlink(2) into buf (NUL-terminated): length, or -1 (Windows: EINVAL). */
ssize_t plat_readlink(const char *path, char *buf, size_t n);
/* The mode for a new file: 0666 minus the umask. */
unsigned plat_new_file_mode(void);
/* The absolute form of an existing path; malloc'd, NULL + errno. */
char *plat_realpath(const char *path);
int plat_isatty(int fd);
/* The CPUs this process may run on, at least 1. */
int plat_ncpus(void);
/* For many threads each converting one small trace after another: keep
 * freed memory for the next conversion instead of handing it back to the
 * system each time (glibc: big blocks from the heap rather than mmap, a
 * high trim threshold), since mapping and unmapping serialise the threads
 * on the process's address space.  Elsewhere a no-op. */
void plat_malloc_for_workers(void);
/* The directory for temporary files ($TMPDIR or /tmp; %TEMP%). */
const char *plat_tmpdir(void);
/* The device that takes every write and keeps none (/dev/null; NUL). */
const char *plat_null_device(void);
/* The user's home ($HOME; %USERPROFILE%), or NULL. */
const char *plat_home(void);
/* The user's cache directory for APP: $XDG_CACHE_HOME/APP or
 * ~/.cache/APP; %LOCALAPPDATA%\APP.  0, or -1 when there is none. */
int plat_cache_dir(const char *app, char *buf, size_t n);
/* The login name ($LOGNAME; %USERNAME%), or NULL; this machine's name. */
const char *plat_username(void);
int plat_hostname(char *buf, size_t n);
int plat_is_sep(char c);
/* The last separator in PATH, or NULL. */
const char *plat_last_sep(const char *path);
int plat_is_absolute(const char *path);
/* A temporary file that disappears when done: the fd, and in PATH a name
 * that reads it while it is open.  -1 + errno. */
int plat_tmpfile_open(char *path, size_t n);
void plat_tmpfile_done(int fd, const char *path);

/* Directory listing: names, without "." and "..". */
struct plat_dir;
struct plat_dir *plat_opendir(const char *path);
const char *plat_readdir(struct plat_dir *d);
void plat_closedir(struct plat_dir *d);

/* ---- threads ---- */
/* pthread_create with every signal blocked in the new thread, so only the
 * main thread runs the handlers.  0 or an errno value. */
int plat_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);

/* ---- processes ---- */
/* Start CMDLINE (POSIX: `sh -c`, with "$1" the argument) detached, and
 * report whether it failed at once: 0, its exit status, -1 if it could not
 * start.  Waits at most wait_ms for it to end. */
int plat_spawn_detached(const char *cmdline, const char *arg, int wait_ms);
/* Windows: hand ARG (a URL or file) to the shell's default handler
 * (ShellExecute); 0, or -1 with a reason in err.  POSIX: -1 (use a
 * command). */
int plat_shell_open(const char *arg, char *err, size_t errlen);
/* Whether PROG (a command's first word) can be run: on PATH or a path. */
int plat_runnable(const char *prog);

/* ---- signals and console control (used by lib/signals.c) ---- */
enum plat_sig { PLAT_SIGINT = 1, PLAT_SIGHUP, PLAT_SIGTERM, PLAT_SIGQUIT, PLAT_SIGALRM };
/* Call deliver for every stop request (POSIX signals; Windows console
 * events: Ctrl-C and Ctrl-Break as SIGINT, closing the console as SIGHUP,
 * log-off and shutdown as SIGTERM).  deliver runs in a signal handler
 * (POSIX) or a thread of its own (Windows): async-signal-safe only. */
void plat_sig_install(void (*deliver)(enum plat_sig sig));
void plat_sig_restore(void);
/* Deliver PLAT_SIGALRM after seconds (0: disarm). */
void plat_alarm(int seconds);
/* Write to stderr from a handler. */
void plat_sig_say(const char *s);
void plat_exit_now(int status) __attribute__((noreturn));

#endif
