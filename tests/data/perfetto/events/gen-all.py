#!/usr/bin/env python3
# Writes all-events.textproto: every ftrace event type of Perfetto's
# FtraceEvent oneof, four times (every field at its lowest value or empty,
# at its highest or with spaces/newlines, a typical value, and only the
# first field: generic types only, as Perfetto prints a hand-formatted
# event's fields by their positions in the first event of its type), for
# tests/e2e/perfetto_events.sh to check this project's
# event text against Perfetto's own to_ftrace.  Nested-message fields are
# left out.  SMALL: types whose importer makes CPU tracks or i2c state from
# the values, where Perfetto's trace processor aborts on extreme ones: their
# numbers stay small (0, 3, 7).
#   gen-all.py PROTO > all-events.textproto
import re
import sys

SMALL = {"cpu_frequency", "cpu_frequency_limits", "cpu_idle", "i2c_read", "i2c_write",
         "i2c_result", "cpuhp_exit", "cpuhp_multi_enter", "cpuhp_enter", "sched_cpu_util_cfs",
         "dcvsh_freq"}

# to_ftrace's hand-written formats (formats/perfetto/pfevent_special.c).
SPECIAL = {"print", "sched_switch", "sched_wakeup", "clock_set_rate", "clk_set_rate",
           "clock_enable", "clock_disable", "binder_transaction", "binder_transaction_alloc_buf",
           "binder_transaction_received", "mm_filemap_add_to_page_cache", "sched_blocked_reason",
           "workqueue_activate_work", "workqueue_execute_start", "workqueue_execute_end",
           "workqueue_queue_work", "irq_handler_entry", "irq_handler_exit", "softirq_entry",
           "softirq_exit", "tracing_mark_write", "dpu_tracing_mark_write", "panel_write_generic",
           "g2d_tracing_mark_write", "samsung_tracing_mark_write", "cgroup_attach_task",
           "hrtimer_expire_entry", "i2c_write", "i2c_read", "i2c_reply", "i2c_result"}


# Left out: Perfetto's tokenizer gives these a time of their own (the reader's
# business, not the text's); workqueue_queue_work's workqueue is a string
# that Perfetto prints as its internal string id in hex.
SKIP = {"generic", "gpu_work_period", "thermal_exynos_acpm_bulk", "param_set_value_cpm",
        "workqueue_queue_work"}


def messages(src):
    out = {}
    for m in re.finditer(r"^message (\w+) \{", src, re.M):
        depth, i = 1, m.end()
        while depth:
            depth += src[i] == "{"
            depth -= src[i] == "}"
            i += 1
        out[m.group(1)] = src[m.end():i - 1]
    return out

INTS = {
    "int32": ["-2147483648", "2147483647", "-42"], "sint32": ["-2147483648", "2147483647", "-7"],
    "int64": ["-9223372036854775808", "9223372036854775807", "-100000000000"],
    "sint64": ["-9223372036854775808", "9223372036854775807", "-3"],
    "uint32": ["0", "4294967295", "1234"], "uint64": ["0", "18446744073709551615", "4096"],
    "fixed32": ["0", "4294967295", "5"], "fixed64": ["0", "18446744073709551615", "6"],
    "bool": ["false", "true", "true"],
}
STRS = ['""', '"two words\\nand a line"', '"kworker/u16:3-events"']

def main():
    src = re.sub(r"//[^\n]*", "", open(sys.argv[1], encoding="utf-8").read())
    msgs = messages(src)
    enums = {m.group(1): re.findall(r"^\s*(\w+) = (-?\d+);", m.group(2), re.M)
             for m in re.finditer(r"\benum (\w+) \{(.*?)\}", src, re.S)}
    oneof = msgs["FtraceEvent"].split("oneof event {", 1)[1]
    events = re.findall(r"^\s*(\w+) (\w+) = (\d+);", oneof, re.M)
    out = ["packet {", "  ftrace_events {", "    cpu: 1"]
    ts = 1000000000
    for typ, name, num in sorted(events, key=lambda e: int(e[2])):
        if name in SKIP:
            continue
        body = msgs[typ]
        body = re.sub(r"(message|enum) \w+ \{[^{}]*\}", "", body)
        fields = re.findall(r"^\s*(?:optional|repeated)?\s*([\w.]+) (\w+) = (\d+)", body, re.M)
        fields.sort(key=lambda f: int(f[2]))
        scalar = [f for f in fields if f[0] in INTS or f[0] in ("string", "bytes")
                  or f[0].split(".")[-1] in enums]
        if not scalar:
            continue    # no args: Perfetto prints another event's (arg set 0)
        for variant in range(3 if name in SPECIAL else 4):
            vals = []
            for i, (ftype, fname, fnum) in enumerate(fields):
                if variant == 3 and i > 0:
                    break
                v = variant % 3
                if ftype in INTS and name in SMALL and ftype != "bool":
                    vals.append("%s: %s" % (fname, ["0", "3", "7"][v]))
                elif ftype in INTS:
                    vals.append("%s: %s" % (fname, INTS[ftype][v]))
                elif ftype in ("string", "bytes"):
                    vals.append("%s: %s" % (fname, STRS[v]))
                elif ftype.split(".")[-1] in enums:
                    vals.append("%s: %s" % (fname, enums[ftype.split(".")[-1]][v % len(enums[ftype.split(".")[-1]])][0]))
            ts += 1000
            out.append("    event { timestamp: %d pid: %d %s { %s } }" %
                       (ts, 100 + variant, name, " ".join(vals)))
    out += ["  }", "}"]
    print("\n".join(out))

main()
