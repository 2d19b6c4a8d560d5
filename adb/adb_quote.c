/*
 * Quoting for the device's /system/bin/sh (mksh/toybox sh, POSIX rules):
 * every argument goes inside single quotes, where nothing is special
 * except the quote itself, written '\''.  The token check is for callers
 * that want a plain word (category names, serials, package names) and
 * would rather reject than quote.
 */
#include "adb_int.h"

#include <string.h>

enum st_err adb_quote_arg(struct dynbuf *cmd, const char *arg)
{
    size_t old = cmd->len;
    enum st_err e = cmd->len ? dynbuf_addc(cmd, ' ') : ST_OK;
    if (!e)
        e = dynbuf_addc(cmd, '\'');
    for (const char *p = arg; !e && *p; p++)
        e = *p == '\'' ? dynbuf_addstr(cmd, "'\\''") : dynbuf_addc(cmd, *p);
    if (!e)
        e = dynbuf_addc(cmd, '\'');
    if (e) {
        cmd->len = old;     /* all or nothing */
        if (cmd->data)
            cmd->data[old] = '\0';
    }
    return e;
}

enum st_err adb_quote_argv(struct dynbuf *cmd, const char *const *argv)
{
    for (size_t i = 0; argv[i]; i++) {
        enum st_err e = adb_quote_arg(cmd, argv[i]);
        if (e)
            return e;
    }
    return ST_OK;
}

int adb_is_plain_token(const char *s)
{
    static const char extra[] = "_-.,:/=+@";
    if (!s || !*s)
        return 0;
    for (const char *p = s; *p; p++) {
        char c = *p;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || (c && strchr(extra, c));
        if (!ok)
            return 0;
    }
    return 1;
}
