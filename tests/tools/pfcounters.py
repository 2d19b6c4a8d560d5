#!/usr/bin/env python3
"""A Perfetto trace and the trace-event JSON systrace made of it, both loaded
by Perfetto's trace processor (pfquery.py): every counter value (track
name, ts, value) of the trace is in the JSON and no other.  Perfetto's JSON
importer names a counter "NAME ARG" (the event's name and its arg's key):
the " value" suffix is taken off; a per-CPU counter of the trace is named
"NAME cpuN" by its CPU, as the JSON names it.  Prints
the counts and the differences as JSON; exit 1 when they differ.

  pfcounters.py TRACE JSON
"""
import json, os, re, subprocess, sys
Q = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pfquery.py")
SQL = ("select hex(t.name) as x_name, c.ts, c.value, "
       "extract_arg(t.dimension_arg_set_id, 'cpu') as cpu "
       "from counter c join counter_track t on c.track_id = t.id")
def rows(f):
    r = subprocess.run(['python3', Q, f, SQL], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)
trace = sorted([n if cpu is None else '%s cpu%d' % (n, cpu), ts, round(v, 6)]
               for n, ts, v, cpu in rows(sys.argv[1]))
got = sorted([re.sub(r' value$', '', n), ts, round(v, 6)] for n, ts, v, _ in rows(sys.argv[2]))
missing = [r for r in trace if r not in got]
extra = [r for r in got if r not in trace]
print(json.dumps({'trace': len(trace), 'json': len(got), 'missing': missing, 'extra': extra}, indent=0))
sys.exit(1 if missing or extra else 0)
