# The summary's terminal lines quote names from the trace, which anyone
# can set (prctl, a ProcessTree, a crafted file): their control characters
# are shown as \xHH, as the README promises, so a thread named ESC [2J
# ESC [H cannot clear the screen and a process named ESC ]0;... BEL cannot
# retitle the terminal.  The page keeps the names as they are.
. "$TOP/tests/lib.sh"
python3 - <<'PY'
E = '\x1b'
thread = E + '[2J' + E + '[H'           # screen clear, cursor home
proc = E + ']0;pwned' + '\x07'          # OSC: set the window title
def ftrace(tid, tgid, comm):
    out = ['# tracer: nop', '#']
    for i in range(200):
        ts = 100.0 + i * 0.001
        out += [
            f'  {comm}-{tid}  ( {tgid}) [000] d..3 {ts:.6f}: sched_switch: prev_comm={comm} '
            f'prev_pid={tid} prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 '
            'next_prio=120',
            f'  <idle>-0     (-----) [000] d..3 {ts + 0.0005:.6f}: sched_switch: '
            'prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> '
            f'next_comm={comm} next_pid={tid} next_prio=120',
            f'  {comm}-{tid}  ( {tgid}) [000] ...1 {ts + 0.0006:.6f}: tracing_mark_write: '
            f'B|{tgid}|Choreographer#doFrame',
            f'  {comm}-{tid}  ( {tgid}) [000] ...1 {ts + 0.0007:.6f}: tracing_mark_write: E|{tgid}']
    return '\n'.join(out) + '\n'
# a thread's name is all the summary knows of its process
open('thread.txt', 'w').write(ftrace(1234, 1234, thread))
# a page whose process dump names the process
ps = ('PROCESS DUMP\nUSER PID PPID VSZ RSS WCHAN ADDR S NAME COMMAND\n'
      f'u0_a50 1234 1 1000 200 SyS_epoll_wait 0 S {proc} app')
blk = lambda t: '  <script class="trace-data" type="application/text">\n' + t + '\n  </script>\n'
open('proc.html', 'w').write('<!DOCTYPE html>\n<html>\n<body>\n' + blk(ps) +
                             blk(ftrace(1235, 1234, thread)) + '</body>\n</html>\n')
PY
no_esc() {  # FILE...: no raw ESC or BEL byte reached the terminal
    ! LC_ALL=C grep -q "$(printf '[\033\007]')" "$@" || { cat -v "$@"; fail "raw control bytes"; }
}
run_st 0 --from-file thread.txt -o t.html
no_esc out.txt err.txt
assert_contains out.txt 'CPU busy 50%: \x1b[2J\x1b[H 49.8%'
assert_contains out.txt 'Frames: \x1b[2J\x1b[H 200, 0 janky'
run_st 0 --from-file proc.html -o p.html
no_esc out.txt err.txt
assert_contains out.txt 'CPU busy 50%: \x1b]0;pwned\x07 49.8%'
assert_contains out.txt 'Frames: \x1b]0;pwned\x07 200, 0 janky'
# the page keeps the names: the viewer shows them as text
LC_ALL=C grep -q "$(printf '\033]0;pwned')" p.html || fail "the page lost the process name"
echo ok
