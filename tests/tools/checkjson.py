#!/usr/bin/env python3
"""Checks a trace-event JSON file made from a method trace.

Parses it (strict JSON), then per (pid, tid): B/E events balance, nest,
and never go back in time; tts (if present) never goes back either.
Prints a one-line summary as JSON (counts), exits 1 with a message on the
first problem.  Usage: checkjson.py FILE [FLAT]: FLAT gets the counts as
"key<TAB>value" lines too, nested keys joined by dots (for tests/tools/
mtrace_lib.sh's jget, which then needs no Python of its own).
"""
import json
import sys


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    evs = doc["traceEvents"]
    stacks, last, lastt = {}, {}, {}
    counts = {"B": 0, "E": 0, "M": 0, "threads": 0, "names": {},
              "synthetic_begin": 0, "synthetic_end": 0, "exception": 0,
              "implicit_end": 0, "max_depth": 0, "top": 0}
    for i, e in enumerate(evs):
        ph = e["ph"]
        if ph == "M":
            counts["M"] += 1
            if e["name"] == "thread_name":
                counts["names"][str(e["tid"])] = e["args"]["name"]
            continue
        key = (e["pid"], e["tid"])
        ts = e["ts"]
        if not isinstance(ts, int):
            sys.exit("event %d: ts not an integer" % i)
        if ts < last.get(key, ts):
            sys.exit("event %d: ts goes back on %s" % (i, key))
        last[key] = ts
        if "tts" in e:
            if e["tts"] < lastt.get(key, e["tts"]):
                sys.exit("event %d: tts goes back on %s" % (i, key))
            lastt[key] = e["tts"]
        st = stacks.setdefault(key, [])
        args = e.get("args", {})
        for flag in ("synthetic_begin", "synthetic_end", "exception",
                     "implicit_end"):
            if args.get(flag):
                counts[flag] += 1
        if ph == "B":
            counts["B"] += 1
            if not e.get("name"):
                sys.exit("event %d: B without a name" % i)
            st.append(e)
            counts["top"] += len(st) == 1
            counts["max_depth"] = max(counts["max_depth"], len(st))
        elif ph == "E":
            counts["E"] += 1
            if not st:
                sys.exit("event %d: E without B on %s" % (i, key))
            b = st.pop()
            if ts < b["ts"]:
                sys.exit("event %d: slice ends before it begins" % i)
        else:
            sys.exit("event %d: unexpected phase %r" % (i, ph))
    for key, st in stacks.items():
        if st:
            sys.exit("%d slice(s) left open on %s" % (len(st), key))
    counts["threads"] = len(stacks)
    counts["other"] = doc.get("otherData", {})
    print(json.dumps(counts, sort_keys=True))
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w", encoding="utf-8") as f:
            flat(f, "", counts)


def flat(f, prefix, v):
    if isinstance(v, dict):
        for k, x in sorted(v.items()):
            flat(f, prefix + str(k) + ".", x)
    else:
        f.write("%s\t%s\n" % (prefix[:-1], v))


if __name__ == "__main__":
    main()
