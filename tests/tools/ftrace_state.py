#!/usr/bin/env python3
"""Prints the tracing settings of a tracefs directory (the top level or an
instance) as sorted KEY=VALUE lines, for before/after comparisons in the
--target=linux tests: every file systrace may change, plus what it must
not leave behind (instances, enabled events)."""
import os
import sys

FILES = ['tracing_on', 'buffer_size_kb', 'current_tracer', 'trace_clock', 'tracing_cpumask',
         'buffer_percent', 'set_event', 'set_ftrace_filter', 'set_ftrace_notrace',
         'set_event_pid', 'set_ftrace_pid', 'saved_cmdlines_size', 'tracing_thresh',
         'trace_marker_raw_size']


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        return '<%s>' % e.strerror


def main():
    d = sys.argv[1]
    out = []
    for name in FILES:
        p = os.path.join(d, name)
        if os.path.exists(p):
            v = read(p)
            if name in ('set_event', 'set_ftrace_filter'):
                v = ' '.join(sorted(v.split('\n')))
            out.append('%s=%s' % (name, v.strip().replace('\n', '\\n')))
    opts = os.path.join(d, 'options')
    for name in sorted(os.listdir(opts)):
        out.append('options/%s=%s' % (name, read(os.path.join(opts, name)).strip()))
    inst = os.path.join(d, 'instances')
    if os.path.isdir(inst):
        out.append('instances=%s' % ' '.join(sorted(os.listdir(inst))))
    print('\n'.join(out))


main()
