/*
 * ADB host keys (reference/adb-protocol.md section d): loading
 * ~/.android/adbkey (PEM, PKCS#8 or PKCS#1) and $ADB_VENDOR_KEYS,
 * signing the device's 20-byte token (RSA PKCS#1 v1.5 with a SHA-1
 * DigestInfo around the raw token, i.e. adb's RSA_sign(NID_sha1)),
 * Android's adbkey.pub encoding (base64 of the 524-byte RSAPublicKey
 * struct: len, n0inv, n, R^2 mod n, e; little-endian words), key
 * generation like adb, and the device-side check (for the simulator and
 * tests).  All RSA work is OpenSSL's EVP; this is the only file of the
 * library that includes OpenSSL.  Nothing here logs key material.
 * Limits: RSA-2048 for the public-key format (what adb uses); no
 * encrypted PEM; key files up to 64 KiB.
 */
#include "adb_wire.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "lib/debug.h"

struct adb_key {
    EVP_PKEY *pk;
};

struct adb_pubkey {
    EVP_PKEY *pk;
};

static int no_password(char *buf, int size, int rw, void *u)
{
    (void)buf;
    (void)size;
    (void)rw;
    (void)u;
    return 0;
}

enum st_err adb_key_parse(const void *pem, size_t len, struct adb_key **out)
{
    *out = NULL;
    if (len > ADB_KEYFILE_MAX)
        return ST_ETOOBIG;
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    if (!bio)
        return ST_ENOMEM;
    EVP_PKEY *pk = PEM_read_bio_PrivateKey(bio, NULL, no_password, NULL);
    BIO_free(bio);
    ERR_clear_error();
    if (!pk)
        return ST_EFORMAT;
    if (EVP_PKEY_get_base_id(pk) != EVP_PKEY_RSA || EVP_PKEY_get_bits(pk) < 1024 ||
        EVP_PKEY_get_bits(pk) > 8 * ADB_AUTH_SIG_MAX) {
        EVP_PKEY_free(pk);
        return ST_EFORMAT;
    }
    struct adb_key *k = calloc(1, sizeof *k);
    if (!k) {
        EVP_PKEY_free(pk);
        return ST_ENOMEM;
    }
    k->pk = pk;
    *out = k;
    return ST_OK;
}

static enum st_err read_small_file(const char *path, struct dynbuf *b,
                                   char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
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
            adb_seterr(err, errlen, "%s: not an unencrypted RSA private key in PEM",
                       path);
    }
    OPENSSL_cleanse(b.data, b.len);
    dynbuf_free(&b);
    return e;
}

void adb_key_free(struct adb_key *k)
{
    if (!k)
        return;
    EVP_PKEY_free(k->pk);
    free(k);
}

enum st_err adb_key_sign(const struct adb_key *k, const uint8_t *token,
                         size_t tlen, uint8_t *sig, size_t *siglen)
{
    *siglen = 0;
    if (tlen != ADB_AUTH_TOKEN_LEN)
        return ST_EINVAL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k->pk, NULL);
    size_t n = ADB_AUTH_SIG_MAX;
    int ok = ctx && EVP_PKEY_sign_init(ctx) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) > 0 &&
             EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha1()) > 0 &&
             EVP_PKEY_sign(ctx, sig, &n, token, tlen) > 0;
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    if (!ok)
        return ST_EIO;
    *siglen = n;
    return ST_OK;
}

/* -1/n0 mod 2^32 (n0 odd), by Newton's iteration. */
static uint32_t n0inv32(uint32_t n0)
{
    uint32_t x = n0;
    for (int i = 0; i < 5; i++)
        x *= 2u - n0 * x;
    return 0u - x;
}

static enum st_err pub_struct(EVP_PKEY *pk, uint8_t st[ADB_PUBKEY_STRUCT])
{
    BIGNUM *n = NULL, *e = NULL, *r = BN_new(), *rr = BN_new();
    BN_CTX *bc = BN_CTX_new();
    enum st_err res = ST_EFORMAT;
    if (!r || !rr || !bc)
        goto out;
    if (EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_RSA_N, &n) <= 0 ||
        EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_RSA_E, &e) <= 0 ||
        BN_num_bits(n) != 32 * ADB_PUBKEY_WORDS || BN_num_bits(e) > 32)
        goto out;
    uint8_t *p = st;
    adb_set32(p, ADB_PUBKEY_WORDS);
    if (BN_bn2lebinpad(n, p + 8, 4 * ADB_PUBKEY_WORDS) < 0)
        goto out;
    adb_set32(p + 4, n0inv32(adb_get32(p + 8)));
    if (!BN_set_bit(r, 64 * ADB_PUBKEY_WORDS) || !BN_mod(rr, r, n, bc) ||
        BN_bn2lebinpad(rr, p + 8 + 4 * ADB_PUBKEY_WORDS, 4 * ADB_PUBKEY_WORDS) < 0)
        goto out;
    adb_set32(p + 8 + 8 * ADB_PUBKEY_WORDS, (uint32_t)BN_get_word(e));
    res = ST_OK;
out:
    BN_free(n);
    BN_free(e);
    BN_free(r);
    BN_free(rr);
    BN_CTX_free(bc);
    ERR_clear_error();
    return res;
}

enum st_err adb_key_pub_b64(const struct adb_key *k, struct dynbuf *out)
{
    uint8_t st[ADB_PUBKEY_STRUCT];
    unsigned char b64[4 * ((ADB_PUBKEY_STRUCT + 2) / 3) + 1];
    enum st_err e = pub_struct(k->pk, st);
    if (e)
        return e;
    int n = EVP_EncodeBlock(b64, st, ADB_PUBKEY_STRUCT);
    return n > 0 ? dynbuf_add(out, b64, (size_t)n) : ST_EIO;
}

void adb_auth_user_host(char *out, size_t n)
{
    const char *user = getenv("LOGNAME");
    char host[256] = "";
    const char *h = getenv("HOSTNAME");
    if (h && *h)
        snprintf(host, sizeof host, "%s", h);
    else if (gethostname(host, sizeof host) || !host[0])
        snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    snprintf(out, n, "%s@%s", user ? user : "", host);
}

static enum st_err write_file(const char *path, int flags, mode_t mode,
                              const void *p, size_t n, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, mode);
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
 * name (mode 0600 from mkstemp), then linked to path, which fails when
 * another run (another device's thread) made it first: ST_EINVAL. */
static enum st_err write_new_whole(const char *path, const void *p, size_t n, char *err,
                                   size_t errlen)
{
    char tmp[4096 + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        adb_seterr(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return ST_EIO;
    }
    close(fd);
    enum st_err e = write_file(tmp, O_TRUNC, 0600, p, n, err, errlen);
    if (!e && link(tmp, path) != 0) {
        adb_seterr(err, errlen, "cannot create %s: %s", path, strerror(errno));
        e = errno == EEXIST ? ST_EINVAL : ST_EIO;
    }
    unlink(tmp);
    return e;
}

static void make_parent_dir(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        mkdir(dir, 0750);
    }
}

enum st_err adb_key_generate(const char *path, char *err, size_t errlen)
{
    make_parent_dir(path);
    EVP_PKEY *pk = EVP_RSA_gen(2048);
    BIO *bio = BIO_new(BIO_s_mem());
    struct adb_key k = {pk};
    struct dynbuf pub;
    dynbuf_init(&pub, 2048);
    enum st_err e = ST_EIO;
    char *pem = NULL;
    long pemlen;
    if (!pk || !bio || PEM_write_bio_PrivateKey(bio, pk, NULL, NULL, 0, NULL, NULL) <= 0 ||
        (pemlen = BIO_get_mem_data(bio, &pem)) <= 0) {
        adb_seterr(err, errlen, "generating an RSA key failed");
        goto out;
    }
    e = write_new_whole(path, pem, (size_t)pemlen, err, errlen);
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
    BIO_free_all(bio);      /* the mem BIO clears nothing: free promptly */
    EVP_PKEY_free(pk);
    dynbuf_free(&pub);
    ERR_clear_error();
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
    unsigned char st[4 * 300];
    if (!n || n % 4 || n / 4 * 3 > sizeof st)
        return ST_EFORMAT;
    int got = EVP_DecodeBlock(st, (const unsigned char *)line, (int)n);
    ERR_clear_error();
    int pad = (line[n - 1] == '=') + (line[n - 2] == '=');
    if (got < 0 || got - pad != ADB_PUBKEY_STRUCT ||
        adb_get32(st) != ADB_PUBKEY_WORDS)
        return ST_EFORMAT;
    BIGNUM *bn_n = BN_lebin2bn(st + 8, 4 * ADB_PUBKEY_WORDS, NULL);
    BIGNUM *bn_e = BN_new();
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    EVP_PKEY *pk = NULL;
    enum st_err e = ST_EFORMAT;
    uint32_t exp = adb_get32(st + 8 + 8 * ADB_PUBKEY_WORDS);
    if (!bn_n || !bn_e || !bld || !ctx || !BN_is_odd(bn_n) || exp < 3 || !(exp & 1) ||
        !BN_set_word(bn_e, exp) ||
        !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n) ||
        !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e) ||
        !(params = OSSL_PARAM_BLD_to_param(bld)) || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &pk, EVP_PKEY_PUBLIC_KEY, params) <= 0)
        goto out;
    struct adb_pubkey *k = calloc(1, sizeof *k);
    if (!k) {
        e = ST_ENOMEM;
        goto out;
    }
    k->pk = pk;
    pk = NULL;
    *out = k;
    e = ST_OK;
out:
    EVP_PKEY_free(pk);
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    BN_free(bn_n);
    BN_free(bn_e);
    ERR_clear_error();
    return e;
}

void adb_pubkey_free(struct adb_pubkey *k)
{
    if (!k)
        return;
    EVP_PKEY_free(k->pk);
    free(k);
}

int adb_pubkey_verify(const struct adb_pubkey *k, const uint8_t *token,
                      size_t tlen, const uint8_t *sig, size_t siglen)
{
    if (tlen != ADB_AUTH_TOKEN_LEN)
        return 0;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k->pk, NULL);
    int ok = ctx && EVP_PKEY_verify_init(ctx) > 0 &&
             EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) > 0 &&
             EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha1()) > 0 &&
             EVP_PKEY_verify(ctx, sig, siglen, token, tlen) == 1;
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    return ok;
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
        if (EVP_PKEY_eq(kr->v[i]->pk, k->pk) == 1) {
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
    DIR *d = opendir(dir);
    if (!d)
        return ST_OK;
    enum st_err e = ST_OK;
    struct dirent *de;
    while (!e && (de = readdir(d))) {
        if (!ends_with(de->d_name, ".adb_key"))
            continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) < (int)sizeof path)
            e = ring_add(kr, path);
    }
    closedir(d);
    return e;
}

enum st_err adb_keyring_load(struct adb_keyring *kr, const char *home,
                             const char *vendor, int create, char *err,
                             size_t errlen)
{
    memset(kr, 0, sizeof *kr);
    if (!home)
        home = getenv("HOME");
    if (!vendor)
        vendor = getenv("ADB_VENDOR_KEYS");
    enum st_err e = ST_OK;
    if (home && *home) {
        snprintf(kr->user_path, sizeof kr->user_path, "%s/.android/adbkey", home);
        struct stat sb;
        if (create && stat(kr->user_path, &sb) && errno == ENOENT) {
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
        size_t k = strcspn(vendor, ":");
        char path[4096];
        if (k && k < sizeof path) {
            memcpy(path, vendor, k);
            path[k] = '\0';
            struct stat sb;
            if (!stat(path, &sb))
                e = S_ISDIR(sb.st_mode) ? ring_add_dir(kr, path) : ring_add(kr, path);
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
