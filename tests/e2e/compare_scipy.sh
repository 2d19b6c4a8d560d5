# systrace compare's Mann-Whitney U test (lib/stats.c, through
# tests/tools/mwutool) against SciPy's scipy.stats.mannwhitneyu with its
# defaults (two-sided, continuity correction, method='auto'): U and
# p-values on generated samples of every size pair n = 1..30 per side,
# with and without ties (the exact method for small samples without ties,
# the normal approximation with tie correction otherwise).
. "$TOP/tests/lib.sh"
# tests/run starts python3 with -S; SciPy lives in the distribution's
# site directory
py=/usr/bin/python3
[ -x "$py" ] && "$py" -c 'import scipy' 2>/dev/null ||
    skip "SciPy (Debian python3-scipy) absent"
"$py" - <<'PY' >samples.txt || fail "generating samples"
import random
r = random.Random(34)
for nx in range(1, 31):
    for ny in range(1, 31):
        for ties in (0, 1):
            if ties:        # few distinct values: many ties
                x = [r.randint(0, 5) for _ in range(nx)]
                y = [r.randint(1, 6) for _ in range(ny)]
            else:
                x = [round(r.lognormvariate(0, 0.1), 9) for _ in range(nx)]
                y = [round(r.lognormvariate(0.05, 0.1), 9) for _ in range(ny)]
            print(' '.join(map(repr, x)), '|', ' '.join(map(repr, y)))
PY
"$BUILD/tools/mwutool" <samples.txt >ours.txt || fail "mwutool"
"$py" - samples.txt ours.txt <<'PY' || fail "U or p differs from SciPy's"
import sys
from scipy.stats import mannwhitneyu
bad = exact = 0
lines = open(sys.argv[1]).read().splitlines()
ours = open(sys.argv[2]).read().splitlines()
assert len(lines) == len(ours) == 1800, (len(lines), len(ours))
for line, got in zip(lines, ours):
    xs, ys = line.split('|')
    x = [float(v) for v in xs.split()]
    y = [float(v) for v in ys.split()]
    want = mannwhitneyu(x, y)
    u, p, ex = got.split()
    exact += int(ex)
    if float(u) != want.statistic or abs(float(p) - want.pvalue) > 1e-9 * max(1, want.pvalue):
        bad += 1
        if bad < 10:
            print('differs:', line, '->', got, 'scipy', want.statistic, want.pvalue)
assert not bad, bad
assert 200 < exact < 1800, exact      # both methods were reached
print('1800 pairs agree with SciPy;', exact, 'by the exact method')
PY
