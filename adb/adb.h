/*
 * Native ADB client: the one public header of the adb/ library.
 *
 * Talks to Android devices without the adb binary, through the adb
 * server's smart socket (docs/adb-client.md, protocol notes in
 * reference/adb-protocol.md sections a and b) or directly to adbd over
 * TCP or USB (docs/direct-transport.md, sections c-e), behind the same
 * struct adb_device / struct adb_stream.
 *
 * Rules: nothing here prints (except SYSTRACE_DEBUG=adb logging) or exits.
 * Calls return enum st_err (lib/error.h); the object that failed keeps a
 * detail message (adb_client_error, adb_device_error, adb_stream_error,
 * adb_sync_error).  Every blocking step waits with poll() for at most the
 * object's timeout and returns ST_ETIMEOUT, or ST_EINTR as soon as the
 * optional cancel fd becomes readable (a self-pipe written by a signal
 * handler; the library never reads it, so it stays readable until its
 * owner drains it).
 *
 * Commands that reach the device shell are built from argv and quoted
 * here; the *_script variants take trusted shell text as it is.
 */
#ifndef SYSTRACE_ADB_H
#define SYSTRACE_ADB_H

#include <stddef.h>
#include <stdint.h>

#include "lib/dynbuf.h"
#include "lib/error.h"

/* Default wait for any one blocking step (connect, a read, a write). */
#define ADB_DEFAULT_TIMEOUT_MS 30000
/* Exit status when the channel does not report one (legacy shell, exec). */
#define ADB_EXIT_UNKNOWN (-1)

/* ---- client: where the adb server is, timeouts, cancellation ---------- */

struct adb_client;

/* Server 127.0.0.1:5037, ADB_DEFAULT_TIMEOUT_MS, no cancel fd.  NULL only
 * when out of memory. */
struct adb_client *adb_client_new(void);
void adb_client_free(struct adb_client *c);

/* Take the server address from the environment: ADB_SERVER_SOCKET
 * ("tcp:HOST:PORT"), else ANDROID_ADB_SERVER_ADDRESS / _PORT, else the
 * default.  ST_EINVAL (detail in adb_client_error) for a malformed value. */
enum st_err adb_client_use_env(struct adb_client *c);
/* "tcp:HOST:PORT", "HOST:PORT" or "PORT"; IPv6 hosts as [::1]. */
enum st_err adb_client_set_server(struct adb_client *c, const char *spec);
/* "HOST:PORT" as used for connecting; for messages. */
const char *adb_client_server(const struct adb_client *c);

/* timeout_ms <= 0: wait forever.  Devices opened later copy both. */
void adb_client_set_timeout(struct adb_client *c, int timeout_ms);
void adb_client_set_cancel_fd(struct adb_client *c, int fd); /* -1: none */
const char *adb_client_error(const struct adb_client *c);

/* ---- host services (answered by the server itself) --------------------- */

/* host:version.  ST_ECONNECT when no server answers (the detail names the
 * address and says to run `adb start-server`).  Never restarts a server:
 * comparing versions is the caller's business. */
enum st_err adb_server_version(struct adb_client *c, unsigned *version);

/* One line of host:devices-l.  Missing fields are "" (never NULL). */
enum adb_state {
    ADB_STATE_DEVICE,       /* online, usable */
    ADB_STATE_OFFLINE,
    ADB_STATE_UNAUTHORIZED, /* the "Allow USB debugging?" prompt waits */
    ADB_STATE_NOPERM,       /* "no permissions (...)": udev rules */
    ADB_STATE_OTHER,        /* bootloader, recovery, sideload, ... */
};

struct adb_device_info {
    char *serial;
    char *state;            /* as the server printed it */
    enum adb_state st;
    char *devpath;          /* "usb:1-1" */
    char *product, *model, *device;
    uint64_t transport_id;  /* 0 when absent */
};

struct adb_device_list {
    size_t n;
    struct adb_device_info *v;
};

/* host:devices-l, parsed.  *out is always a list (maybe empty) on ST_OK. */
enum st_err adb_server_devices(struct adb_client *c, struct adb_device_list **out);
void adb_device_list_free(struct adb_device_list *l);

/* Pure parser of a devices-l reply body (also accepts the short
 * "serial\tstate" form).  ST_EFORMAT for a line it cannot read. */
enum st_err adb_devices_parse(const char *text, size_t len,
                              struct adb_device_list **out);

/* Device selection as adb/catapult do it: the explicit serial (or devpath
 * like usb:1-1) when given, else env_serial ($ANDROID_SERIAL) when set and
 * non-empty, else the only device in state "device".  On success *index
 * is the chosen entry.  Errors, with a detail message in err:
 *   ST_ENOENT     serial not connected (lists what is)
 *   ST_ENODEVICE  nothing connected, or nothing ready (lists states)
 *   ST_EMULTIDEV  several ready devices (lists them)
 *   ST_EUNAUTH    unauthorized: accept the prompt on the device
 *   ST_EOFFLINE, ST_EPERM (no permissions), ST_EDEVICE (other states) */
enum st_err adb_select(const struct adb_device_list *l, const char *serial,
                       const char *env_serial, size_t *index,
                       char *err, size_t errlen);

/* ---- a device ----------------------------------------------------------- */

struct adb_device;

/* List devices, select one (serial may be NULL; $ANDROID_SERIAL is read
 * here), fetch its features.  Errors as adb_select, detail in the client.
 * The client may be freed before the device. */
enum st_err adb_device_open(struct adb_client *c, const char *serial,
                            struct adb_device **out);
void adb_device_free(struct adb_device *d);

const struct adb_device_info *adb_device_info(const struct adb_device *d);
/* Feature usable on this path: offered by the device and by the server. */
int adb_device_has_feature(const struct adb_device *d, const char *feature);
/* Comma-separated usable features, for logs. */
const char *adb_device_features(const struct adb_device *d);
/* After the connection to the device dropped: wait until it is usable
 * again, for at most timeout_ms (<= 0: the device's timeout), as a
 * bounded `adb wait-for-device`.  Over the server: until host:devices-l
 * lists it as "device" again (the server reconnects `adb connect`ed
 * devices on its own schedule: Debian's 29.0.6 tries 0.25 s after the
 * drop, then every 10 s, six times); direct TCP: by connecting and
 * authenticating again every 250 ms.  ST_OK at once when it is usable.
 * ST_ETIMEOUT (detail: what it was last seen as), ST_EINTR (cancel fd),
 * ST_EUNAUTH (direct: our key is refused now), ST_EUNSUPPORTED (direct
 * USB: not reopened). */
enum st_err adb_device_wait(struct adb_device *d, int timeout_ms);
void adb_device_set_timeout(struct adb_device *d, int timeout_ms);
void adb_device_set_cancel_fd(struct adb_device *d, int fd);
const char *adb_device_error(const struct adb_device *d);

/* ---- direct transports (no adb server; docs/direct-transport.md) ------- */

enum adb_transport {
    ADB_TRANSPORT_AUTO,     /* the server when one answers, else direct */
    ADB_TRANSPORT_SERVER,
    ADB_TRANSPORT_DIRECT,
};
/* "auto", "server", "direct"; ST_EINVAL otherwise. */
enum st_err adb_transport_parse(const char *s, enum adb_transport *t);

/* Talk to adbd itself: serial "HOST:PORT" (or "emulator-N") over TCP,
 * anything else (or NULL: the only one) over USB through libusb.
 * Authenticates with ~/.android/adbkey (created like adb does when
 * missing) and $ADB_VENDOR_KEYS; when the device refuses every key, the
 * public key is offered, the notify callback is told to ask the user to
 * accept the prompt, and the call waits up to the auth wait.  Errors
 * (detail in the client): ST_ECONNECT, ST_EUNAUTH, ST_ENODEVICE,
 * ST_EMULTIDEV, ST_ENOENT, ST_EPERM (udev), ST_EDEVICE (USB interface
 * held by another program such as the adb server), ST_EUNSUPPORTED. */
enum st_err adb_device_open_direct(struct adb_client *c, const char *serial,
                                   struct adb_device **out);
/* Called (from the opening thread) with a one-line message for the user. */
void adb_client_set_auth_notify(struct adb_client *c,
                                void (*notify)(void *ctx, const char *msg),
                                void *ctx);
/* How long to wait for the user to accept the key (<= 0: 60 s). */
void adb_client_set_auth_wait(struct adb_client *c, int ms);

/* ---- raw streams to one device service --------------------------------- */

struct adb_stream;

/* Open a service ("exec:...", "sync:", "tcp:8080").  The service string
 * is sent as is: quote what goes into it (adb_quote_arg).  ST_EFAIL when
 * the device refused it (detail: the server's message). */
enum st_err adb_stream_open(struct adb_device *d, const char *service,
                            struct adb_stream **out);
/* Reads 1..n bytes; *got == 0 means the service closed its end. */
enum st_err adb_stream_read(struct adb_stream *s, void *p, size_t n, size_t *got);
/* Reads exactly n bytes; ST_ECLOSED if the service ends first. */
enum st_err adb_stream_read_full(struct adb_stream *s, void *p, size_t n);
enum st_err adb_stream_write(struct adb_stream *s, const void *p, size_t n);
void adb_stream_free(struct adb_stream *s);  /* closes the service */
const char *adb_stream_error(const struct adb_stream *s);

/* ---- commands ----------------------------------------------------------- */

enum adb_mode {
    ADB_SHELL,          /* shell v2 when usable, else legacy shell */
    ADB_SHELL_V2,       /* shell v2 or ST_EUNSUPPORTED */
    ADB_SHELL_LEGACY,   /* shell:CMD: stdout+stderr merged, exit unknown */
    ADB_EXEC,           /* exec:CMD: binary-clean stdout, exit unknown */
};

/* Output of a command run to completion.  out/err are NUL-terminated
 * (the NUL is not counted) and never NULL after adb_run*, even on error
 * (they then hold what arrived).  err stays empty unless split is set. */
struct adb_result {
    int exit_code;      /* 0..255, or ADB_EXIT_UNKNOWN */
    int split;          /* 1: stderr was kept apart (shell v2) */
    char *out;
    size_t out_len;
    char *err;
    size_t err_len;
};
void adb_result_free(struct adb_result *r);   /* frees out/err, not r */

/* Run argv (each element single-quoted for the device sh) and collect
 * stdout and stderr, each up to max bytes: more is ST_ETOOBIG, never a
 * silent cut.  A non-zero exit status is not an error: check exit_code.
 * ST_ECLOSED: a shell v2 stream ended without an exit status. */
enum st_err adb_run(struct adb_device *d, enum adb_mode mode,
                    const char *const *argv, size_t max, struct adb_result *r);
/* Same with trusted shell text (pipes, redirections) sent unquoted. */
enum st_err adb_run_script(struct adb_device *d, enum adb_mode mode,
                           const char *script, size_t max, struct adb_result *r);

/* Receiver for streamed bytes.  Callbacks return ST_OK to go on; any other
 * code stops the transfer and is returned (the device side is closed). */
struct adb_sink {
    /* stdout (or file data for sync pulls); NULL drops the bytes */
    enum st_err (*out)(void *ctx, const void *p, size_t n);
    /* stderr (shell v2 only; other modes merge it into out); NULL drops */
    enum st_err (*err)(void *ctx, const void *p, size_t n);
    /* after every chunk: bytes delivered so far, total when known else 0 */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *ctx;
};

/* Run argv and hand output to the sink as it arrives; nothing is
 * buffered beyond one read.  *exit_code (may be NULL) gets the status or
 * ADB_EXIT_UNKNOWN.  The per-step timeout bounds silence, not the run. */
enum st_err adb_stream_cmd(struct adb_device *d, enum adb_mode mode,
                           const char *const *argv, const struct adb_sink *sink,
                           int *exit_code);
enum st_err adb_stream_script(struct adb_device *d, enum adb_mode mode,
                              const char *script, const struct adb_sink *sink,
                              int *exit_code);

/* ---- a command read piece by piece -------------------------------------- */

/* A command that runs for as long as it likes (atrace --stream: a trace
 * streamed for hours) and is read a slice at a time, so the caller can do
 * other things in between and decide when it has waited enough.  No step
 * timeout applies to its reading: each adb_cmd_read says how long to wait.
 * The command is the trusted script text as given (quote arguments with
 * adb_quote_argv); close-stdin is sent right after a shell v2 open. */
struct adb_cmd;

/* Open the command (detail in adb_device_error on failure). */
enum st_err adb_cmd_start(struct adb_device *d, enum adb_mode mode, const char *script,
                          struct adb_cmd **out);
/* Wait up to wait_ms for output and hand what arrived (one read) to the
 * sink.  ST_OK: something arrived, or the command ended (adb_cmd_ended);
 * ST_ETIMEOUT: nothing came, it goes on; ST_EINTR: the cancel fd; other
 * codes: the stream broke (ST_ECLOSED: a shell v2 stream ended without an
 * exit status, e.g. the link dropped), detail in adb_cmd_error. */
enum st_err adb_cmd_read(struct adb_cmd *c, const struct adb_sink *sink, int wait_ms);
/* 1 once the command ended (its exit status, or the end of its stream
 * when the channel has none). */
int adb_cmd_ended(const struct adb_cmd *c);
/* Its exit status, or ADB_EXIT_UNKNOWN. */
int adb_cmd_exit_code(const struct adb_cmd *c);
/* Reads watch fd (-1: none) instead of the device's cancel fd. */
void adb_cmd_set_cancel_fd(struct adb_cmd *c, int fd);
const char *adb_cmd_error(const struct adb_cmd *c);
/* Closes the stream: a command still running is hung up on by adbd.
 * NULL is a no-op. */
void adb_cmd_free(struct adb_cmd *c);

/* ---- quoting ------------------------------------------------------------ */

/* Append arg single-quoted for the device sh ('it'\''s'), preceded by a
 * space when cmd is not empty. */
enum st_err adb_quote_arg(struct dynbuf *cmd, const char *arg);
/* Append every element of a NULL-terminated argv. */
enum st_err adb_quote_argv(struct dynbuf *cmd, const char *const *argv);
/* 1 if s is a non-empty plain token: letters, digits and _ - . , : / = + @
 * only (category names, serials, package names).  0 otherwise. */
int adb_is_plain_token(const char *s);

/* ---- sync: file transfer ----------------------------------------------- */

struct adb_sync;

struct adb_stat {
    uint32_t mode;      /* st_mode; 0 when the file does not exist (v1) */
    uint64_t size;
    int64_t mtime;
    uint32_t error;     /* device errno (stat_v2 only), 0 when fine */
};

/* Opens "sync:"; uses STA2 when stat_v2 is usable.  Detail on failure in
 * the device. */
enum st_err adb_sync_open(struct adb_device *d, struct adb_sync **out);
void adb_sync_free(struct adb_sync *s);   /* sends QUIT, closes */
const char *adb_sync_error(const struct adb_sync *s);

/* ST_ENOENT (detail: the device's reason) when the path does not exist. */
enum st_err adb_sync_stat(struct adb_sync *s, const char *path, struct adb_stat *st);
/* File bytes to sink->out in order, in chunks of at most 64 KiB; any size.
 * After a device FAIL (ST_EDEVICE) the session is over: open a new one. */
enum st_err adb_sync_pull(struct adb_sync *s, const char *path,
                          const struct adb_sink *sink);
/* Pull to a host file: written to a temp file beside it, renamed into
 * place only when complete (mode 0644). */
enum st_err adb_sync_pull_file(struct adb_sync *s, const char *path,
                               const char *local, const struct adb_sink *progress);
/* Directory entries (without "." and ".."), one callback each. */
enum st_err adb_sync_list(struct adb_sync *s, const char *path,
                          enum st_err (*cb)(void *ctx, const char *name,
                                            const struct adb_stat *st),
                          void *ctx);

#endif
