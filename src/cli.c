/* Placeholder until the option table lands. */
#include "cli.h"

#include <stdio.h>

int cli_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "systrace: not implemented yet\n");
    return EXIT_ERROR;
}
