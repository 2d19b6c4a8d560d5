/*
 * ADB host keys (reference/adb-protocol.md section d): loading
 * ~/.android/adbkey (PEM, PKCS#8 or PKCS#1) and $ADB_VENDOR_KEYS,
 * signing the device's 20-byte token (RSA PKCS#1 v1.5 with a SHA-1
 * DigestInfo around the raw token, i.e. adb's RSA_sign(NID_sha1)),
 * Android's adbkey.pub encoding (base64 of the 524-byte RSAPublicKey
 * struct: len, n0inv, n, R^2 mod n, e; little-endian words), key
 * generation like adb, and the device-side check (for the simulator and
 * tests).  The RSA work is lib/rsakey.h (OpenSSL, or Windows' CNG); R^2 mod
 * n is computed here, by shifts, so both have the same code for it.
 * Nothing here logs key material.
 * Limits: RSA-2048 for the public-key format (what adb uses); no
 * encrypted PEM; key files up to 64 KiB.
 */
#include "adb_wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base64.h"
#include "lib/debug.h"
#include "lib/plat.h"
#include "lib/rsakey.h"

/* What lib/rsakey.h says with ST_EUNSUPPORTED (the Windows build, today). */
#define NO_RSA "this build cannot use RSA keys yet, so no direct connection can " \
               "authenticate; use the adb server"

struct adb_key {
    struct rsakey *k;
};

struct adb_pubkey {
    struct rsakey *k;
};

enum st_err adb_key_parse(const void *pem, size_t len, struct adb_key **out)
{
    *out = NULL;
    if (len > ADB_KEYFILE_MAX)
        return ST_ETOOBIG;
    struct rsakey *rk;
    enum st_err e = rsakey_parse_pem(pem, len, 8 * ADB_AUTH_SIG_MAX, &rk);
    if (e)
        return e;
    struct adb_key *k = calloc(1, sizeof *k);
    if (!k) {
        rsakey_free(rk);
        return ST_ENOMEM;
    }
    k->k = rk;
    *out = k;
    return ST_OK;
}

static enum st_err read_small_file(const char *path, struct dynbuf *b,
                                   char *err, size_t errlen)
{
    int fd = plat_open(path, O_RDONLY, 0);
    if (fd < 0) {
        adb_seterr(err, errlen, "%s: %s", path, strerror(errno));
        return errno == ENOENT ? ST_ENOENT : errno == EACCES ? ST_EPERM : ST_EIO;
    }
    enum st_err e = ST_OK;
    char buf[4096];
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            adb_seterr(err, errlen, "%s: %s", path, strerror(errno));
            e = ST_EIO;
            break;
        }
        if (!r)
            break;
        if ((e = dynbuf_add(b, buf, (size_t)r))) {
            adb_seterr(err, errlen, "%s: larger than %u bytes", path, ADB_KEYFILE_MAX);
            break;
        }
    }
    close(fd);
    return e;
}

enum st_err adb_key_load(const char *path, struct adb_key **out,
                         char *err, size_t errlen)
{
    *out = NULL;
    struct dynbuf b;
    dynbuf_init(&b, ADB_KEYFILE_MAX);
    enum st_err e = read_small_file(path, &b, err, errlen);
    if (!e) {
        e = adb_key_parse(b.data, b.len, out);
        if (e)
            adb_seterr(err, errlen, e == ST_EUNSUPPORTED ? "%s: " NO_RSA
                                                         : "%s: not an unencrypted RSA "
                                                           "private key in PEM", path);
    }
    crypto_cleanse(b.data, b.len);
    dynbuf_free(&b);
    return e;
}

void adb_key_free(struct adb_key *k)
{
    if (!k)
        return;
    rsakey_free(k->k);
    free(k);
}

enum st_err adb_key_sign(const struct adb_key *k, const uint8_t *token,
                         size_t tlen, uint8_t *sig, size_t *siglen)
{
    *siglen = 0;
    if (tlen != ADB_AUTH_TOKEN_LEN)
        return ST_EINVAL;
    return rsakey_sign_sha1(k->k, token, tlen, sig, ADB_AUTH_SIG_MAX, siglen);
}

/* -1/n0 mod 2^32 (n0 odd), by Newton's iteration. */
static uint32_t n0inv32(uint32_t n0)
{
    uint32_t x = n0;
    for (int i = 0; i < 5; i++)
        x *= 2u - n0 * x;
    return 0u - x;
}

/* R^2 mod n for R = 2^(32 * words): doubling 2 * 32 * words times from 1,
 * subtracting n whenever the value reaches it.  n is little-endian words,
 * its top bit set (a key of exactly 32 * words bits), so r < n < 2^top
 * and r << 1 never needs more than one extra bit. */
static void r_squared(const uint32_t *n, size_t words, uint32_t *r)
{
    memset(r, 0, words * sizeof *r);
    r[0] = 1;
    for (size_t step = 0; step < 64 * words; step++) {
        uint32_t carry = 0;
        for (size_t i = 0; i < words; i++) {
            uint32_t top = r[i] >> 31;
            r[i] = r[i] << 1 | carry;
            carry = top;
        }
        int ge = carry != 0;
        for (size_t i = words; !carry && i-- > 0;) {
            if (r[i] != n[i]) {
                ge = r[i] > n[i];
                break;
            }
            if (i == 0)
                ge = 1;
        }
        if (!ge)
            continue;
        uint64_t borrow = 0;
        for (size_t i = 0; i < words; i++) {
            uint64_t d = (uint64_t)r[i] - n[i] - borrow;
            r[i] = (uint32_t)d;
            borrow = d >> 63;
        }
    }
}

static enum st_err pub_struct(const struct rsakey *k, uint8_t st[ADB_PUBKEY_STRUCT])
{
    uint8_t *p = st;
    uint32_t exp = 0;
    if (rsakey_bits(k) != 32 * ADB_PUBKEY_WORDS ||
        rsakey_public(k, p + 8, 4 * ADB_PUBKEY_WORDS, &exp))
        return ST_EFORMAT;
    adb_set32(p, ADB_PUBKEY_WORDS);
    adb_set32(p + 4, n0inv32(adb_get32(p + 8)));
    uint32_t n[ADB_PUBKEY_WORDS], rr[ADB_PUBKEY_WORDS];
    for (size_t i = 0; i < ADB_PUBKEY_WORDS; i++)
        n[i] = adb_get32(p + 8 + 4 * i);
    r_squared(n, ADB_PUBKEY_WORDS, rr);
    for (size_t i = 0; i < ADB_PUBKEY_WORDS; i++)
        adb_set32(p + 8 + 4 * ADB_PUBKEY_WORDS + 4 * i, rr[i]);
    adb_set32(p + 8 + 8 * ADB_PUBKEY_WORDS, exp);
    return ST_OK;
}

enum st_err adb_key_pub_b64(const struct adb_key *k, struct dynbuf *out)
{
    uint8_t st[ADB_PUBKEY_STRUCT];
    enum st_err e = pub_struct(k->k, st);
    return e ? e : b64_encode(st, ADB_PUBKEY_STRUCT, out);
}

void adb_auth_user_host(char *out, size_t n)
{
    const char *user = plat_username();
    char host[256] = "";
    const char *h = getenv("HOSTNAME");
    if (h && *h)
        snprintf(host, sizeof host, "%s", h);
    else if (plat_hostname(host, sizeof host) || !host[0])
        snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    snprintf(out, n, "%s@%s", user ? user : "", host);
}

static enum st_err write_file(const char *path, int flags, unsigned mode,
                              const void *p, size_t n, char *err, size_t errlen)
{
    int fd = plat_open(path, O_WRONLY | O_CREAT | flags, mode);
    if (fd < 0) {
        adb_seterr(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return errno == EEXIST ? ST_EINVAL : ST_EIO;
    }
    const char *b = p;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            adb_seterr(err, errlen, "writing %s: %s", path, strerror(errno));
            close(fd);
            return ST_EIO;
        }
        b += w;
        n -= (size_t)w;
    }
    if (close(fd)) {
        adb_seterr(err, errlen, "writing %s: %s", path, strerror(errno));
        return ST_EIO;
    }
    return ST_OK;
}

/* A new file that appears whole or not at all: written under a temporary
 * name made private before the key goes in (mode 0600; on Windows an
 * owner-only ACL instead of the one the folder hands down), then renamed
 * to path unless that exists, which fails when another run (another
 * device's thread) made it first: ST_EINVAL. */
static enum st_err write_new_whole(const char *path, const void *p, size_t n, char *err,
                                   size_t errlen)
{
    char tmp[4096 + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = plat_mkstemp(tmp);
    if (fd < 0) {
        adb_seterr(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return ST_EIO;
    }
    close(fd);
    enum st_err e = ST_OK;
    if (plat_make_private(tmp) != 0) {
        adb_seterr(err, errlen, "cannot make %s private: %s", tmp, strerror(errno));
        e = ST_EIO;
    }
    if (!e)
        e = write_file(tmp, O_TRUNC, 0600, p, n, err, errlen);
    if (!e && plat_rename_noreplace(tmp, path) != 0) {
        adb_seterr(err, errlen, "cannot create %s: %s", path, strerror(errno));
        e = errno == EEXIST ? ST_EINVAL : ST_EIO;
    }
    if (e)
        plat_unlink(tmp);
    return e;
}

static void make_parent_dir(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = (char *)plat_last_sep(dir);
    if (slash && slash != dir) {
        *slash = '\0';
        plat_mkdir(dir, 0750);
    }
}

enum st_err adb_key_generate(const char *path, char *err, size_t errlen)
{
    make_parent_dir(path);
    struct dynbuf pem, pub;
    dynbuf_init(&pem, ADB_KEYFILE_MAX);
    dynbuf_init(&pub, 2048);
    struct adb_key k = {NULL};
    enum st_err e = rsakey_generate(2048, &pem, &k.k);
    if (e) {
        adb_seterr(err, errlen, e == ST_EUNSUPPORTED ? NO_RSA : "generating an RSA key failed");
        goto out;
    }
    e = write_new_whole(path, pem.data, pem.len, err, errlen);
    if (e)
        goto out;
    char who[256], pubpath[4096 + 8];
    adb_auth_user_host(who, sizeof who);
    snprintf(pubpath, sizeof pubpath, "%s.pub", path);
    e = adb_key_pub_b64(&k, &pub);
    if (!e)
        e = dynbuf_printf(&pub, " %s", who);
    if (!e)
        e = write_file(pubpath, O_TRUNC, 0644, pub.data, pub.len, err, errlen);
    ST_DBG(DBG_ADB, "auth: generated %s", path);
out:
    crypto_cleanse(pem.data, pem.len);
    dynbuf_free(&pem);
    rsakey_free(k.k);
    dynbuf_free(&pub);
    return e;
}

/* ---- public keys (device side) ---------------------------------------- */

enum st_err adb_pubkey_parse(const char *line, size_t len, struct adb_pubkey **out)
{
    *out = NULL;
    size_t n = 0;
    while (n < len && line[n] != ' ' && line[n] != '\t' && line[n] != '\n' &&
           line[n] != '\r' && line[n] != '\0')
        n++;
    if (!n || n % 4 || n / 4 * 3 > 4 * 300)
        return ST_EFORMAT;
    struct dynbuf st;
    dynbuf_init(&st, 4 * 300);
    enum st_err e = b64_decode(line, n, &st, NULL) ? ST_EFORMAT : ST_OK;
    const uint8_t *b = (const uint8_t *)st.data;
    if (!e && (st.len != ADB_PUBKEY_STRUCT || adb_get32(b) != ADB_PUBKEY_WORDS))
        e = ST_EFORMAT;
    uint32_t exp = e ? 0 : adb_get32(b + 8 + 8 * ADB_PUBKEY_WORDS);
    if (!e && (exp < 3 || !(exp & 1)))
        e = ST_EFORMAT;
    struct rsakey *rk = NULL;
    if (!e)
        e = rsakey_from_public(b + 8, 4 * ADB_PUBKEY_WORDS, exp, &rk);
    dynbuf_free(&st);
    if (e)
        return e == ST_ENOMEM ? e : ST_EFORMAT;
    struct adb_pubkey *k = calloc(1, sizeof *k);
    if (!k) {
        rsakey_free(rk);
        return ST_ENOMEM;
    }
    k->k = rk;
    *out = k;
    return ST_OK;
}

void adb_pubkey_free(struct adb_pubkey *k)
{
    if (!k)
        return;
    rsakey_free(k->k);
    free(k);
}

int adb_pubkey_verify(const struct adb_pubkey *k, const uint8_t *token,
                      size_t tlen, const uint8_t *sig, size_t siglen)
{
    if (tlen != ADB_AUTH_TOKEN_LEN)
        return 0;
    return rsakey_verify_sha1(k->k, token, tlen, sig, siglen);
}

/* Whether two keys are one (the same public half). */
static int same_key(const struct rsakey *a, const struct rsakey *b)
{
    uint8_t na[ADB_AUTH_SIG_MAX], nb[ADB_AUTH_SIG_MAX];
    uint32_t ea, eb;
    return rsakey_bits(a) == rsakey_bits(b) &&
           !rsakey_public(a, na, sizeof na, &ea) && !rsakey_public(b, nb, sizeof nb, &eb) &&
           ea == eb && !memcmp(na, nb, sizeof na);
}

/* ---- keyring ------------------------------------------------------------ */

static enum st_err ring_add(struct adb_keyring *kr, const char *path)
{
    char why[300];
    struct adb_key *k;
    if (adb_key_load(path, &k, why, sizeof why)) {
        ST_DBG(DBG_ADB, "auth: skipping key: %s", why);
        return ST_OK;
    }
    for (size_t i = 0; i < kr->n; i++)
        if (same_key(kr->v[i]->k, k->k)) {
            adb_key_free(k);
            return ST_OK;
        }
    struct adb_key **v = realloc(kr->v, (kr->n + 1) * sizeof *v);
    if (!v) {
        adb_key_free(k);
        return ST_ENOMEM;
    }
    kr->v = v;
    kr->v[kr->n++] = k;
    ST_DBG(DBG_ADB, "auth: loaded key %s", path);
    return ST_OK;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static enum st_err ring_add_dir(struct adb_keyring *kr, const char *dir)
{
    struct plat_dir *d = plat_opendir(dir);
    if (!d)
        return ST_OK;
    enum st_err e = ST_OK;
    const char *name;
    while (!e && (name = plat_readdir(d))) {
        if (!ends_with(name, ".adb_key"))
            continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s%c%s", dir, PLAT_SEP, name) < (int)sizeof path)
            e = ring_add(kr, path);
    }
    plat_closedir(d);
    return e;
}

enum st_err adb_keyring_load(struct adb_keyring *kr, const char *home,
                             const char *vendor, int create, char *err,
                             size_t errlen)
{
    memset(kr, 0, sizeof *kr);
    if (!home)
        home = plat_home();
    if (!vendor)
        vendor = getenv("ADB_VENDOR_KEYS");
    enum st_err e = ST_OK;
    if (home && *home) {
        snprintf(kr->user_path, sizeof kr->user_path, "%s%c.android%cadbkey", home,
                 PLAT_SEP, PLAT_SEP);
        struct plat_stat sb;
        if (create && plat_stat(kr->user_path, &sb) && errno == ENOENT) {
            e = adb_key_generate(kr->user_path, err, errlen);
            if (e == ST_EINVAL)     /* somebody else made it meanwhile */
                e = ST_OK;
            if (e)
                return e;
        }
        if ((e = ring_add(kr, kr->user_path)))
            return e;
    }
    while (vendor && *vendor) {
        size_t k = strcspn(vendor, PLAT_WINDOWS ? ";" : ":");
        char path[4096];
        if (k && k < sizeof path) {
            memcpy(path, vendor, k);
            path[k] = '\0';
            struct plat_stat sb;
            if (!plat_stat(path, &sb))
                e = sb.kind == PLAT_DIR ? ring_add_dir(kr, path) : ring_add(kr, path);
            if (e)
                return e;
        }
        vendor += k;
        if (*vendor)
            vendor++;
    }
    return ST_OK;
}

void adb_keyring_clear(struct adb_keyring *kr)
{
    for (size_t i = 0; i < kr->n; i++)
        adb_key_free(kr->v[i]);
    free(kr->v);
    kr->v = NULL;
    kr->n = 0;
}
