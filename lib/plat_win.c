/*
 * The platform layer on Windows (MinGW-w64, static): files, time, threads
 * and processes; see plat.h.  Sockets are in plat_win_net.c, console
 * control in plat_win_sig.c.
 *
 * Paths arrive as UTF-8 and go to the wide ("W") functions, so any name
 * works whatever the ANSI code page; argv is rebuilt from the wide command
 * line for the same reason.  Temporary files are opened with
 * FILE_SHARE_DELETE, so the emergency exit can delete them while they are
 * still open.  Win32 errors become errno values (win_errno).
 */
#include "plat.h"

#include <winsock2.h>
#include <windows.h>
#include <aclapi.h>
#include <bcrypt.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <shellapi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <wchar.h>

#include "plat_win.h"
#include "tmpfiles.h"

wchar_t *win_wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
    wchar_t *w = n > 0 ? malloc((size_t)n * sizeof(wchar_t)) : NULL;
    if (w && MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n) <= 0) {
        free(w);
        w = NULL;
    }
    if (!w)
        errno = n > 0 ? ENOMEM : EINVAL;
    return w;
}

char *win_utf8(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    char *s = n > 0 ? malloc((size_t)n) : NULL;
    if (s && WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL) <= 0) {
        free(s);
        s = NULL;
    }
    return s;
}

int win_errno(unsigned long err)
{
    switch (err) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
        return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_WRITE_PROTECT:
        return EACCES;
    case ERROR_ALREADY_EXISTS:
    case ERROR_FILE_EXISTS:
        return EEXIST;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
        return ENOSPC;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return ENOMEM;
    case ERROR_DIRECTORY:
        return ENOTDIR;
    case ERROR_FILENAME_EXCED_RANGE:
        return ENAMETOOLONG;
    default:
        return EIO;
    }
}

/* The UTF-8 arguments live until exit: main's argv. */
static char **utf8_args(int *argc)
{
    int n = 0;
    wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
    char **v = w ? calloc((size_t)n + 1, sizeof(char *)) : NULL;
    for (int i = 0; v && i < n; i++)
        if (!(v[i] = win_utf8(w[i])))
            v = NULL;   /* out of memory at start: keep the C runtime's */
    if (w)
        LocalFree(w);
    if (v)
        *argc = n;
    return v;
}

int plat_init(int *argc, char ***argv)
{
    WSADATA wsa;
    if (WSAStartup(MAKEWORD(2, 2), &wsa) != 0)
        return -1;
    _fmode = _O_BINARY;
    for (int fd = 0; fd < 3; fd++)
        _setmode(fd, _O_BINARY);
    SetConsoleOutputCP(CP_UTF8);
    char **v = utf8_args(argc);
    if (v)
        *argv = v;
    return 0;
}

/* ---- time ---- */

static double counter_us(void)
{
    static LARGE_INTEGER freq;
    LARGE_INTEGER now;
    if (!freq.QuadPart)
        QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&now);
    return (double)now.QuadPart * 1e6 / (double)freq.QuadPart;
}

int64_t plat_now_ms(void)
{
    return (int64_t)(counter_us() / 1e3);
}

double plat_now_us(void)
{
    return counter_us();
}

void plat_sleep_ms(int ms)
{
    Sleep(ms > 0 ? (DWORD)ms : 0);
}

int plat_getpid(void)
{
    return (int)GetCurrentProcessId();
}

int plat_random(void *buf, size_t n)
{
    return BCryptGenRandom(NULL, buf, (ULONG)n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) == 0 ? 0
                                                                                       : -1;
}

/* ---- files ---- */

int plat_open(const char *path, int flags, unsigned mode)
{
    wchar_t *w = win_wide(path);
    if (!w)
        return -1;
    int fd = _wopen(w, flags | _O_BINARY | _O_NOINHERIT,
                    (mode & 0200 ? _S_IWRITE : 0) | _S_IREAD);
    free(w);
    return fd;
}

FILE *plat_fopen(const char *path, const char *mode)
{
    wchar_t *w = win_wide(path), *m = win_wide(mode);
    FILE *f = w && m ? _wfopen(w, m) : NULL;
    free(w);
    free(m);
    return f;
}

static void from_stat(const struct _stat64 *s, struct plat_stat *st)
{
    memset(st, 0, sizeof(*st));
    st->kind = (s->st_mode & _S_IFMT) == _S_IFREG   ? PLAT_FILE
               : (s->st_mode & _S_IFMT) == _S_IFDIR ? PLAT_DIR
                                                    : PLAT_OTHER;
    st->size = (uint64_t)s->st_size;
    st->mode = s->st_mode & _S_IWRITE ? 0644 : 0444;
}

int plat_stat(const char *path, struct plat_stat *st)
{
    wchar_t *w = win_wide(path);
    if (!w)
        return -1;
    /* "dir\" is a directory to Windows users; _wstat64 refuses the slash */
    size_t n = wcslen(w);
    while (n > 1 && (w[n - 1] == L'\\' || w[n - 1] == L'/') && w[n - 2] != L':')
        w[--n] = L'\0';
    struct _stat64 s;
    int r = _wstat64(w, &s);
    free(w);
    if (r == 0)
        from_stat(&s, st);
    return r;
}

int plat_lstat(const char *path, struct plat_stat *st)
{
    return plat_stat(path, st);     /* links are followed: no symlink semantics here */
}

void *plat_map_file(int fd, size_t n)
{
    (void)fd;
    (void)n;
    return NULL;    /* the caller reads the file */
}

void plat_unmap_file(void *p, size_t n)
{
    (void)p;
    (void)n;
}

int plat_fstat(int fd, struct plat_stat *st)
{
    struct _stat64 s;
    if (_fstat64(fd, &s) != 0)
        return -1;
    from_stat(&s, st);
    /* a pipe or console is no regular file, whatever the C runtime says */
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h != INVALID_HANDLE_VALUE && GetFileType(h) != FILE_TYPE_DISK)
        st->kind = PLAT_OTHER;
    return 0;
}

/* The volume and index of a file: what makes it the same file. */
static int file_id(const char *path, BY_HANDLE_FILE_INFORMATION *info)
{
    wchar_t *w = win_wide(path);
    if (!w)
        return -1;
    HANDLE h = CreateFileW(w, FILE_READ_ATTRIBUTES,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return -1;
    int ok = GetFileInformationByHandle(h, info);
    CloseHandle(h);
    return ok ? 0 : -1;
}

int plat_same_file(const char *a, const char *b)
{
    BY_HANDLE_FILE_INFORMATION x, y;
    return file_id(a, &x) == 0 && file_id(b, &y) == 0 &&
           x.dwVolumeSerialNumber == y.dwVolumeSerialNumber &&
           x.nFileIndexHigh == y.nFileIndexHigh && x.nFileIndexLow == y.nFileIndexLow;
}

int plat_access(const char *path, int mode)
{
    wchar_t *w = win_wide(path);
    if (!w)
        return -1;
    int r = _waccess(w, mode & (R_OK | W_OK));  /* no execute bit to ask about */
    free(w);
    return r;
}

int plat_unlink(const char *path)
{
    wchar_t *w = win_wide(path);
    if (!w)
        return -1;
    int r = DeleteFileW(w) ? 0 : -1;
    if (r)
        errno = win_errno(GetLastError());
    free(w);
    return r;
}

int plat_mkdir(const char *path, unsigned mode)
{
    (void)mode;
    wchar_t *w = win_wide(path);
    if (!w)
        return -1;
    int r = _wmkdir(w);
    free(w);
    return r;
}

static int move(const char *from, const char *to, DWORD flags)
{
    wchar_t *a = win_wide(from), *b = win_wide(to);
    int r = a && b && MoveFileExW(a, b, flags | MOVEFILE_WRITE_THROUGH) ? 0 : -1;
    if (r && a && b)
        errno = win_errno(GetLastError());
    free(a);
    free(b);
    return r;
}

int plat_rename(const char *from, const char *to)
{
    return move(from, to, MOVEFILE_REPLACE_EXISTING);
}

int plat_rename_noreplace(const char *from, const char *to)
{
    return move(from, to, 0);
}

/* Console control events run on a thread of their own; the list takes
 * the name at once (there is no mask to set). */
int plat_mkstemp_listed(char *tmpl)
{
    if (tmpfiles_hold()) {
        errno = EINTR;
        return -1;              /* the process is ending */
    }
    int fd = plat_mkstemp(tmpl);
    if (fd >= 0)
        tmpfiles_add(tmpl);
    tmpfiles_release();
    return fd;
}

int plat_mkstemp(char *tmpl)
{
    size_t n = strlen(tmpl);
    if (n < 6 || strcmp(tmpl + n - 6, "XXXXXX")) {
        errno = EINVAL;
        return -1;
    }
    static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (int tries = 0; tries < 100; tries++) {
        unsigned char r[6];
        if (plat_random(r, sizeof(r)))
            return -1;
        for (int i = 0; i < 6; i++)
            tmpl[n - 6 + i] = chars[r[i] % 36];
        wchar_t *w = win_wide(tmpl);
        if (!w)
            return -1;
        HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE,
                               FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                               CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
        free(w);
        if (h == INVALID_HANDLE_VALUE) {
            DWORD err = GetLastError();
            if (err == ERROR_FILE_EXISTS || err == ERROR_ALREADY_EXISTS)
                continue;
            errno = win_errno(err);
            return -1;
        }
        int fd = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY);
        if (fd < 0)
            CloseHandle(h);
        return fd;
    }
    errno = EEXIST;
    return -1;
}

/* pread/pwrite: the descriptor's position is put back afterwards. */
static ssize_t at(int fd, void *p, size_t n, uint64_t off, int wr)
{
    __int64 was = _lseeki64(fd, 0, SEEK_CUR);
    if (was < 0 || _lseeki64(fd, (__int64)off, SEEK_SET) < 0)
        return -1;
    unsigned k = n > 0x40000000u ? 0x40000000u : (unsigned)n;
    int r = wr ? _write(fd, p, k) : _read(fd, p, k);
    int saved = errno;
    _lseeki64(fd, was, SEEK_SET);
    errno = saved;
    return r;
}

ssize_t plat_pread(int fd, void *p, size_t n, uint64_t off)
{
    return at(fd, p, n, off, 0);
}

ssize_t plat_pwrite(int fd, const void *p, size_t n, uint64_t off)
{
    return at(fd, (void *)p, n, off, 1);
}

int plat_ftruncate(int fd, uint64_t size)
{
    int r = _chsize_s(fd, (__int64)size);
    if (r)
        errno = r;
    return r ? -1 : 0;
}

int plat_seek(int fd, uint64_t off)
{
    return _lseeki64(fd, (__int64)off, SEEK_SET) < 0 ? -1 : 0;
}

int plat_fsync(int fd)
{
    return _commit(fd);
}

int plat_fchmod(int fd, unsigned mode)
{
    (void)fd;
    (void)mode;
    return 0;   /* no Unix permission bits; the ACL the directory gives is kept */
}

/* TOKEN_USER and the SID after it (at most 68 bytes). */
union token_user {
    TOKEN_USER tu;
    char buf[256];
};

/* The current user's SID, in u. */
static PSID current_user(union token_user *u)
{
    HANDLE tok = NULL;
    DWORD len = 0;
    int ok = OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &tok) &&
             GetTokenInformation(tok, TokenUser, u, sizeof *u, &len);
    if (tok)
        CloseHandle(tok);
    return ok ? u->tu.User.Sid : NULL;
}

int plat_make_private(const char *path)
{
    union token_user u;
    PSID me = current_user(&u);
    wchar_t *w = win_wide(path);
    PACL acl = NULL;
    EXPLICIT_ACCESS_W ea = {.grfAccessPermissions = FILE_ALL_ACCESS,
                            .grfAccessMode = SET_ACCESS,
                            .grfInheritance = NO_INHERITANCE,
                            .Trustee = {.TrusteeForm = TRUSTEE_IS_SID,
                                        .TrusteeType = TRUSTEE_IS_USER,
                                        .ptstrName = (LPWSTR)me}};
    DWORD err = !me || !w ? ERROR_ACCESS_DENIED : SetEntriesInAclW(1, &ea, NULL, &acl);
    if (!err)
        err = SetNamedSecurityInfoW(w, SE_FILE_OBJECT, DACL_SECURITY_INFORMATION |
                                    PROTECTED_DACL_SECURITY_INFORMATION, NULL, NULL, acl, NULL);
    if (acl)
        LocalFree(acl);
    free(w);
    if (err) {
        errno = win_errno(err);
        return -1;
    }
    return 0;
}

int plat_fchown(int fd, unsigned uid, unsigned gid)
{
    (void)fd;
    (void)uid;
    (void)gid;
    return 0;
}

ssize_t plat_readlink(const char *path, char *buf, size_t n)
{
    (void)path;
    (void)buf;
    (void)n;
    errno = EINVAL;
    return -1;
}

unsigned plat_new_file_mode(void)
{
    return 0666;
}

char *plat_realpath(const char *path)
{
    wchar_t *w = win_wide(path);
    if (!w)
        return NULL;
    wchar_t full[32768];
    DWORD n = GetFullPathNameW(w, sizeof(full) / sizeof(full[0]), full, NULL);
    free(w);
    if (!n || n >= sizeof(full) / sizeof(full[0])) {
        errno = ENOENT;
        return NULL;
    }
    return win_utf8(full);
}

/* A console, not just a character device: the C runtime's _isatty also
 * says yes for NUL, which would make `< NUL` look like a user at a
 * keyboard. */
void plat_malloc_for_workers(void)
{
}

int plat_ncpus(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors < 1 ? 1 : si.dwNumberOfProcessors > 1024 ? 1024
                                                : (int)si.dwNumberOfProcessors;
}

int plat_isatty(int fd)
{
    DWORD mode;
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    return h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode);
}

/* A UTF-8 copy of an environment variable, kept until exit, or NULL. */
static const char *env_utf8(const wchar_t *name, char **keep)
{
    if (!*keep) {
        const wchar_t *v = _wgetenv(name);
        if (v && *v)
            *keep = win_utf8(v);
    }
    return *keep;
}

const char *plat_null_device(void)
{
    return "NUL";
}

const char *plat_tmpdir(void)
{
    static char *dir;
    if (!dir) {
        wchar_t w[MAX_PATH + 2];
        DWORD n = GetTempPathW(MAX_PATH + 1, w);
        if (n > 1 && n <= MAX_PATH && (w[n - 1] == L'\\' || w[n - 1] == L'/'))
            w[n - 1] = L'\0';
        dir = n ? win_utf8(w) : NULL;
    }
    return dir ? dir : ".";
}

const char *plat_home(void)
{
    static char *home;
    return env_utf8(L"USERPROFILE", &home);
}

int plat_cache_dir(const char *app, char *buf, size_t n)
{
    static char *local;
    const char *base = env_utf8(L"LOCALAPPDATA", &local);
    if (!base)
        return -1;
    snprintf(buf, n, "%s\\%s", base, app);
    return 0;
}

const char *plat_username(void)
{
    static char *user;
    return env_utf8(L"USERNAME", &user);
}

int plat_hostname(char *buf, size_t n)
{
    wchar_t w[MAX_COMPUTERNAME_LENGTH + 1];
    DWORD len = MAX_COMPUTERNAME_LENGTH + 1;
    if (!n || !GetComputerNameW(w, &len))
        return -1;
    char *s = win_utf8(w);
    if (!s)
        return -1;
    snprintf(buf, n, "%s", s);
    free(s);
    return 0;
}

int plat_is_sep(char c)
{
    return c == '/' || c == '\\';
}

const char *plat_last_sep(const char *path)
{
    const char *a = strrchr(path, '/'), *b = strrchr(path, '\\');
    return a > b ? a : b;
}

int plat_is_absolute(const char *path)
{
    return plat_is_sep(path[0]) ||
           (path[0] && path[1] == ':' && plat_is_sep(path[2]));
}

/* Windows cannot read a deleted file by name: the file keeps its name
 * while in use, on the tmpfiles list, and goes in plat_tmpfile_done. */
int plat_tmpfile_open(char *path, size_t n)
{
    snprintf(path, n, "%s\\systrace-input.XXXXXX", plat_tmpdir());
    return plat_mkstemp_listed(path);
}

void plat_tmpfile_done(int fd, const char *path)
{
    if (fd >= 0)
        close(fd);
    plat_unlink(path);
    tmpfiles_forget(path);
}

struct plat_dir {
    HANDLE h;
    WIN32_FIND_DATAW fd;
    int first;
    char *name;
};

struct plat_dir *plat_opendir(const char *path)
{
    size_t n = strlen(path);
    char *pattern = malloc(n + 3);
    if (!pattern)
        return NULL;
    snprintf(pattern, n + 3, "%s\\*", path);
    wchar_t *w = win_wide(pattern);
    free(pattern);
    struct plat_dir *d = w ? calloc(1, sizeof(*d)) : NULL;
    if (d) {
        d->h = FindFirstFileW(w, &d->fd);
        d->first = 1;
        if (d->h == INVALID_HANDLE_VALUE) {
            errno = win_errno(GetLastError());
            free(d);
            d = NULL;
        }
    }
    free(w);
    return d;
}

const char *plat_readdir(struct plat_dir *d)
{
    for (;;) {
        if (!d->first && !FindNextFileW(d->h, &d->fd))
            return NULL;
        d->first = 0;
        if (!wcscmp(d->fd.cFileName, L".") || !wcscmp(d->fd.cFileName, L".."))
            continue;
        free(d->name);
        d->name = win_utf8(d->fd.cFileName);
        if (d->name)
            return d->name;
    }
}

void plat_closedir(struct plat_dir *d)
{
    if (d) {
        FindClose(d->h);
        free(d->name);
        free(d);
    }
}

/* ---- threads ---- */

int plat_thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
    return pthread_create(th, NULL, fn, arg);   /* console events come on a thread of their own */
}

/* ---- processes ---- */

int plat_runnable(const char *prog)
{
    wchar_t *w = win_wide(prog);
    if (!w)
        return 0;
    wchar_t found[MAX_PATH];
    DWORD n = SearchPathW(NULL, w, L".exe", MAX_PATH, found, NULL);
    free(w);
    return n > 0 && n < MAX_PATH;
}

/* cmd.exe runs the command line, detached from our console (Ctrl-C there
 * must not reach it); a command still running after wait_ms is a success. */
int plat_spawn_detached(const char *cmdline, const char *arg, int wait_ms)
{
    (void)arg;
    size_t n = strlen(cmdline) + 16;
    char *line = malloc(n);
    if (!line)
        return -1;
    snprintf(line, n, "cmd.exe /c %s", cmdline);
    wchar_t *w = win_wide(line);
    free(line);
    if (!w)
        return -1;
    STARTUPINFOW si;
    PROCESS_INFORMATION pi;
    memset(&si, 0, sizeof(si));
    si.cb = sizeof(si);
    BOOL ok = CreateProcessW(NULL, w, NULL, NULL, FALSE,
                             DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP, NULL, NULL, &si, &pi);
    free(w);
    if (!ok)
        return -1;
    DWORD code = 0;
    if (WaitForSingleObject(pi.hProcess, (DWORD)wait_ms) == WAIT_OBJECT_0)
        GetExitCodeProcess(pi.hProcess, &code);
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return (int)(code & 0xff) == 0 ? 0 : (int)(code & 0xff);
}

int plat_shell_open(const char *arg, char *err, size_t errlen)
{
    wchar_t *w = win_wide(arg);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    HINSTANCE r = ShellExecuteW(NULL, L"open", w, NULL, NULL, SW_SHOWNORMAL);
    free(w);
    if ((intptr_t)r > 32)
        return 0;
    long code = (long)(intptr_t)r;
    switch (code) {
    case SE_ERR_NOASSOC:
        snprintf(err, errlen, "no program is set to open it");
        break;
    case SE_ERR_FNF:
    case SE_ERR_PNF:
        snprintf(err, errlen, "its program was not found");
        break;
    default:
        snprintf(err, errlen, "ShellExecute failed (%ld)", code);
    }
    return -1;
}
