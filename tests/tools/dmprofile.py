#!/usr/bin/env python3
"""Compares method profiles by their numbers, not their whitespace.

    dmprofile.py compare REFERENCE OURS...

REFERENCE is dmtracedump's text profile; OURS is either our text profile
(same four sections) or our TSV (--method-profile-format tsv; then the
class and method-name sections, which TSV does not have, are skipped).
Both are parsed into: total cycles; per method index: name, calls,
recursive calls, inclusive, exclusive, non-recursive exclusive; parent and
child edges (calls, total calls, time); per class and per method name:
exclusive and calls.  dmtracedump prints ART signatures with
"<TAB>File.java" appended; that suffix is dropped before comparing.
Each OURS is compared with REFERENCE; prints the first differences and
exits 1 if there are any.
"""
import re
import sys

SEP = "=" * 70
M_LINE = re.compile(r"^\[(\d+)\]\s+[-\d.na]+%\s+(\d+)\+(\d+)\s+(\d+) (.*)$")
EXCL_LINE = re.compile(r"^\s+[-\d.na]+%\s+excl\s+(\d+)$")
REL_LINE = re.compile(r"^\s+(?:[-\d.na]+%\s+)?\[(\d+)\]\s+(\d+)/(\d+)\s+"
                      r"(\d+) (.*)$")
X_LINE = re.compile(r"^\s*(\d+)\s+[-\d.na]+\s+[-\d.na]+\s+\[(\d+)\] (.*)$")
G_LINE = re.compile(r"^\s*(\d+)\s+[-\d.na]+\s+[-\d.na]+\s+(\d+)\+(\d+)\s+"
                    r"(.*)$")
GM_LINE = re.compile(r"^\s*(\d+)\s+(\d+)\s+[-\d.na]+\s+[-\d.na]+\s+"
                     r"(\d+)\+(\d+)\s+\[(\d+)\] (.*)$")


def clean(name):
    return name.split("\t", 1)[0]


def empty():
    return {"total": None, "excl": {}, "methods": {}, "edges": {},
            "groups": {}}


def parse_text(text):
    p = empty()
    sections = text.split(SEP)
    if len(sections) < 3:
        raise ValueError("not a dmtracedump text profile")
    for line in sections[1].splitlines():
        if line.startswith("Total cycles:"):
            p["total"] = int(line.split(":")[1])
        m = X_LINE.match(line)
        if m:
            p["excl"][int(m.group(2))] = (int(m.group(1)),
                                          clean(m.group(3)))
    parse_inclusive(p, sections[2])
    for kind, sec in (("class", 3), ("name", 4)):
        if len(sections) > sec:
            parse_groups(p, kind, sections[sec])
    return p


def parse_inclusive(p, sec):
    cur, side, rec = None, "parent", 0
    pending = []
    for line in sec.splitlines():
        if line.startswith("-----"):
            cur, side, rec, pending = None, "parent", 0, []
            continue
        if "+++++" in line:
            rec = 1
            continue
        m = M_LINE.match(line)
        if m:
            cur = int(m.group(1))
            p["methods"][cur] = {"name": clean(m.group(5)),
                                 "calls": int(m.group(2)),
                                 "rcalls": int(m.group(3)),
                                 "incl": int(m.group(4))}
            for (r, idx, val) in pending:
                p["edges"][("parent", r, cur, idx)] = val
            side, rec = "child", 0
            continue
        m = EXCL_LINE.match(line)
        if m and cur is not None:
            p["methods"][cur]["top_excl"] = int(m.group(1))
            continue
        m = REL_LINE.match(line)
        if m:
            idx = int(m.group(1))
            val = (int(m.group(2)), int(m.group(3)), int(m.group(4)),
                   clean(m.group(5)))
            if side == "parent":
                pending.append((rec, idx, val))
            else:
                p["edges"][("child", rec, cur, idx)] = val


def parse_groups(p, kind, sec):
    group = None
    for line in sec.splitlines():
        m = GM_LINE.match(line)
        if m and group is not None:
            p["groups"][(kind, group, int(m.group(5)))] = (
                int(m.group(1)), int(m.group(2)), int(m.group(3)),
                int(m.group(4)))
            continue
        m = G_LINE.match(line)
        if m:
            group = clean(m.group(4))
            p["groups"][(kind, group)] = (int(m.group(1)), int(m.group(2)),
                                          int(m.group(3)))


def parse_tsv(text):
    p = empty()
    p["groups"] = None
    lines = text.splitlines()
    if not lines or not lines[0].startswith("kind\t"):
        raise ValueError("not our TSV profile")
    calls = {}
    names = {}
    rows = [ln.split("\t") for ln in lines[1:]]
    for f in rows:
        if f[0] == "method":
            idx = int(f[1])
            name = f[9] if not f[10] else "%s.%s %s" % (f[9], f[10], f[11])
            names[idx] = name
            calls[idx] = int(f[3]) + int(f[4])
            p["methods"][idx] = {"name": name, "calls": int(f[3]),
                                 "rcalls": int(f[4]), "incl": int(f[5]),
                                 "top_excl": int(f[7])}
            if int(f[6]):
                p["excl"][idx] = (int(f[6]), name)
            if name == "(toplevel)":
                p["total"] = int(f[5])
    for f in rows:
        if f[0] == "method":
            continue
        side, _, rec = f[0].partition("_")
        idx, rel = int(f[1]), int(f[2])
        name = f[9] if not f[10] else "%s.%s %s" % (f[9], f[10], f[11])
        total = calls[idx] if side == "parent" else calls.get(rel)
        p["edges"][(side, 1 if rec else 0, idx, rel)] = (
            int(f[3]), total, int(f[5]), name)
    # dmtracedump lists only methods with inclusive time in this section
    p["methods"] = {k: v for k, v in p["methods"].items() if v["incl"]}
    p["edges"] = {k: v for k, v in p["edges"].items() if k[2] in p["methods"]}
    return p


def parse(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    return parse_tsv(text) if text.startswith("kind\t") else parse_text(text)


def compare(ref, ours):
    diffs = []
    if ref["total"] != ours["total"]:
        diffs.append("total: %s != %s" % (ref["total"], ours["total"]))
    for what in ("excl", "methods", "edges", "groups"):
        a, b = ref[what], ours[what]
        if b is None:
            continue
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                diffs.append("%s %s: %s != %s" % (what, k, a.get(k),
                                                  b.get(k)))
    return diffs


def main():
    if len(sys.argv) < 4 or sys.argv[1] != "compare":
        sys.exit(__doc__)
    ref = parse(sys.argv[2])
    if not ref["methods"] and ref["total"]:
        sys.exit("reference has no inclusive section")
    bad = 0
    for path in sys.argv[3:]:
        ours = parse(path)
        diffs = compare(ref, ours)
        for d in diffs[:20]:
            print("%s: %s" % (path, d))
        if diffs:
            print("%s: %d difference(s)" % (path, len(diffs)))
            bad = 1
            continue
        print("%s: same: total %d, %d methods, %d edges, %d class/name rows" % (
            path, ref["total"], len(ref["methods"]), len(ref["edges"]),
            len(ref["groups"]) if ours["groups"] is not None else 0))
    sys.exit(bad)


if __name__ == "__main__":
    main()
