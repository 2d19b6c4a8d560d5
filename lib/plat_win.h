/*
 * Shared by the Windows files of the platform layer (plat_win*.c) only:
 * UTF-8 <-> UTF-16 and Win32/Winsock errors as errno values.
 */
#ifndef SYSTRACE_PLAT_WIN_H
#define SYSTRACE_PLAT_WIN_H

#include <wchar.h>

/* malloc'd conversions; NULL (errno set) on failure. */
wchar_t *win_wide(const char *s);
char *win_utf8(const wchar_t *w);
/* errno for GetLastError()'s value, and for WSAGetLastError()'s. */
int win_errno(unsigned long err);
int win_sock_errno(int wsa);

#endif
