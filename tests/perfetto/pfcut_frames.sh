# Perfetto pieces (issue 35) of a trace with Android's frame timeline (the
# simulator's SurfaceFlinger, --preset frames), judged by Perfetto's trace
# processor: a frame that crosses a boundary is ended there and begun
# again at the next piece's start, so no piece has a frame without its end
# or an error stat, and each frame's parts in the pieces add up to it: the
# same frames (by token, expected and actual), their durations summed
# equal to the whole's.  Before, a crossing frame stayed open in the
# earlier piece and was missing from the later one.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
. "$TOP/tests/adb-env.sh"
need_perfetto
start_adb_server
start_sim

run_st 0 --perfetto --preset frames -t 3 -e "$SIM_SERIAL" -o f.html -q
[ -s f.perfetto-trace ] || fail "no kept trace"
run_st 0 --from-file f.perfetto-trace --split=300ms -o p.perfetto-trace -q
cat >q.sql <<'SQL'
select 'a', name, ts, dur from actual_frame_timeline_slice;
select 'e', name, ts, dur from expected_frame_timeline_slice;
select 'err', name, value from stats where severity in ('error', 'data_loss') and value > 0;
SQL
"$TRACE_PROCESSOR" -q q.sql f.perfetto-trace >whole.csv 2>tp.err || { cat tp.err; fail "whole"; }
for f in p.[0-9][0-9][0-9].perfetto-trace; do
    "$TRACE_PROCESSOR" -q q.sql "$f" >"$f.csv" 2>tp.err || { cat tp.err; fail "$f"; }
done
python3 - whole.csv p.[0-9][0-9][0-9].perfetto-trace.csv <<'PY' || fail "the pieces' frames"
import csv, sys
def rows(path):
    frames, errs = {}, []
    for r in csv.reader(open(path)):
        if len(r) == 4 and r[0] in ('a', 'e'):
            frames.setdefault((r[0], r[1]), []).append((int(r[2]), int(r[3])))
        elif r and r[0] == 'err':
            errs.append(r)
    return frames, errs
whole, werr = rows(sys.argv[1])
assert len(whole) > 100, len(whole)
total, cut = {}, 0
for p in sys.argv[2:]:
    frames, errs = rows(p)
    assert errs == werr, (p, 'error stats', errs)
    for k, parts in frames.items():
        assert all(d >= 0 for _, d in parts), (p, k, 'a frame without its end', parts)
        total.setdefault(k, []).extend(parts)
assert sorted(total) == sorted(whole), ('frames', len(total), len(whole))
for k, parts in total.items():
    cut += len(parts) > 1
    assert sum(d for _, d in parts) == sum(d for _, d in whole[k]), (k, parts, whole[k])
assert cut > 0, 'no frame crossed a boundary: the test proves nothing'
print('%d frames in %d pieces, %d of them cut, each whole again' % (len(whole),
      len(sys.argv) - 2, cut))
PY
echo ok
