/*
 * `systrace --help`, made from the option table (optdefs.h) so that every
 * option the parser knows is listed, in argparse's layout: the option
 * column, then its text from column 25, wrapped at 79 columns.
 */
#include "usage.h"

#include <string.h>

#include "optdefs.h"

#define TEXT_COL 24
#define WIDTH 79

void usage_spec(const struct optdef *d, char *out, size_t n)
{
    const char *a = d->arg;
    if (d->lng && a && (d->flags & OPTF_OPTARG)) {
        snprintf(out, n, "--%s[=%s]", d->lng, a);
        return;
    }
    if (d->shrt && d->lng)
        snprintf(out, n, a ? "-%c %s, --%s=%s" : "-%c, --%s", d->shrt, a ? a : d->lng,
                 a ? d->lng : "", a ? a : "");
    else if (d->shrt)
        snprintf(out, n, a ? "-%c %s" : "-%c", d->shrt, a ? a : "");
    else
        snprintf(out, n, a ? "--%s=%s" : "--%s", d->lng, a ? a : "");
}

/* Words of text, wrapped into lines that start at TEXT_COL; the first
 * line continues what is already printed at column `col`. */
static void wrapped(FILE *out, const char *text, int col)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t w = strcspn(p, " ");
        if (!w)
            break;
        if (col > TEXT_COL && col + 1 + (int)w > WIDTH) {
            fprintf(out, "\n%*s", TEXT_COL, "");
            col = TEXT_COL;
        } else if (col > TEXT_COL) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, w, out);
        col += (int)w;
        p += w;
    }
    fputc('\n', out);
}

static void option_line(FILE *out, const struct optdef *d)
{
    char spec[128];
    usage_spec(d, spec, sizeof(spec));
    int len = fprintf(out, "  %s", spec);
    if (len + 2 > TEXT_COL) {
        fprintf(out, "\n%*s", TEXT_COL, "");
    } else {
        fprintf(out, "%*s", TEXT_COL - len, "");
    }
    wrapped(out, d->help, TEXT_COL);
}

void usage_print(FILE *out)
{
    fputs("Usage: systrace [options] [category1 [category2 ...]]\n"
          "\n"
          "Capture a system trace from an Android device (through the adb server) or\n"
          "from this machine's kernel (--target=linux, as root), or convert a saved\n"
          "trace, and write one self-contained HTML page.\n"
          "Example: systrace -b 32mb -t 15s gfx input view sched freq\n"
          "Compare sets of runs (before and after a change): systrace compare A... -- B...\n"
          "(systrace compare --help; docs/compare.md)\n", out);
    for (int s = 0; s < SEC_COUNT; s++) {
        fprintf(out, "\n%s:\n", opt_section_titles[s]);
        for (unsigned i = 0; i < st_noptdefs; i++)
            if (st_optdefs[i].sec == (enum opt_section)s &&
                !(st_optdefs[i].flags & OPTF_HIDDEN))
                option_line(out, &st_optdefs[i]);
    }
    fputs("\n"
          "Environment: ANDROID_SERIAL, ADB_SERVER_SOCKET, ANDROID_ADB_SERVER_ADDRESS,\n"
          "ANDROID_ADB_SERVER_PORT, BROWSER, SYSTRACE_OPEN(=perfetto),\n"
          "SYSTRACE_OPEN_TIMEOUT, SYSTRACE_OPEN_PORT, SYSTRACE_VIEWER,\n"
          "SYSTRACE_VIEWER_URL, XDG_CACHE_HOME, https_proxy/http_proxy/no_proxy\n"
          "(downloads), SYSTRACE_DEBUG=adb,sync,atrace,..., SYSTRACE_FTRACE_INSTANCE=0,\n"
          "SYSTRACE_KEEP_RAW=1 (--target=linux, docs/linux.md)\n"
          "Ctrl-C or a closed terminal while tracing stops early and keeps the trace; a\n"
          "second Ctrl-C abandons it (tracing is still stopped); a third exits at once.\n"
          "Exit status: 0 success, 1 failure (no output written), 2 bad command line,\n"
          "3 output written from a truncated input or a capture cut short, 130 interrupted,\n"
          "131 quit (SIGQUIT), 143 terminated (SIGTERM); compare: 1 a gate tripped, 4 an\n"
          "input could not be read.\n", out);
}
