/* Entry point: everything testable lives in cli.c. */
#include "cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
