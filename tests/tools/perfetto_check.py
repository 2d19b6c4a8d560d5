#!/usr/bin/env python3
"""What Perfetto's trace processor would read from a file: a Python
re-implementation (written from Perfetto's sources, not Perfetto itself) of
  - the trace type guess on the first 128 bytes (util/trace_type.cc),
  - the ctrace (`TRACE:\\n` + zlib) and gzip containers,
  - the systrace text/HTML importer (importers/systrace/
    systrace_trace_parser.cc): line-based; in HTML a section starts on a
    line containing the literal <script class="trace-data"
    type="application/text">; its first deciding line is `#...TASK-PID`
    (ftrace), `PROCESS DUMP` or `CGROUP DUMP`; only the first ftrace
    section is read, up to the first line containing `</script>`; a
    process dump is used only if it comes before; a last line without a
    newline is never read,
  - the line tokenizer regex (systrace_line_tokenizer.cc),
  - JSON (importers/json): systemTraceEvents lines must all tokenize
    (a failure is fatal), trace events need ph, and ts unless ph is M.
Prints one JSON summary; exits 1 naming the first rule a file breaks.

  perfetto_check.py FILE [--cut]
--cut applies the circular-buffer cut catapult (and systrace) make to raw
text (drop what lies between the header and the last `CPU N buffer
started` line), for comparing a raw input with systrace's output.
"""
import collections
import gzip
import json
import re
import sys
import zlib

LOOKAHEAD = 128
SECTION = '<script class="trace-data" type="application/text">'
LINE_RE = re.compile(r'-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*'
                     r'([a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)?(\d+\.\d+):\s+(\S+):')
MARKER_RE = re.compile(r'^#+ CPU \d+ buffer started')


class Broken(Exception):
    pass


def guess(data):
    if data[:2] == b'\x1f\x8b':
        return 'gzip'
    start = data[:LOOKAHEAD]
    nows = re.sub(rb'\s', b'', start)
    if nows.startswith(b'{"meta"') or nows.startswith(b'{"libs"'):
        return 'gecko'
    if nows.startswith(b'{"') or nows.startswith(b'[{"'):
        return 'json'
    if b'# tracer' in start:
        return 'systrace'
    low = start.lower()
    if low.startswith(b'<!doctype html>') or low.startswith(b'<html>'):
        return 'systrace'
    if b'TRACE:\n\x78\x9c' in start:
        return 'ctrace'
    if b'TRACE:\n' in start or start.startswith(b'cpus=') or start.startswith(b' '):
        return 'systrace'
    return 'unknown'


def tokenize(line):
    m = LINE_RE.search(line)
    if not m:
        return None
    return {'task': line[:m.start()].strip(), 'pid': int(m.group(1)),
            'tgid': m.group(2), 'cpu': int(m.group(3)), 'ts': m.group(5),
            'event': m.group(6), 'args': line[m.end():]}


def cut(text):
    """catapult's circular-buffer cut on raw ftrace text."""
    lines = text.split('\n')
    h = next((i for i, l in enumerate(lines) if not l.startswith('#')), None)
    ms = [i for i, l in enumerate(lines) if MARKER_RE.match(l)]
    if h is None or not ms or ms[-1] == h:
        return text
    return '\n'.join(lines[:h] + lines[ms[-1]:])


def systrace(data, summary, do_cut):
    i = data[:LOOKAHEAD].find(b'TRACE:\n')
    if i >= 0:
        data = data[i + 7:]
    nl = data.find(b'\n')
    if nl >= 0 and re.fullmatch(rb'cpus=\d*', data[:nl]):
        data = data[nl + 1:]
    text = data.decode('utf-8', 'replace')
    html = text.startswith('<')
    if do_cut and not html:
        text = cut(text)
    state = 'html_before' if html else 'systrace'
    summary['html'] = html
    events = collections.Counter()
    sections, failures, ps_rows, lineno = [], 0, 0, 0
    ps_before_ftrace = None
    lines = text.split('\n')
    for line in lines[:-1]:       # the unterminated last line is never read
        lineno += 1
        if state == 'html_before':
            if SECTION in line:
                state = 'section'
        elif state == 'section':
            if line.startswith('#') and 'TASK-PID' in line:
                state = 'systrace'
                sections.append('ftrace')
                if ps_before_ftrace is None:
                    ps_before_ftrace = ps_rows > 0
            elif line.startswith('PROCESS DUMP'):
                state = 'ps_long'
                sections.append('process_dump')
            elif line.startswith('CGROUP DUMP'):
                state = 'cgroup'
                sections.append('cgroup_dump')
            elif '</script>' in line:
                sections.append('other')
                state = 'html_before'
        elif state == 'systrace':
            if '</script>' in line:
                summary['ended_at_line'] = lineno
                state = 'end'
                break
            if not line.startswith('#') and line:
                t = tokenize(line)
                if t:
                    events[t['event']] += 1
                else:
                    failures += 1
        elif state in ('ps_long', 'ps_short'):
            if '</script>' in line:
                state = 'html_before'
                continue
            tok = line.split()
            if tok[:4] == ['USER', 'PID', 'TID', 'CMD']:
                state = 'ps_short'
            elif len(tok) > 4 and tok[:4] == ['USER', 'PID', 'PPID', 'VSZ']:
                state = 'ps_long'
            elif state == 'ps_long' and len(tok) >= 10:
                if not (tok[1].isdigit() and tok[2].isdigit()):
                    raise Broken('could not parse PROCESS DUMP line: ' + line)
                ps_rows += 1
            elif state == 'ps_short' and len(tok) >= 4:
                if not (tok[1].isdigit() and tok[2].isdigit()):
                    raise Broken('could not parse PROCESS DUMP line: ' + line)
                ps_rows += 1
        elif state == 'cgroup':
            if '</script>' in line:
                state = 'html_before'
    summary.update({
        'sections': sections,
        'ftrace_events': sum(events.values()),
        'events': dict(events),
        'parse_failures': failures,
        'process_dump_rows': ps_rows,
        'process_dump_before_ftrace': bool(ps_before_ftrace),
        'trace_data_blocks': text.count(SECTION),
    })
    if html and 'ftrace' not in sections:
        raise Broken('no ftrace section (a trace-data block whose first deciding '
                     'line is "# ... TASK-PID")')


def json_trace(data, summary):
    try:
        doc = json.loads(data)
    except ValueError as e:
        raise Broken('not valid JSON: %s' % e)
    evs = doc if isinstance(doc, list) else doc.get('traceEvents', [])
    if isinstance(doc, dict) and 'systemTraceEvents' in doc:
        st = doc['systemTraceEvents']
        if not isinstance(st, str):
            raise Broken('systemTraceEvents is not a string')
        events = collections.Counter()
        for line in st.split('\n'):
            if line.startswith('#') or not line:
                continue
            t = tokenize(line)
            if not t:
                raise Broken('systemTraceEvents line does not tokenize (fatal in '
                             'Perfetto): %r' % line[:200])
            events[t['event']] += 1
        summary['ftrace_events'] = sum(events.values())
        summary['events'] = dict(events)
    if not isinstance(evs, list):
        raise Broken('traceEvents is not an array')
    phases = collections.Counter()
    threads = collections.defaultdict(list)
    async_open = {}
    bad_nesting = unmatched_e = 0
    for e in evs:
        if not isinstance(e, dict) or not e.get('ph'):
            raise Broken('event without ph: %r' % (e,))
        ph = e['ph']
        phases[ph] += 1
        if ph != 'M' and not isinstance(e.get('ts'), (int, float)):
            raise Broken('event without a numeric ts: %r' % (e,))
        for k in ('pid', 'tid'):
            if k in e and not isinstance(e[k], int):
                raise Broken('%s is not an integer: %r' % (k, e))
        if ph == 'X':
            if not isinstance(e.get('dur'), (int, float)) or e['dur'] < 0:
                raise Broken('X without a good dur: %r' % (e,))
            threads[(e['pid'], e['tid'])].append((e['ts'], e['ts'] + e['dur']))
        if ph == 'C':
            args = e.get('args', {})
            if not args or not all(isinstance(v, (int, float)) for v in args.values()):
                raise Broken('counter without numeric args: %r' % (e,))
        if ph == 'b':
            async_open[(e.get('cat'), e.get('id'))] = e.get('name')
        if ph == 'e':
            key = (e.get('cat'), e.get('id'))
            if async_open.pop(key, None) != e.get('name'):
                unmatched_e += 1
        if ph == 'M' and e.get('name') in ('process_name', 'thread_name'):
            if not isinstance(e.get('args', {}).get('name'), str):
                raise Broken('metadata without args.name: %r' % (e,))
    for spans in threads.values():
        stack = []
        for s, t in sorted(spans, key=lambda x: (x[0], -x[1])):
            while stack and stack[-1] <= s:
                stack.pop()
            if stack and t > stack[-1]:
                bad_nesting += 1
            stack.append(t)
    summary.update({'phases': dict(phases), 'trace_events': len(evs),
                    'bad_nesting': bad_nesting, 'unmatched_async_end': unmatched_e})
    if bad_nesting:
        raise Broken('%d X slices overlap without nesting' % bad_nesting)
    if unmatched_e:
        raise Broken('%d async ends without a begin' % unmatched_e)


def main():
    path = sys.argv[1]
    do_cut = '--cut' in sys.argv[2:]
    data = open(path, 'rb').read()
    summary = {'file': path}
    try:
        kind = guess(data)
        summary['type'] = kind
        if kind == 'gzip':
            data = gzip.decompress(data)
            kind = summary['type'] = 'gzip/' + guess(data)
        if kind.endswith('ctrace'):
            i = data.find(b'TRACE:\n')
            data = zlib.decompress(data[i + 7:])
            kind = summary['type'] = kind + '/' + guess(data)
        if kind.endswith('systrace'):
            systrace(data, summary, do_cut)
        elif kind.endswith('json'):
            json_trace(data, summary)
        else:
            raise Broken('Perfetto would not recognise this file (type %s)' % kind)
    except Broken as e:
        summary['error'] = str(e)
        print(json.dumps(summary))
        sys.stderr.write('perfetto_check: %s: %s\n' % (path, e))
        sys.exit(1)
    print(json.dumps(summary))


main()
