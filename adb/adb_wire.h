/*
 * Internals of the direct transports (no adb server): the ADB wire
 * protocol spoken to adbd over TCP or USB (docs/direct-transport.md,
 * reference/adb-protocol.md sections c, d, e).
 *
 *   struct adb_ptrans   moves whole packets to/from adbd: TCP
 *                       (adb_conn_tcpdirect.c) or USB (adb_usb.c)
 *   struct adb_wire     one connection: CNXN/AUTH handshake, then OPEN /
 *                       OKAY / WRTE / CLSE multiplexing several streams
 *                       (adb_wire.c); single-threaded: whichever stream
 *                       waits reads the next packet and files it under
 *                       its stream
 *   adb_auth.c          keys (~/.android/adbkey, $ADB_VENDOR_KEYS),
 *                       signing, adbkey.pub encoding; the only OpenSSL user
 */
#ifndef SYSTRACE_ADB_WIRE_H
#define SYSTRACE_ADB_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "adb_int.h"
#include "packet.h"

/* ---- packet transport ------------------------------------------------- */

struct adb_ptrans;

struct adb_ptrans_ops {
    /* 1..n bytes of what the device sent (the wire layer asks for the rest
     * of the current header, then the rest of its payload).  ST_ECLOSED
     * when the device went away.  ST_EINTR / ST_ETIMEOUT lose nothing. */
    enum st_err (*read)(struct adb_ptrans *t, void *p, size_t n, size_t *got,
                        int64_t deadline);
    /* One packet: the 24-byte header, then the payload (USB: two transfers
     * and a zero-length packet when the payload is a multiple of the
     * endpoint's packet size).  ST_EINTR only before any byte went out. */
    enum st_err (*send)(struct adb_ptrans *t, const uint8_t hdr[ADB_HDR_LEN],
                        const void *data, size_t n, int64_t deadline);
    void (*close)(struct adb_ptrans *t);    /* also frees */
};

struct adb_ptrans {
    const struct adb_ptrans_ops *ops;
    struct adb_io io;
    char err[ADB_ERRLEN];
};

/* TCP to adbd at host:port (adb tcpip devices, emulators). */
enum st_err adb_ptrans_tcp_connect(const char *host, unsigned port,
                                   const struct adb_io *io,
                                   struct adb_ptrans **out, char *err,
                                   size_t errlen);

/* ---- keys (adb_auth.c) ------------------------------------------------- */

struct adb_key;         /* an RSA private key */
struct adb_pubkey;      /* an RSA public key from an adbkey.pub line */

#define ADB_AUTH_SIG_MAX 512
#define ADB_PUBKEY_WORDS 64                 /* RSA-2048 */
#define ADB_PUBKEY_STRUCT (12 + 8 * ADB_PUBKEY_WORDS)   /* 524 bytes */
#define ADB_KEYFILE_MAX (64u << 10)

/* A PEM private key: PKCS#8 ("BEGIN PRIVATE KEY") or PKCS#1 ("BEGIN RSA
 * PRIVATE KEY"), unencrypted RSA only.  ST_EFORMAT otherwise. */
enum st_err adb_key_parse(const void *pem, size_t len, struct adb_key **out);
enum st_err adb_key_load(const char *path, struct adb_key **out,
                         char *err, size_t errlen);
void adb_key_free(struct adb_key *k);
/* PKCS#1 v1.5 signature of the 20-byte token used as a SHA-1 digest (what
 * adb's RSA_sign(NID_sha1, ...) does).  sig holds ADB_AUTH_SIG_MAX. */
enum st_err adb_key_sign(const struct adb_key *k, const uint8_t *token,
                         size_t tlen, uint8_t *sig, size_t *siglen);
/* base64 of Android's RSAPublicKey struct (no user@host, no NUL). */
enum st_err adb_key_pub_b64(const struct adb_key *k, struct dynbuf *out);
/* Create an RSA-2048 key like adb: PKCS#8 PEM at path (mode 0600, the
 * directory made 0750 when missing) and path.pub ("B64 user@host").
 * ST_EINVAL if path exists. */
enum st_err adb_key_generate(const char *path, char *err, size_t errlen);

/* One adbkey.pub / adb_keys line: "B64 [comment]".  ST_EFORMAT unless it
 * decodes to a 524-byte RSA-2048 struct. */
enum st_err adb_pubkey_parse(const char *line, size_t len, struct adb_pubkey **out);
void adb_pubkey_free(struct adb_pubkey *k);
/* 1 when sig is k's signature of token (as adbd checks it). */
int adb_pubkey_verify(const struct adb_pubkey *k, const uint8_t *token,
                      size_t tlen, const uint8_t *sig, size_t siglen);

/* The keys a host offers: ~/.android/adbkey first (created when missing
 * and create is set), then $ADB_VENDOR_KEYS (files, or *.adb_key in
 * directories), de-duplicated.  Unreadable files are skipped (debug log,
 * never key material). */
struct adb_keyring {
    struct adb_key **v;
    size_t n;
    char user_path[4096];   /* the user key's file ("" if none) */
};
enum st_err adb_keyring_load(struct adb_keyring *kr, const char *home,
                             const char *vendor, int create, char *err,
                             size_t errlen);
void adb_keyring_clear(struct adb_keyring *kr);
/* "user@host" for the public key's comment. */
void adb_auth_user_host(char *out, size_t n);

/* ---- wire connection (adb_wire.c) -------------------------------------- */

struct adb_wire;

/* How the handshake authenticates. */
struct adb_wire_auth {
    const char *home;           /* key directory parent; NULL: $HOME */
    const char *vendor_keys;    /* NULL: $ADB_VENDOR_KEYS */
    int wait_ms;                /* after sending the public key; <= 0: 60 s */
    /* Told once when the device shows its "Allow USB debugging?" prompt. */
    void (*notify)(void *ctx, const char *msg);
    void *ctx;
};

/* Send CNXN, answer AUTH, wait for the device's CNXN.  Takes the
 * transport (closed on failure).  ST_EUNAUTH when every key was refused
 * and nobody accepted the prompt in time. */
enum st_err adb_wire_connect(struct adb_ptrans *t, const struct adb_wire_auth *auth,
                             struct adb_wire **out, char *err, size_t errlen);
void adb_wire_free(struct adb_wire *w);     /* when every stream is freed too */
/* ST_OK while usable; else why the connection ended (every stream fails). */
enum st_err adb_wire_dead(const struct adb_wire *w);
uint32_t adb_wire_version(const struct adb_wire *w);
size_t adb_wire_maxdata(const struct adb_wire *w);
const struct adb_banner *adb_wire_banner(const struct adb_wire *w);
/* Open a service as a struct adb_stream; ST_EFAIL when the device
 * answers CLSE. */
enum st_err adb_wire_open(struct adb_wire *w, const struct adb_io *io,
                          const char *service, struct adb_stream **out,
                          char *err, size_t errlen);

/* Host features we offer in our CNXN banner. */
#define ADB_HOST_FEATURES "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,abb," \
                          "fixed_push_symlink_timestamp,abb_exec,remount_shell"

/* A struct adb_device over a connected wire (takes it).  devpath like
 * "tcp:HOST:PORT" or "usb:1-2". */
enum st_err adb_wire_device_new(struct adb_wire *w, const struct adb_io *io,
                                const char *serial, const char *devpath,
                                struct adb_device **out);

/* TCP to adbd (adb_wire_dev.c); serial is what the device is called. */
enum st_err adb_device_open_tcp(const struct adb_direct_params *p,
                                const char *serial, const struct adb_addr *a,
                                struct adb_device **out);
/* USB through libusb (adb_usb.c): the device whose serial (or devpath
 * usb:BUS-PORT.PORT) matches, or the only one when serial is NULL. */
enum st_err adb_usb_open(const struct adb_direct_params *p, const char *serial,
                         struct adb_device **out);

#endif
