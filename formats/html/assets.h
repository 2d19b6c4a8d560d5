/*
 * Files embedded into the binary at build time by scripts/embed.c: our own
 * HTML prefix/suffix (assets/), and, when Debian's golang-1.19-src was
 * present at build time, the third-party trace viewer and its polyfill
 * (zlib-compressed; never committed to the repository).
 */
#ifndef SYSTRACE_ASSETS_H
#define SYSTRACE_ASSETS_H

#include <stddef.h>

struct st_asset {
    const char *name;           /* file name without directory */
    const unsigned char *data;
    size_t len;                 /* bytes in data */
    size_t raw_len;             /* size once inflated (== len if stored) */
    int compressed;             /* data is a zlib stream */
};

extern const struct st_asset st_assets[];
extern const size_t st_asset_count;

/* The embedded file with this name, or NULL. */
const struct st_asset *asset_find(const char *name);

#endif
