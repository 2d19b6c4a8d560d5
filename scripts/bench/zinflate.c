/*
 * Benchmark baseline: the bare zlib inflate of an `atrace -z` file (skips
 * up to and including "TRACE:\n"), output discarded.  `make bench` times
 * systrace --from-file against this on the same file in the same run.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: zinflate FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    static unsigned char in[1 << 20], out[256 << 10];
    z_stream z;
    memset(&z, 0, sizeof(z));
    inflateInit(&z);
    size_t n = fread(in, 1, sizeof(in), f);
    unsigned char *m = memmem(in, n, "TRACE:\n", 7);
    size_t skip = m ? (size_t)(m - in) + 7 : 0;
    unsigned long long total = 0;
    int r = Z_OK;
    z.next_in = in + skip;
    z.avail_in = (uInt)(n - skip);
    for (;;) {
        while (z.avail_in && r != Z_STREAM_END) {
            z.next_out = out;
            z.avail_out = sizeof(out);
            r = inflate(&z, Z_NO_FLUSH);
            if (r != Z_OK && r != Z_STREAM_END)
                return 1;
            total += sizeof(out) - z.avail_out;
        }
        if (r == Z_STREAM_END || (n = fread(in, 1, sizeof(in), f)) == 0)
            break;
        z.next_in = in;
        z.avail_in = (uInt)n;
    }
    fprintf(stderr, "%llu bytes\n", total);
    return 0;
}
