/*
 * RSA private keys in PEM and DER, without a crypto library: what the
 * Windows build (lib/rsakey_bcrypt.c) needs to read and write
 * ~/.android/adbkey, since CNG neither reads nor writes PEM.  Portable C,
 * so the parser is fuzzed on Linux (tests/fuzz/fuzz_der.c) against
 * OpenSSL's.
 *
 * Reads the first PEM block labelled "PRIVATE KEY" (PKCS#8, RFC 5208, the
 * rsaEncryption algorithm with NULL parameters: what adb writes) or
 * "RSA PRIVATE KEY" (PKCS#1, RFC 8017 A.1.2, two primes); strict DER
 * (definite, minimal lengths; minimal, non-negative INTEGERs; nothing
 * after the key).  Writes PKCS#8 PEM byte for byte as OpenSSL's
 * PEM_write_PrivateKey does.  Encrypted keys are refused (not base64).
 */
#ifndef SYSTRACE_DER_H
#define SYSTRACE_DER_H

#include <stddef.h>
#include <stdint.h>

#include "dynbuf.h"
#include "error.h"

/* The parts of an RSA private key, in PKCS#1's order. */
enum der_part { DER_N, DER_E, DER_D, DER_P, DER_Q, DER_DP, DER_DQ, DER_QINV, DER_PARTS };

/* Big-endian unsigned integers without leading zero bytes (zero is
 * length 0), pointing into the buffer they were parsed from. */
struct der_rsa {
    const uint8_t *v[DER_PARTS];
    size_t len[DER_PARTS];
};

/* The key in the PEM text: its DER goes into der (which v[] then points
 * into).  ST_ENOENT when there is no such PEM block, ST_EFORMAT when the
 * block is not such a key. */
enum st_err der_rsa_from_pem(const char *pem, size_t n, struct dynbuf *der,
                             struct der_rsa *out);
/* The key in DER: PKCS#8 PrivateKeyInfo, or (pkcs1) RSAPrivateKey. */
enum st_err der_rsa_parse(const uint8_t *der, size_t n, int pkcs1, struct der_rsa *out);
/* The key as PKCS#8 PEM, appended to pem. */
enum st_err der_rsa_to_pem(const struct der_rsa *k, struct dynbuf *pem);

#endif
