/*
 * RSA for ADB's host keys, and SHA-256, on whatever the platform has:
 * OpenSSL's EVP (rsakey_openssl.c, Linux and macOS) or Windows' CNG
 * (rsakey_bcrypt.c), so adb/adb_auth.c is one file for both.
 *
 * Keys are read from and written as PEM: PKCS#8 ("BEGIN PRIVATE KEY",
 * what adb writes) or PKCS#1 ("BEGIN RSA PRIVATE KEY"), unencrypted.
 * Signatures are PKCS#1 v1.5 with a SHA-1 DigestInfo around a 20-byte
 * value the caller gives (adb signs its token as if it were the digest).
 * Never prints; nothing here logs key material.
 */
#ifndef SYSTRACE_RSAKEY_H
#define SYSTRACE_RSAKEY_H

#include <stddef.h>
#include <stdint.h>

#include "dynbuf.h"
#include "error.h"

struct rsakey;

/* A private key from PEM; ST_EFORMAT if it is not an RSA key of 1024 to
 * max_bits bits. */
enum st_err rsakey_parse_pem(const void *pem, size_t len, unsigned max_bits,
                             struct rsakey **out);
/* A public key from its modulus (little-endian, nbytes) and exponent. */
enum st_err rsakey_from_public(const uint8_t *n_le, size_t nbytes, uint32_t e,
                               struct rsakey **out);
/* A new key of `bits` bits, and its PKCS#8 PEM appended to pem. */
enum st_err rsakey_generate(unsigned bits, struct dynbuf *pem, struct rsakey **out);
void rsakey_free(struct rsakey *k);

unsigned rsakey_bits(const struct rsakey *k);
/* The modulus, little-endian in exactly nbytes (ST_EFORMAT if it does not
 * fit), and the public exponent (ST_EFORMAT above 32 bits). */
enum st_err rsakey_public(const struct rsakey *k, uint8_t *n_le, size_t nbytes, uint32_t *e);

/* Sign the 20-byte value; *siglen is the modulus size. */
enum st_err rsakey_sign_sha1(const struct rsakey *k, const uint8_t *digest, size_t dlen,
                             uint8_t *sig, size_t cap, size_t *siglen);
/* 1 if sig is k's signature of the 20-byte value. */
int rsakey_verify_sha1(const struct rsakey *k, const uint8_t *digest, size_t dlen,
                       const uint8_t *sig, size_t siglen);

/* SHA-256 of p: 0, or -1 when the platform's hash failed. */
int crypto_sha256(const void *p, size_t n, uint8_t md[32]);
/* Clear secret bytes (not optimised away). */
void crypto_cleanse(void *p, size_t n);

#endif
