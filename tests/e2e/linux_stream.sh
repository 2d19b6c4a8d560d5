# --stream under load (a busy loop on every CPU, and a loop starting short
# processes so the scheduler has work) for LINUX_STREAM_SECONDS (default
# 30) with a small ring buffer: the kernel's own counters
# (per_cpu/cpuN/stats, logged by SYSTRACE_DEBUG=ftrace just before the
# tracing instance goes) say nothing was overwritten or dropped and every
# event it wrote was read; the result holds exactly that many events, far
# more than the ring buffer holds; peak RSS stays under 64 MB.
. "$TOP/tests/lib.sh"
. "$TOP/tests/linux-env.sh"
need_tracefs
secs=${LINUX_STREAM_SECONDS:-30}
kb=2048

# the load runs niced, in a session (so a scheduler autogroup) of its own
# niced too: it is there to give the scheduler work (events), not to starve
# the reader or the cases beside it.  Within the run's autogroup a nice-19
# loop still took a CPU whenever the other cases there waited.
# (exec: the pid track_pid keeps is the loop's own; without the lock's fd)
low() { exec setsid sh -c 'echo 19 >/proc/self/autogroup 2>/dev/null; exec nice -n 19 "$@"' low "$@" 9>&-; }
for _c in $(seq "$(nproc)"); do
    low sh -c 'while :; do :; done' &
    track_pid $!
done
low sh -c 'while :; do /bin/true; sleep 0.01; done' &
track_pid $!
kernel_state before.state
python3 - "$SYSTRACE" "$secs" "$kb" <<'PY' || { cat err.txt | grep -v stats; fail "stream capture"; }
import os, resource, subprocess, sys
env = dict(os.environ, SYSTRACE_DEBUG='ftrace')
r = subprocess.run([sys.argv[1], '--target=linux', '--stream', '-b', sys.argv[3], '-t', sys.argv[2],
                    '-o', 'stream.html', 'sched', 'freq', 'idle'],
                   stdin=subprocess.DEVNULL, stdout=open('out.txt', 'w'),
                   stderr=open('err.txt', 'w'), env=env)
open('rss.txt', 'w').write('%d\n' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(r.returncode)
PY
grep "stream reader" err.txt
assert_kernel_as before.state "--stream"
trace_block stream.html 2 >ftrace.txt
python3 - "$secs" "$kb" "$(nproc)" <<'PY' || fail "stream counts"
import re, sys
secs, kb, ncpu = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
stats = [dict((k, int(v)) for k, v in re.findall(r'(\w+)=(\d+)', l))
         for l in open('err.txt') if 'kernel cpu' in l and ' stats: ' in l]
assert len(stats) >= ncpu, stats
lost = sum(s['overrun'] + s['commit_overrun'] + s['dropped'] for s in stats)
left = sum(s['entries'] for s in stats)
read = sum(s['read'] for s in stats)
text = open('ftrace.txt').read()
events = sum(1 for l in text.splitlines() if l.strip() and not l.startswith('#'))
said = int(re.search(r'Captured (\d+) events', open('out.txt').read()).group(1))
rss_mb = int(open('rss.txt').read()) / 1024.0
print('kernel: read %d, left %d, lost %d; result: %d events, %.1f MB text; peak RSS %.1f MB'
      % (read, left, lost, events, len(text) / 1e6, rss_mb))
assert lost == 0, 'the kernel lost %d events' % lost
assert left == 0, '%d events left unread in the ring buffer' % left
assert events == read == said, (events, read, said)
assert rss_mb < 64, rss_mb
if secs >= 20:
    # more text than the ring buffer could ever have held at once
    assert len(text) > 2 * ncpu * kb * 1024, len(text)
PY
grep -q "tracing: .* $kb KB per CPU" err.txt || fail "-b $kb not used"

# without -b, --stream gets a larger buffer (slack for the reader's stalls):
# 16 MB per CPU, 256 MB in all at most, never less than the usual 4 MB
stream_kb=$(( 262144 / $(nproc) ))
[ "$stream_kb" -gt 16384 ] && stream_kb=16384
[ "$stream_kb" -lt 4096 ] && stream_kb=4096
SYSTRACE_DEBUG=ftrace run_st 0 --target=linux --stream -t 1 -o short.html sched
grep -q "tracing: .* $stream_kb KB per CPU" err.txt ||
    fail "--stream default buffer: want $stream_kb KB"
SYSTRACE_DEBUG=ftrace run_st 0 --target=linux -t 1 -o ring.html sched
grep -q "tracing: .* 4096 KB per CPU" err.txt || fail "ring buffer default: want 4096 KB"
assert_kernel_as before.state "--stream without -b"
echo ok
