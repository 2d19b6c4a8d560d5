/*
 * lib/rsakey.h on OpenSSL 3 (EVP): Linux and macOS.  The only file of the
 * tree that does RSA with OpenSSL; errors are cleared from OpenSSL's queue
 * so they never leak into another caller's report.
 */
#include "rsakey.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

struct rsakey {
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

static enum st_err wrap(EVP_PKEY *pk, struct rsakey **out)
{
    struct rsakey *k = calloc(1, sizeof *k);
    if (!k) {
        EVP_PKEY_free(pk);
        return ST_ENOMEM;
    }
    k->pk = pk;
    *out = k;
    return ST_OK;
}

enum st_err rsakey_parse_pem(const void *pem, size_t len, unsigned max_bits,
                             struct rsakey **out)
{
    *out = NULL;
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    if (!bio)
        return ST_ENOMEM;
    EVP_PKEY *pk = PEM_read_bio_PrivateKey(bio, NULL, no_password, NULL);
    BIO_free(bio);
    ERR_clear_error();
    if (!pk)
        return ST_EFORMAT;
    if (EVP_PKEY_get_base_id(pk) != EVP_PKEY_RSA || EVP_PKEY_get_bits(pk) < 1024 ||
        EVP_PKEY_get_bits(pk) > (int)max_bits) {
        EVP_PKEY_free(pk);
        return ST_EFORMAT;
    }
    return wrap(pk, out);
}

enum st_err rsakey_from_public(const uint8_t *n_le, size_t nbytes, uint32_t exp,
                               struct rsakey **out)
{
    *out = NULL;
    BIGNUM *bn_n = BN_lebin2bn(n_le, (int)nbytes, NULL);
    BIGNUM *bn_e = BN_new();
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    EVP_PKEY *pk = NULL;
    enum st_err e = ST_EFORMAT;
    if (!bn_n || !bn_e || !bld || !ctx || !BN_is_odd(bn_n) || !BN_set_word(bn_e, exp) ||
        !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n) ||
        !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e) ||
        !(params = OSSL_PARAM_BLD_to_param(bld)) || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &pk, EVP_PKEY_PUBLIC_KEY, params) <= 0)
        goto out;
    e = wrap(pk, out);
    pk = NULL;
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

enum st_err rsakey_generate(unsigned bits, struct dynbuf *pem, struct rsakey **out)
{
    *out = NULL;
    EVP_PKEY *pk = EVP_RSA_gen(bits);
    BIO *bio = BIO_new(BIO_s_mem());
    char *p = NULL;
    long n;
    enum st_err e = ST_EIO;
    if (pk && bio && PEM_write_bio_PrivateKey(bio, pk, NULL, NULL, 0, NULL, NULL) > 0 &&
        (n = BIO_get_mem_data(bio, &p)) > 0)
        e = dynbuf_add(pem, p, (size_t)n);
    if (!e) {
        e = wrap(pk, out);
        pk = NULL;
    }
    BIO_free_all(bio);      /* the mem BIO clears nothing: free promptly */
    EVP_PKEY_free(pk);
    ERR_clear_error();
    return e;
}

void rsakey_free(struct rsakey *k)
{
    if (!k)
        return;
    EVP_PKEY_free(k->pk);
    free(k);
}

unsigned rsakey_bits(const struct rsakey *k)
{
    return (unsigned)EVP_PKEY_get_bits(k->pk);
}

enum st_err rsakey_public(const struct rsakey *k, uint8_t *n_le, size_t nbytes, uint32_t *exp)
{
    BIGNUM *n = NULL, *e = NULL;
    enum st_err res = ST_EFORMAT;
    if (EVP_PKEY_get_bn_param(k->pk, OSSL_PKEY_PARAM_RSA_N, &n) > 0 &&
        EVP_PKEY_get_bn_param(k->pk, OSSL_PKEY_PARAM_RSA_E, &e) > 0 &&
        BN_num_bits(e) <= 32 && BN_bn2lebinpad(n, n_le, (int)nbytes) >= 0) {
        *exp = (uint32_t)BN_get_word(e);
        res = ST_OK;
    }
    BN_free(n);
    BN_free(e);
    ERR_clear_error();
    return res;
}

static EVP_PKEY_CTX *sha1_ctx(const struct rsakey *k, int sign)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k->pk, NULL);
    if (ctx && ((sign ? EVP_PKEY_sign_init(ctx) : EVP_PKEY_verify_init(ctx)) <= 0 ||
                EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) <= 0 ||
                EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha1()) <= 0)) {
        EVP_PKEY_CTX_free(ctx);
        ctx = NULL;
    }
    return ctx;
}

enum st_err rsakey_sign_sha1(const struct rsakey *k, const uint8_t *digest, size_t dlen,
                             uint8_t *sig, size_t cap, size_t *siglen)
{
    *siglen = 0;
    EVP_PKEY_CTX *ctx = sha1_ctx(k, 1);
    size_t n = cap;
    int ok = ctx && EVP_PKEY_sign(ctx, sig, &n, digest, dlen) > 0;
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    if (!ok)
        return ST_EIO;
    *siglen = n;
    return ST_OK;
}

int rsakey_verify_sha1(const struct rsakey *k, const uint8_t *digest, size_t dlen,
                       const uint8_t *sig, size_t siglen)
{
    EVP_PKEY_CTX *ctx = sha1_ctx(k, 0);
    int ok = ctx && EVP_PKEY_verify(ctx, sig, siglen, digest, dlen) == 1;
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    return ok;
}

int crypto_sha256(const void *p, size_t n, uint8_t md[32])
{
    unsigned len = 0;
    int ok = EVP_Digest(p, n, md, &len, EVP_sha256(), NULL) && len == 32;
    ERR_clear_error();
    return ok ? 0 : -1;
}

void crypto_cleanse(void *p, size_t n)
{
    if (p)
        OPENSSL_cleanse(p, n);
}
