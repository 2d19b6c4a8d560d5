/* libFuzzer target: the simulator's TraceConfig reader
 * (tests/sim/sim_pfconfig.c), which reads whatever `perfetto -c -` is
 * given on the simulated device: the first byte picks the text or the
 * binary form, the rest is the config.  Whatever it accepts must be
 * within its bounds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tests/sim/sim_pfconfig.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    struct pf_config c;
    memset(&c, 0, sizeof(c));
    char err[256];
    int rc = data[0] & 1 ? pf_config_binary(data + 1, size - 1, &c, err, sizeof(err))
                         : pf_config_text((const char *)data + 1, size - 1, &c, err,
                                          sizeof(err));
    if (rc == 0 && (c.nevents > PF_MAX_ITEMS || c.ncats > PF_MAX_ITEMS ||
                    c.napps > PF_MAX_ITEMS))
        abort();
    pf_config_free(&c);
    return 0;
}
