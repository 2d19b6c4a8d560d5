# The simulator's shell interpreter, table-driven through `adbsim --exec`
# (no adb needed): quoting, redirections, lists, subshells, $?, globs,
# builtins, errors and limits.
. "$TOP/tests/lib.sh"
[ -x "$ADBSIM" ] || skip "adbsim not built"

python3 - "$ADBSIM" "$T/fs" <<'PYEOF' || fail "shell cases failed"
import subprocess, sys
sim, fs = sys.argv[1], sys.argv[2]
TR = '/sys/kernel/tracing'
cases = [
    # (command, status, stdout, stderr substring)
    ('echo hi', 0, 'hi\n', ''),
    ('echo -n hi', 0, 'hi', ''),
    ("echo 'a\\tb\\nc'", 0, 'a\tb\nc\n', ''),
    ("echo -E 'a\\nb'", 0, 'a\\nb\n', ''),
    ("echo 'a\\cb'; echo d", 0, 'ad\n', ''),
    # devil's PersistentShell handshake
    ('echo StArT_M; ( echo\n ); echo \\\\nDoNe_M$?', 0,
     'StArT_M\n\n\nDoNe_M0\n', ''),
    ("echo 'a  b' \"c  d\" e\\ f", 0, 'a  b c  d e f\n', ''),
    ('echo "x$?y"', 0, 'x0y\n', ''),
    ("echo '$?'", 0, '$?\n', ''),
    ('false; echo %$?', 0, '%1\n', ''),
    ('( false ) 2>&1;echo %$?', 0, '%1\n', ''),
    ('( echo out; echo err >&2 ) 2>&1;echo %$?', 0, 'out\nerr\n%0\n', ''),
    ('echo err >&2', 0, '', 'err'),
    ('echo err 2>/dev/null >&2', 0, '', ''),
    ('true && echo yes || echo no', 0, 'yes\n', ''),
    ('false && echo yes || echo no', 0, 'no\n', ''),
    ('! false', 0, '', ''),
    ('! true', 1, '', ''),
    ('exit 5', 5, '', ''),
    ('( exit 6 ); echo $?', 0, '6\n', ''),
    ('exit 3; echo no', 3, '', ''),
    ('P=/data/local/tmp; echo "$P" ${P}/x', 0,
     '/data/local/tmp /data/local/tmp/x\n', ''),
    ('( P=inner ); echo "[$P]"', 0, '[]\n', ''),
    ('echo a # comment', 0, 'a\n', ''),
    ('echo a;echo b', 0, 'a\nb\n', ''),
    ('echo a\necho b', 0, 'a\nb\n', ''),
    ('echo x > /data/local/tmp/f; cat /data/local/tmp/f', 0, 'x\n', ''),
    ('echo x > /data/local/tmp/f; echo y >> /data/local/tmp/f; '
     'cat /data/local/tmp/f', 0, 'x\ny\n', ''),
    ('nosuch', 127, '', 'sh: nosuch: not found'),
    ('nosuch 2>&1', 127, 'sh: nosuch: not found\n', ''),
    ('/data/local/tmp/atrace_helper --echo-ts', 127, '', 'not found'),
    ('echo (', 2, '', 'syntax error'),
    ("echo 'open", 2, '', 'unterminated'),
    ('echo a &&', 2, '', 'syntax error'),
    ('cat /nonexistent', 1, '', 'cat: /nonexistent: No such file or directory'),
    ('echo x > /nonexistent/dir/f', 1, '', "can't create /nonexistent/dir/f"),
    ('test -e /system/bin/sh', 0, '', ''),
    ('[ -e /nope ]', 1, '', ''),
    ('[ -d /data/local/tmp ] && echo d', 0, 'd\n', ''),
    ('[ a = a ] && [ 3 -gt 2 ] && [ -n x ] && [ -z "" ]', 0, '', ''),
    ('[ -e /x', 2, '', 'missing ]'),
    ('mkdir -p /data/local/tmp/a/b && ls /data/local/tmp/a', 0, 'b\n', ''),
    ('echo z > /data/local/tmp/z; rm /data/local/tmp/z; '
     'test -e /data/local/tmp/z', 1, '', ''),
    ('rm /data/local/tmp/none', 1, '', 'No such file'),
    ('rm -f /data/local/tmp/none', 0, '', ''),
    ('ls -d /proc/1/task/1', 0, '/proc/1/task/1\n', ''),
    ('echo -n /proc/1/task/[0-9]*', 0, '/proc/1/task/1', ''),
    ('echo -n /proc/15[0-9]*/task/151*', 0,
     '/proc/1500/task/1510 /proc/1500/task/1511 /proc/1500/task/1512 '
     '/proc/1500/task/1513', ''),
    ("echo '/proc/[0-9]*'", 0, '/proc/[0-9]*\n', ''),
    ('echo /nomatch/*', 0, '/nomatch/*\n', ''),
    ('cat /proc/1500/task/1510/comm', 0, 'RenderThread\n', ''),
    ('cat /proc/1500/cmdline', 0, 'com.android.systemui\0', ''),
    ('getprop ro.build.version.sdk', 0, '33\n', ''),
    ('getprop no.such.prop', 0, '\n', ''),
    ('getprop no.such.prop dflt', 0, 'dflt\n', ''),
    ('setprop debug.x 5; getprop debug.x', 0, '5\n', ''),
    ('cat %s/tracing_on' % TR, 0, '0\n', ''),
    ('echo 1 > %s/tracing_on; cat %s/tracing_on' % (TR, TR), 0, '1\n', ''),
    ('P=%s;mkdir -p "$P" && echo -n 0>"$P"/tracing_on; cat $P/tracing_on'
     % TR, 0, '0\n', ''),
    ('cat %s/trace_marker' % TR, 1, '', 'Invalid argument'),
    ('echo hi | cat', 0, 'hi\n', ''),
    ('sh -c "echo in; exit 4"; echo $?', 0, 'in\n4\n', ''),
    ('su 0 sh -c "id -u; echo su"', 0, '0\nsu\n', ''),
    ('which which && which su', 0, '/system/bin/which\n/system/bin/su\n', ''),
    ('pidof surfaceflinger', 0, '500\n', ''),
    ('sleep 0.1 && echo slept', 0, 'slept\n', ''),
    ('sleep x', 1, '', 'invalid number'),
    # while: the --perfetto wait loop, and its edges
    ('while [ -d /proc/99999 ]; do sleep 0.1; done; echo gone $?', 0, 'gone 0\n', ''),
    ('i=a; while [ $i != aaa ]; do i=${i}a; echo $i; done', 0, 'aa\naaa\n', ''),
    ('while [ -d /proc/1 ]; do echo once; exit 3; done; echo no', 3, 'once\n', ''),
    ('while true\ndo\nfalse\nexit 4\ndone', 4, '', ''),
    ('echo do done while', 0, 'do done while\n', ''),
    ('while true; do echo x', 2, '', 'while without do'),
    ('while true; done', 2, '', 'syntax error'),
    ('uname', 0, 'Linux\n', ''),
    # tail (toybox's): the last N lines or bytes, or from line or byte N
    ("echo 'a\nb\nc' >/data/local/tmp/t; tail -n 2 /data/local/tmp/t", 0, 'b\nc\n', ''),
    ("echo 'a\nb\nc' >/data/local/tmp/t; tail -n +2 /data/local/tmp/t", 0, 'b\nc\n', ''),
    ("echo -n 'a\nb\nc' >/data/local/tmp/t; tail -n1 /data/local/tmp/t", 0, 'c', ''),
    ("echo abcdef >/data/local/tmp/t; tail -c 3 /data/local/tmp/t; tail -c +5 /data/local/tmp/t",
     0, 'ef\nef\n', ''),
    ('echo abc | tail -c 2', 0, 'c\n', ''),
    ('tail -x /proc/version', 1, '', "tail: Unknown option 'x'"),
    ('tail -c', 1, '', 'tail: Missing argument to -c'),
    ('tail /nope', 1, '', 'tail: /nope: No such file or directory'),
    ('TZ=utc ls -d /dev/cpuset', 0, '/dev/cpuset\n', ''),
    ('echo ' + 'a ' * 40000, 2, '', 'too long'),
    ('(' * 40 + 'echo deep' + ')' * 40, 2, '', 'nesting too deep'),
]
bad = 0
for cmd, status, out, err in cases:
    r = subprocess.run([sim, '--fs-dir', fs, '--exec', cmd],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    o = r.stdout.decode('utf-8', 'replace')
    e = r.stderr.decode('utf-8', 'replace')
    if r.returncode != status or o != out or (err and err not in e) or \
            (not err and e):
        bad += 1
        print('FAIL %r: status %d (want %d), out %r (want %r), err %r'
              % (cmd[:80], r.returncode, status, o, out, e[:200]))
print('%d cases, %d failed' % (len(cases), bad))
sys.exit(1 if bad else 0)
PYEOF
exit 0
