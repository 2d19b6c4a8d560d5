#!/usr/bin/env python3
"""piececheck.py WHOLE PIECE LO HI [PIDS]: Perfetto's trace processor
judges a piece (--time-range, --process) against the whole trace it was
cut from.  LO, HI: the window [LO, HI) in the trace's ns; PIDS: the kept
processes, comma-separated ('' or absent: all).  The piece must hold
exactly the whole's sched rows in the window (with PIDS: those of kept
threads and of the idle task), its slices in the window plus those open
at LO (a cut slice counted once), with PIDS only kept threads' slices,
its counter rows in the window plus one per counter set before LO; no
error stat; every thread with events named.  (Each piece of a split is
judged so against its own window.)  Prints the counts; exit 1 with the difference when they differ."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tpcheck import TP, blocks  # noqa: E402


def query(path, stmts):
    with tempfile.NamedTemporaryFile('w', suffix='.sql', delete=False) as f:
        f.write(';\n'.join(stmts) + ';\n')
    try:
        r = subprocess.run([TP, '-q', f.name, path], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode:
        sys.stderr.write(r.stderr)
        sys.exit('piececheck: %s: the trace processor cannot read it' % path)
    res = blocks(r.stdout)
    assert len(res) == len(stmts), (path, r.stdout)
    return [int(t[0][0]) for t in res]


def pid_cond(pids):
    if not pids:
        return '1'
    return '(process.pid in (%s) or thread.tid = 0)' % pids


def thread_slices(pids, where):
    return ('select count(*) from slice s join thread_track tt on s.track_id = tt.id '
            'join thread using(utid) left join process using(upid) where %s and %s'
            % (pid_cond(pids), where))


def whole_counts(path, lo, hi, pids):
    inr = 'ts >= %d and ts < %d' % (lo, hi)
    opened = '(%s or (ts < %d and (dur < 0 or ts + dur >= %d)))' % (inr, lo, lo)
    sched = ('select count(*) from sched join thread using(utid) left join process '
             'using(upid) where %s and %s' % (pid_cond(pids), inr))
    slices = (thread_slices(pids, opened) if pids else
              'select count(*) from slice where %s' % opened)
    counters = ('select (select count(*) from counter where %s) + '
                '(select count(distinct track_id) from counter where ts < %d)' % (inr, lo))
    return query(path, [sched, slices, counters, errors()])


def errors():
    return "select count(*) from stats where severity = 'error' and value > 0"


def piece_counts(path, pids):
    sched = ('select count(*) from sched join thread using(utid) left join process '
             'using(upid) where %s' % pid_cond(pids))
    slices = thread_slices(pids, '1') if pids else 'select count(*) from slice'
    unnamed = ("select count(*) from thread where tid != 0 and (name is null or name = '') "
               "and (utid in (select utid from sched) or utid in (select utid from "
               "thread_track tt join slice s on s.track_id = tt.id))")
    others = ('select count(*) from slice s join thread_track tt on s.track_id = tt.id join '
              'thread using(utid) left join process using(upid) where not %s'
              % pid_cond(pids))
    return query(path, [sched, slices, 'select count(*) from counter', errors(), unnamed,
                        others])


def main():
    whole, piece, lo, hi = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    pids = sys.argv[5] if len(sys.argv) > 5 else ''
    w = whole_counts(whole, lo, hi, pids)
    got = piece_counts(piece, pids)
    names = ['sched', 'slices', 'counters']
    print('%s: whole in [%d, %d): %s; piece: %s' % (
        piece, lo, hi, ', '.join('%s %d' % x for x in zip(names, w)),
        ', '.join('%s %d' % x for x in zip(names, got))))
    assert got[3] == 0, (piece, 'error stats', got[3])
    assert got[4] == 0, (piece, 'threads with events but no name', got[4])
    assert got[5] == 0, (piece, 'slices of processes not kept', got[5])
    want = w[:3] if not pids else w[:2]
    assert want == got[:len(want)], (piece, 'whole vs piece', want, got[:len(want)])


if __name__ == '__main__':
    main()
