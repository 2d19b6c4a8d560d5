#!/usr/bin/env python3
"""make bench: runs every benchmark as ratios against a baseline measured
in the same invocation, prints markdown and rewrites BENCHMARKS.md's
generated section.  Wall time is the best of REPEAT runs; peak RSS comes
from the kernel (ru_maxrss of the child)."""
import os
import resource
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(TOP, 'build')
WORK = os.environ.get('BENCH_DIR', os.path.join(BUILD, 'bench'))
REPEAT = int(os.environ.get('BENCH_REPEAT', '5'))
MB = int(os.environ.get('BENCH_MB', '200'))


def run1(cmd, **kw):
    """(wall seconds, CPU seconds: user + system) of one run."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, **kw)
    dt = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return dt, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def run(cmd, pre=None, **kw):
    """(best wall seconds, peak RSS MiB of the worst run); pre() runs
    before each timed run, outside the timing."""
    best, rss = None, 0
    for _ in range(REPEAT):
        if pre:
            pre()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, **kw)
        dt = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        best = dt if best is None else min(best, dt)
        rss = max(rss, after / 1024.0, 0)
        del before
    return best, rss


def child_rss(cmd):
    """Peak RSS (MiB) of one run of cmd, measured alone."""
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.execvp(cmd[0], cmd)
    _, status, ru = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit('failed: %s' % ' '.join(cmd))
    return ru.ru_maxrss / 1024.0


def bench_fromfile(lines):
    os.makedirs(WORK, exist_ok=True)
    src = os.path.join(WORK, 'trace%dmb-launches.z' % MB)   # gentrace.py with launches
    if not os.path.exists(src):
        subprocess.run([sys.executable, os.path.join(TOP, 'scripts/bench/gentrace.py'),
                        str(MB), src], check=True)
    zinf = os.path.join(BUILD, 'zinflate')
    subprocess.run(['cc', '-O2', '-o', zinf, os.path.join(TOP, 'scripts/bench/zinflate.c'),
                    '-lz'], check=True)
    out = os.path.join(WORK, 'out.html')
    st = [os.path.join(TOP, 'systrace'), '--from-file', src, '-o', out, '-q']
    def fresh():
        # a user converts to a new file; replacing an old 200 MB output
        # makes rename(2) free its pages, which is measured separately
        if os.path.exists(out):
            os.unlink(out)
        time.sleep(0.3)
    # interleaved, so a slow moment of the machine hits both sides alike;
    # the summary (issue 23) is computed in the same pass: with and without
    # it, in back-to-back pairs (BENCH_SUMMARY_PAIRS, at least REPEAT), as
    # wall and as CPU time (which a busy machine disturbs less)
    st_sum = st + ['--summary', os.path.join(WORK, 'summary.json')]
    t_inf = t_st = t_sum = None
    ratios, cpu_ratios = [], []     # with / without the summary, each pair back to back
    cpu_bare = []
    pairs = max(REPEAT, int(os.environ.get('BENCH_SUMMARY_PAIRS', '11')))
    for i in range(pairs):
        if i < REPEAT:
            a, _ = run1([zinf, src], stderr=subprocess.DEVNULL)
            t_inf = a if t_inf is None else min(t_inf, a)
        # which of the pair goes first alternates: a machine getting
        # busier or quieter within a pair favours neither side
        got = {}
        for with_sum in ((False, True) if i % 2 == 0 else (True, False)):
            fresh()
            got[with_sum] = run1(st_sum if with_sum else st)
        (b, bc), (c, cc) = got[False], got[True]
        cpu_bare.append(bc)
        ratios.append(c / b)
        cpu_ratios.append(cc / bc)
        t_st = b if t_st is None else min(t_st, b)
        t_sum = c if t_sum is None else min(t_sum, c)
    cpu_ratios.sort()
    ratios.sort()
    # the summary alone, its own CPU time (scripts/bench/sumfeed.c)
    sumfeed = os.path.join(BUILD, 'sumfeed')
    subprocess.run(['cc', '-std=c11', '-O2', '-D_GNU_SOURCE', '-I' + TOP, '-o', sumfeed,
                    os.path.join(TOP, 'scripts/bench/sumfeed.c'),
                    os.path.join(BUILD, 'libsystrace.a'), '-lz', '-lcrypto', '-lusb-1.0',
                    '-lpthread'], check=True)
    t_alone = float(subprocess.run([sumfeed, src, str(REPEAT)], check=True, capture_output=True,
                                   text=True).stdout.split()[0])
    cpu_bare.sort()
    r_med = ratios[len(ratios) // 2]
    t_over, _ = run(st)
    rss = child_rss(st)
    rss_sum = child_rss(st_sum)
    text = os.path.getsize(out)
    lines.append('### --from-file, %d MB trace (%s compressed)\n' %
                 (MB, '%.1f MB' % (os.path.getsize(src) / 1e6)))
    lines.append('| what | wall (best of %d, the first two interleaved) | peak RSS |' % REPEAT)
    lines.append('|---|---|---|')
    lines.append('| bare zlib inflate (baseline, scripts/bench/zinflate.c) | %.3f s | - |' % t_inf)
    lines.append('| `systrace --from-file F -o out.html` (new output file) | %.3f s | %.1f MiB |'
                 % (t_st, rss))
    lines.append('| the same, replacing an existing 200 MB out.html | %.3f s | - |' % t_over)
    lines.append('| the same as the first, with `--summary FILE` | %.3f s | %.1f MiB |'
                 % (t_sum, rss_sum))
    lines.append('')
    lines.append('Ratio systrace / inflate: **%.2fx** for a new output file, %.2fx when '
                 'replacing one (goal <= 1.25x; catapult ~5.9x). Output %.1f MB. Goal RSS '
                 '< 64 MiB (catapult 709 MB). With the summary / without: **%.3fx** wall, '
                 'median of %d back-to-back pairs (spread %.3f-%.3f; best of each %.3fx), '
                 '**%.3fx** CPU time (user + system, median; spread %.3f-%.3f); goal '
                 '<= 1.05x.\n' % (t_st / t_inf, t_over / t_inf, text / 1e6, r_med, len(ratios),
                                   ratios[0], ratios[-1], t_sum / t_st,
                                   cpu_ratios[len(cpu_ratios) // 2], cpu_ratios[0],
                                   cpu_ratios[-1]))
    lines.append('The summary alone (scripts/bench/sumfeed.c: the same text fed to it in 512 '
                 'KiB writes, its own CPU time, best of %d): **%.1f ms**, %.1f%% of the '
                 'conversion\'s CPU time without it (%.3f s, median).\n'
                 % (REPEAT, t_alone * 1e3, 100 * t_alone / cpu_bare[len(cpu_bare) // 2],
                    cpu_bare[len(cpu_bare) // 2]))


def main():
    lines = ['## Results (generated by `make bench`)\n',
             'Machine: %s, %d cores. Command: `make bench` (BENCH_MB=%d, BENCH_REPEAT=%d).\n' %
             (os.uname().machine, os.cpu_count(), MB, REPEAT)]
    # run.py fromfile bench-perfetto ...: those only, printed, BENCHMARKS.md
    # left alone (its generated section is rewritten by a whole run)
    which = sys.argv[1:]
    if not which or 'fromfile' in which:
        bench_fromfile(lines)
    for extra in sorted(os.listdir(os.path.join(TOP, 'scripts/bench'))):
        if extra.startswith('bench-') and os.access(os.path.join(TOP, 'scripts/bench', extra),
                                                    os.X_OK) and (not which or extra in which):
            r = subprocess.run([os.path.join(TOP, 'scripts/bench', extra)], check=False,
                               capture_output=True, text=True)
            lines.append(r.stdout)
    report = '\n'.join(lines)
    print(report)
    if which:
        return
    path = os.path.join(TOP, 'BENCHMARKS.md')
    head = open(path).read().split('## Results (generated by `make bench`)')[0] \
        if os.path.exists(path) else '# Benchmarks\n\n'
    open(path, 'w').write(head + report)


main()
