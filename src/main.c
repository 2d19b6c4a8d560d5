/* Entry point: everything testable lives in cli.c. */
#include <stdio.h>

#include "cli.h"
#include "lib/plat.h"

int main(int argc, char **argv)
{
    if (plat_init(&argc, &argv) != 0) {
        fprintf(stderr, "systrace: the system's socket library could not start\n");
        return 1;
    }
    return cli_main(argc, argv);
}
