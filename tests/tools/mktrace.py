#!/usr/bin/env python3
"""Writes Android method-trace files for tests (docs/method-traces.md).

    mktrace.py [options] OUT < SCRIPT
    mktrace.py --bench MEGABYTES OUT

Formats: --format v1 (9-byte records, 1-byte thread ids), v2 (10 bytes),
v3 (14 bytes dual clock, or --record-size), stream (header 0xF3/0xF2,
inline packets, summary at the end).

SCRIPT lines (# starts a comment; fields split on whitespace, a field
"\\t" stands for an empty field, "_" inside a name for a space):
    thread ID NAME                       *threads entry (stream: packet here)
    method ID CLASS [NAME SIG [FILE [LINE]]]
                                         *methods entry with as many columns
                                         as given (stream: packet here)
    option KEY=VALUE                     extra key option line
    ent|xit|unr|bad TID METHOD T [T2]    a record (action 0/1/2/3); times
                                         are written modulo 2^32
    raw HEX                              raw bytes in the data section
    summary-thread ID NAME               stream: only in the summary

Options for broken files: --truncate N (drop the last N bytes),
--key-only (stop after *end), --no-summary (stream), --mangle (transcode
the binary part cp1252 -> UTF-8, as text-mode transfers did), --key-version
N (a different version in the key than in the header), --header-version N,
--record-offset N (offset to the first record).  --time-column 1 writes
a record's second script time first (a single-clock file of the wall
times of a dual-clock script).

--random N writes N records of a random nested run on --tids (times go
through the same options as script records).  --bench MEGABYTES writes a synthetic instrumented v3 trace of about that
size (8 threads, 4000 methods, nested calls, some recursion and unrolls)
that dmtracedump can also read.
"""
import argparse
import random
import struct
import sys

ACTIONS = {"ent": 0, "xit": 1, "unr": 2, "bad": 3}


def field(s):
    return "" if s == "\\t" else s.replace("_", " ")


class Trace:
    def __init__(self, a):
        self.a = a
        self.stream = a.format == "stream"
        self.version = {"v1": 1, "v2": 2, "v3": 3, "stream": 3}[a.format]
        if a.clock is None:
            a.clock = "dual" if self.version == 3 else "thread-cpu"
        dual = a.clock == "dual" and self.version == 3
        self.rs = a.record_size or (14 if dual else 10 if self.version > 1
                                    else 9)
        self.ncol = 2 if self.rs >= 14 else 1
        self.threads = []           # key / summary
        self.methods = []           # key
        self.options = []
        self.body = bytearray()     # records (+ packets when streaming)
        self.max_wall = 0

    def add_thread(self, tid, name, inline=True):
        self.threads.append((tid, name))
        if self.stream and inline:
            nb = name.encode()
            self.body += struct.pack("<HBHH", 0, 2, tid, len(nb)) + nb

    def add_method(self, fields):
        line = "\t".join(fields)
        if self.stream:
            lb = (line + "\n").encode()
            self.body += struct.pack("<HBH", 0, 1, len(lb)) + lb
        else:
            self.methods.append(line)

    def add_record(self, action, tid, method, times):
        if self.a.time_column and len(times) > 1:
            times = times[1:] + times[:1]
        times = [x + self.a.time_offset for x in times]
        self.max_wall = max(self.max_wall, times[-1])
        times = [t & 0xFFFFFFFF for t in times] + [0] * 2
        val = (method & ~3 | action) & 0xFFFFFFFF
        if self.version == 1:
            rec = struct.pack("<BII", tid & 0xFF, val, times[0])
        else:
            rec = struct.pack("<HII", tid & 0xFFFF, val, times[0])
        if self.ncol == 2:
            rec += struct.pack("<I", times[1])
        rec += bytes(max(0, self.rs - len(rec)))
        self.body += rec[:self.rs] if self.rs >= 10 else rec

    def key_text(self, summary=False):
        a = self.a
        out = ["*version", str(a.key_version or self.version),
               "data-file-overflow=false", "clock=" + a.clock,
               "elapsed-time-usec=%d" % (a.elapsed if a.elapsed is not None
                                         else self.max_wall)]
        if not summary:
            out.append("num-method-calls=%d" % (len(self.body) // self.rs))
        out.append("vm=" + a.vm)
        if a.pid:
            out.append("pid=%d" % a.pid)
        out += self.options
        out.append("*threads")
        out += ["%d\t%s" % t for t in self.threads]
        out.append("*methods")
        if not summary:
            out += self.methods
        out.append("*end")
        return ("\n".join(out) + "\n").encode()

    def header(self):
        a = self.a
        v = a.header_version
        if v is None:
            v = (0xF0 | self.version) if self.stream else self.version
        off = a.record_offset or 32
        h = struct.pack("<IHHQH", 0x574F4C53, v, off, a.start, self.rs)
        return h + bytes(max(0, off - len(h)))

    def build(self):
        a = self.a
        if self.stream:
            data = self.header() + self.body
            if not a.no_summary:
                s = self.key_text(summary=True)
                data += struct.pack("<HBI", 0, 3, len(s)) + s
            return data
        key = self.key_text()
        if a.key_only:
            return key
        binary = self.header() + self.body
        if a.mangle:
            binary = binary.decode("cp1252", errors="replace").encode()
        return key + binary


def run_script(t, text):
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        w = line.split()
        try:
            if w[0] == "thread":
                t.add_thread(int(w[1], 0), " ".join(field(x) for x in w[2:]))
            elif w[0] == "summary-thread":
                t.add_thread(int(w[1], 0), " ".join(field(x) for x in w[2:]),
                             inline=False)
            elif w[0] == "method":
                t.add_method([w[1]] + [field(x) for x in w[2:]])
            elif w[0] == "option":
                t.options.append(w[1])
            elif w[0] in ACTIONS:
                t.add_record(ACTIONS[w[0]], int(w[1], 0), int(w[2], 0),
                             [int(x, 0) for x in w[3:5]])
            elif w[0] == "raw":
                t.body += bytes.fromhex("".join(w[1:]))
            else:
                raise ValueError("unknown command " + w[0])
        except (IndexError, ValueError) as e:
            sys.exit("mktrace: line %d: %s" % (n, e))


def walk(rnd, nmeth, tids, count):
    """Yields (action, tid, method index, cpu, wall) of an instrumented-
    looking run: threads in bursts walking a fixed sparse call graph (each
    method calls 1-6 others), some direct recursion, a few unrolls."""
    kids = []
    for i in range(nmeth):
        hi = min(nmeth, i + 300)
        n = 0 if i + 1 >= hi else rnd.randrange(1, 7)
        kids.append([rnd.randrange(i + 1, hi) for _ in range(n)])
    state = {tid: ([], 0, 0) for tid in tids}
    done = 0
    while done < count:
        tid = tids[rnd.randrange(len(tids))]
        stack, cpu, wall = state[tid]
        for _ in range(min(512, count - done)):
            cpu += rnd.randrange(0, 4)
            wall += rnd.randrange(1, 6)
            top = stack[-1] if stack else None
            options = kids[top] if stack else range(min(50, nmeth))
            if stack and (not options or len(stack) >= 60 or
                          rnd.random() < 0.45):
                act = 2 if rnd.random() < 0.002 else 1
                yield act, tid, stack.pop(), cpu, wall
            else:
                if stack and rnd.random() < 0.03:
                    m = top                     # direct recursion
                else:
                    m = options[rnd.randrange(len(options))]
                stack.append(m)
                yield 0, tid, m, cpu, wall
            done += 1
        state[tid] = (stack, cpu, wall)


def declare(t, nmeth, tids):
    for i in range(nmeth):
        t.add_method(["0x%08x" % (0x10000 + 4 * i), "com/bench/C%d" % (i % 97),
                      "m%d" % i, "(I)V", "C%d.java" % (i % 97), str(i)])
    for tid in tids:
        t.add_thread(tid, "worker-%d" % tid)


def bench(t, megabytes):
    """A large v3 dual-clock file, packed directly for speed."""
    tids = list(range(1, 9))
    declare(t, 4000, tids)
    pack = struct.Struct("<HIII").pack
    recs = walk(random.Random(1), 4000, tids, megabytes * 1000000 // 14)
    t.body = bytearray(b"".join(pack(tid, (0x10000 + 4 * m) | act, c, w)
                                for act, tid, m, c, w in recs))


def random_trace(t, count, tids, seed):
    """The same kind of run through add_record (all options apply)."""
    nmeth = 300
    declare(t, nmeth, tids)
    for act, tid, m, c, w in walk(random.Random(seed), nmeth, tids, count):
        t.add_record(act, tid, 0x10000 + 4 * m, [c, w])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--format", default="v3",
                   choices=["v1", "v2", "v3", "stream"])
    p.add_argument("--clock", choices=["dual", "wall", "thread-cpu"])
    p.add_argument("--record-size", type=int)
    p.add_argument("--start", type=int, default=1000000)
    p.add_argument("--vm", default="dalvik")
    p.add_argument("--pid", type=int)
    p.add_argument("--truncate", type=int, default=0)
    p.add_argument("--key-only", action="store_true")
    p.add_argument("--no-summary", action="store_true")
    p.add_argument("--mangle", action="store_true")
    p.add_argument("--key-version", type=int)
    p.add_argument("--header-version", type=lambda s: int(s, 0))
    p.add_argument("--record-offset", type=int)
    p.add_argument("--time-column", type=int, choices=[0, 1], default=0,
                   help="script time written first (1: the second one)")
    p.add_argument("--elapsed", type=int,
                   help="elapsed-time-usec (default: the last wall time)")
    p.add_argument("--time-offset", type=int, default=0,
                   help="added to record times before they wrap at 2^32")
    p.add_argument("--bench", type=int, metavar="MEGABYTES")
    p.add_argument("--random", type=int, metavar="RECORDS",
                   help="a random nested run instead of a script")
    p.add_argument("--tids", default="1,2,3",
                   help="thread ids for --random (comma-separated)")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    t = Trace(a)
    if a.bench:
        bench(t, a.bench)
    elif a.random:
        random_trace(t, a.random, [int(x, 0) for x in a.tids.split(",")],
                     a.seed)
    else:
        run_script(t, sys.stdin.read())
    data = t.build()
    if a.truncate:
        data = data[:-a.truncate]
    with open(a.out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
