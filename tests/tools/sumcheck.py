#!/usr/bin/env python3
"""systrace's --summary JSON against Perfetto's own trace processor on the
same page (../shared/tools/perfetto/trace_processor_shell, v58.2):

  - CPU time of the top processes (sched rows of real tasks, tid 0 left
    out, per process; a thread Perfetto binds to no process counts as its
    own): within 1%, and each of Perfetto's top five is in the JSON;
  - frames per app (Choreographer#doFrame slices on the app's threads; for
    an app without any, DrawFrame slices of threads named RenderThread):
    frames and janky frames (longer than 1/display_hz s, the JSON's rate)
    exact, the worst within a microsecond; a rate above 60 Hz within 5% of
    the median gap of Perfetto's VSYNC-app (else VSYNC-sf) counter;
  - sched_switch events: Perfetto's sched rows, exact;
  - events: the lines of the page's ftrace text Perfetto's tokenizer
    accepts (its regex, counted here in Python, independently of
    systrace's tokenizer), exact, in total and per event name.

  sumcheck.py PAGE SUMMARY.json [--min-frames N] [--min-procs N]
Prints what it compared; exit 1 on a difference, 77 when the trace
processor cannot run here.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import tpcheck  # noqa: E402  (the trace processor's location and CSV parsing)

CPU_SQL = """select coalesce(p.pid, t.tid), sum(s.dur) from sched s join thread t using(utid)
 left join process p using(upid) where t.tid != 0 and s.dur > 0 group by 1 order by 2 desc"""
FRAME_SQL = """select coalesce(p.pid, t.tid), count(*),
 sum(case when s.dur * %d > 1000000000 then 1 else 0 end), max(s.dur)
 from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid)
 left join process p using(upid) where %s group by 1 order by 1"""
DOFRAME = "(s.name = 'Choreographer#doFrame' or s.name glob 'Choreographer#doFrame *')"
DRAWFRAME = "(t.name = 'RenderThread' and s.name glob 'DrawFrame*')"
SCHED_SQL = "select count(*) from sched"
VSYNC_SQL = """select t.name, c.ts from counter c join counter_track t on c.track_id = t.id
 where t.name in ('VSYNC-app', 'VSYNC-sf') order by 1, 2"""
# Perfetto's systrace line tokenizer (perfetto-and-viewer.md), a partial match
LINE = re.compile(rb'-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*'
                  rb'([a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)?(\d+\.\d+):\s+(\S+):')


def query(page, stmts):
    import tempfile
    with tempfile.NamedTemporaryFile('w', suffix='.sql', delete=False) as f:
        f.write(';\n'.join(stmts) + ';\n')
    try:
        r = subprocess.run([tpcheck.TP, '-q', f.name, page], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        sys.exit('trace processor failed on %s: %s' % (page, r.stderr[-2000:]))
    return tpcheck.blocks(r.stdout)


def ftrace_lines(page):
    """Event lines of the first ftrace text of the page, as Perfetto reads it."""
    data = open(page, 'rb').read()
    inside, ftrace, decided = False, False, False
    for line in data.split(b'\n'):
        if not inside:
            if b'<script class="trace-data" type="application/text">' in line:
                inside, decided = True, False
            continue
        if b'</script>' in line:
            if ftrace:
                return
            inside = False
            continue
        if not decided:
            if not line.strip() or (line.startswith(b'#') and b'TASK-PID' not in line):
                continue
            decided = True
            ftrace = line.startswith(b'#')
            if not ftrace:
                inside = line.startswith(b'PROCESS DUMP')
                continue
        if ftrace and line and not line.startswith(b'#'):
            yield line


def event_counts(page):
    total, names = 0, {}
    for line in ftrace_lines(page):
        m = LINE.search(line)
        if not m:
            continue
        # the event name: the longest prefix of the token that ends at a ':'
        tok = line[m.start(6):]
        tok = tok.split()[0] if tok.split() else b''
        name = tok[:tok.rfind(b':')].decode('utf-8', 'replace')
        total += 1
        names[name[:31]] = names.get(name[:31], 0) + 1
    return total, names


def main():
    args = sys.argv[1:]
    min_frames = min_procs = 0
    for opt in ('--min-frames', '--min-procs'):
        if opt in args:
            i = args.index(opt)
            if opt == '--min-frames':
                min_frames = int(args[i + 1])
            else:
                min_procs = int(args[i + 1])
            del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    page, sj = args
    probe = subprocess.run([tpcheck.TP, '--version'], capture_output=True, text=True) \
        if os.access(tpcheck.TP, os.X_OK) else None
    if not probe or probe.returncode != 0:
        print('Perfetto trace processor cannot run here (apt-get install -y libprotobuf32)')
        sys.exit(77)
    s = json.load(open(sj))
    hz = s.get('display_hz', 60)
    cpu, dofr, draw, sched, vs = query(page, [CPU_SQL, FRAME_SQL % (hz, DOFRAME),
                                              FRAME_SQL % (hz, DRAWFRAME), SCHED_SQL, VSYNC_SQL])
    bad = []
    if hz > 60:
        gaps = {}
        for i in range(1, len(vs)):
            if vs[i][0] == vs[i - 1][0]:
                g = int(vs[i][1]) - int(vs[i - 1][1])
                if 4000000 <= g < 50000000:
                    gaps.setdefault(vs[i][0], []).append(g)
        g = sorted(gaps.get('VSYNC-app') or gaps.get('VSYNC-sf') or [0])
        med = g[(len(g) - 1) // 2]
        if abs(med * hz - 1e9) > 0.05e9:
            bad.append('display %d Hz, perfetto\'s median vsync gap %d ns' % (hz, med))
        print('display %d Hz (perfetto: median vsync gap %.3f ms)' % (hz, med / 1e6))
    mine = {p['pid']: p['cpu_ms'] for p in s['processes']}
    for pid, dur in cpu[:5]:
        pid, ms = int(pid), int(dur) / 1e6
        got = mine.get(pid)
        if got is None or abs(got - ms) > 0.01 * ms:
            bad.append('cpu of pid %d: perfetto %.3f ms, summary %s' % (pid, ms, got))
    if len(cpu) < min_procs:
        bad.append('perfetto has only %d processes with CPU time' % len(cpu))
    want = {}
    for rows, src in ((dofr, 'Choreographer#doFrame'), (draw, 'DrawFrame')):
        for pid, n, janky, worst in rows:
            if src == 'DrawFrame' and int(pid) in want:
                continue
            want[int(pid)] = (src, int(n), int(janky), int(worst or 0) / 1e6)
    got = {f['pid']: (f['source'], f['frames'], f['janky'], f['worst_ms'] or 0)
           for f in s['frames']}
    for pid in sorted(set(want) | set(got)):
        w, g = want.get(pid), got.get(pid)
        if not w or not g or w[:3] != g[:3] or abs(w[3] - g[3]) > 0.001:
            bad.append('frames of pid %d: perfetto %s, summary %s' % (pid, w, g))
    if sum(w[1] for w in want.values()) < min_frames:
        bad.append('perfetto counts only %d frames' % sum(w[1] for w in want.values()))
    if int(sched[0][0]) != s['sched_switch_events']:
        bad.append('sched rows %s, summary sched_switch_events %d' % (sched[0][0],
                                                                     s['sched_switch_events']))
    total, names = event_counts(page)
    if total != s['events']:
        bad.append('events: %d lines tokenize, summary %d' % (total, s['events']))
    if names != s['event_counts']:
        bad.append('event counts: page %s, summary %s' % (names, s['event_counts']))
    print(json.dumps({'page': page, 'procs_compared': min(5, len(cpu)), 'apps': len(want),
                      'frames': sum(w[1] for w in want.values()), 'events': total,
                      'sched': int(sched[0][0]), 'differences': bad}))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
