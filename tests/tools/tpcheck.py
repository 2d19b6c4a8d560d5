#!/usr/bin/env python3
"""What Perfetto imports from a file, counted by Perfetto's own trace
processor (../shared/tools/perfetto/trace_processor_shell, v58.2), printed
as one JSON object whose fields mean what tests/browser/check.mjs's fields
mean for the classic viewer, so the two can be compared directly:

  slices            slices on thread tracks (nested ones included; an
                    unfinished B counts, as the classic viewer closes it)
  asyncSlices       finished slices on other tracks (async S/F pairs)
  cpuSlices         sched rows of real tasks (not the idle task, tid 0) that
                    ended; the classic viewer leaves out the one still running
                    at the end
  counters, counterSamples   process counter tracks, their values
  cpuCounters       CPU counter tracks (frequency, idle)
  sliceThreads, namedSliceThreads   threads with slices; those with a name
  namedThreads      threads with a name (all of them, tid 0 left out)
  threadNames, processNames   distinct names (sorted)
  namedTids         the ids of named threads (sorted)
  errors            stats rows of severity error/data_loss with value > 0
                    ("name[idx]=value")

  tpcheck.py FILE [--sql 'select ...']
  tpcheck.py FILE...        one object per line, in order (one Python start)
With --sql the rows of that one query are printed too (key "rows"; the
shell's CSV does not escape quotes: select hex(text) and decode it).
Exit 77 (with the reason) when the trace processor or its library is
missing, 1 when it cannot read FILE.
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

TOP = os.environ.get('TOP') or os.path.join(os.path.dirname(__file__), '..', '..')
TP = os.environ.get('TRACE_PROCESSOR') or os.path.join(
    TOP, '..', 'shared', 'tools', 'perfetto', 'trace_processor_shell')

COUNTS = [
    ('slices', 'select count(*) from slice s join thread_track t on s.track_id = t.id'),
    ('asyncSlices', 'select count(*) from slice where dur >= 0 and track_id not in '
                    '(select id from thread_track)'),
    ('cpuSlices', 'select count(*) from sched join thread using(utid) '
                  'where thread.tid != 0 and dur >= 0'),
    ('counters', 'select count(*) from process_counter_track'),
    ('counterSamples', 'select count(*) from counter c join process_counter_track t '
                       'on c.track_id = t.id'),
    ('cpuCounters', 'select count(*) from cpu_counter_track'),
    ('sliceThreads', 'select count(distinct t.utid) from thread_track t join slice s '
                     'on s.track_id = t.id'),
    ('namedSliceThreads', "select count(distinct t.utid) from thread_track t join slice s "
                          "on s.track_id = t.id join thread using(utid) "
                          "where thread.name is not null and thread.name != ''"),
    ('namedThreads', "select count(*) from thread where tid != 0 and name is not null "
                     "and name != ''"),
]
LISTS = [
    # names as hex: the shell's CSV does not escape quotes
    ('threadNames', "select distinct hex(name) from thread where tid != 0 and name is not null "
                    "and name != '' order by name"),
    ('namedTids', "select distinct tid from thread where tid != 0 and name is not null "
                  "and name != '' order by tid"),
    ('processNames', "select distinct hex(name) from process where name is not null "
                     "and name != '' order by name"),
    ('errors', "select name || coalesce('[' || idx || ']', '') || '=' || value from stats "
               "where severity in ('error', 'data_loss') and value > 0 order by name"),
]


def blocks(out):
    """The result tables of trace_processor_shell -q, one per statement."""
    tables, cur = [], []
    for line in out.split('\n'):
        if line.strip():
            cur.append(line)
        elif cur:
            tables.append(cur)
            cur = []
    if cur:
        tables.append(cur)
    return [list(csv.reader(io.StringIO('\n'.join(t))))[1:] for t in tables]


def counts(path, sql):
    """Perfetto's counts of one file (a dict), or exit: 77 when the shell
    does not run here, 1 when it cannot read the file."""
    stmts = [q for _, q in COUNTS] + [q for _, q in LISTS] + ([sql] if sql else [])
    with tempfile.NamedTemporaryFile('w', suffix='.sql', delete=False) as f:
        f.write(';\n'.join(stmts) + ';\n')
    try:
        r = subprocess.run([TP, '-q', f.name, path], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        # only now asked whether the shell runs at all (a probe per call
        # cost a start of the shell, 128 times a run)
        probe = subprocess.run([TP, '--version'], capture_output=True, text=True)
        if probe.returncode != 0:
            print('Perfetto trace processor does not run (libprotobuf32 missing?): %s'
                  % (probe.stderr.strip().split('\n') or [''])[-1])
            sys.exit(77)
        sys.stderr.write(r.stderr)
        sys.exit('tpcheck: %s: the trace processor cannot read it' % path)
    res = blocks(r.stdout)
    if len(res) != len(stmts):
        sys.exit('tpcheck: %s: %d result tables for %d queries:\n%s'
                 % (path, len(res), len(stmts), r.stdout))
    out = {'file': path}
    for (k, _), rows in zip(COUNTS, res):
        out[k] = int(rows[0][0])
    for (k, _), rows in zip(LISTS, res[len(COUNTS):]):
        out[k] = [int(row[0]) if k == 'namedTids' else
                  bytes.fromhex(row[0]).decode('utf-8', 'replace') if k.endswith('Names')
                  else row[0] for row in rows]
    if sql:
        out['rows'] = res[-1]
    return out


def main():
    args = sys.argv[1:]
    sql = None
    if '--sql' in args:
        i = args.index('--sql')
        sql = args[i + 1]
        del args[i:i + 2]
    if not args or (sql and len(args) != 1):
        sys.exit(__doc__)
    if not os.access(TP, os.X_OK):
        print('Perfetto trace processor absent (%s)' % TP)
        sys.exit(77)
    for path in args:
        print(json.dumps(counts(path, sql)), flush=True)


if __name__ == '__main__':
    main()
