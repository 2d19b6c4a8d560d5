#!/usr/bin/env python3
"""startupcheck.py METRICS_JSON SUMMARY_JSON MIN: the summary's startups[]
equal Perfetto's android_startup metric (trace_processor_shell
--run-metrics android_startup --metrics-output=json): the same startups in
order, package and type equal, ts, to_first_frame, to_full_display and
the main thread's time by state within 1 us, the well-known slices'
time where Perfetto gives one, and slow_reasons equal to Perfetto's
slow_start_reason, those the summary computes (COMPUTED), in its order.
At least MIN startups."""
import json
import sys

m = json.load(open(sys.argv[1])).get('android_startup', {}).get('startup', [])
ours = json.load(open(sys.argv[2]))['startups']
bad = []
if len(m) != len(ours) or len(ours) < int(sys.argv[3]):
    sys.exit('startups: Perfetto %d, ours %d (want >= %s)' % (len(m), len(ours), sys.argv[3]))


def near(what, want_ns, got_ms):
    if got_ms is None or abs(want_ns / 1e6 - got_ms) > 0.001:
        bad.append('%s: Perfetto %s ms, ours %s' % (what, want_ns / 1e6, got_ms))


STATES = {'running': 'running_dur_ns', 'runnable': 'runnable_dur_ns',
          'uninterruptible': 'uninterruptible_sleep_dur_ns', 'sleeping': 'interruptible_sleep_dur_ns'}
SLICES = {'bindApplication': 'time_bind_application', 'activityStart': 'time_activity_start',
          'activityResume': 'time_activity_resume', 'inflate': 'time_inflate',
          'ResourcesManager': 'time_get_resources', 'dex_open': 'time_dex_open',
          'verify_class': 'time_verify_class', 'gc': 'time_gc_total',
          'lock_contention': 'time_lock_contention_thread_main'}
COMPUTED = ['GC Activity', 'Main Thread - Time spent in interruptible sleep state',
            'Time spent in bindApplication', 'Time spent in view inflation',
            'Time spent in ResourcesManager#getResources', 'Time spent verifying classes',
            'Main Thread - Lock contention', 'Main Thread - Monitor contention',
            'Startup running concurrent to launch']
for i, (p, o) in enumerate(zip(m, ours)):
    want = [r for r in p.get('slow_start_reason', []) if r in COMPUTED]
    if want != o['slow_reasons']:
        bad.append('#%d slow reasons: Perfetto %s, ours %s' % (i, want, o['slow_reasons']))
    w = '#%d %s' % (i, p.get('package_name'))
    if p.get('package_name') != o['package'] or p.get('startup_type') != o['type']:
        bad.append('%s: Perfetto %s %s, ours %s %s' % (w, p.get('package_name'),
                   p.get('startup_type'), o['package'], o['type']))
    if p['event_timestamps']['intent_received'] != o['ts']:
        bad.append('%s ts: Perfetto %s, ours %s' % (w, p['event_timestamps']['intent_received'], o['ts']))
    t = p.get('to_first_frame', {})
    near(w + ' to_first_frame', t.get('dur_ns', 0), o['to_first_frame_ms'])
    if 'report_fully_drawn' in p:
        near(w + ' to_full_display', p['report_fully_drawn']['dur_ns'], o['to_full_display_ms'])
    elif o['to_full_display_ms'] is not None:
        bad.append('%s: to_full_display without reportFullyDrawn' % w)
    st = t.get('main_thread_by_task_state', {})
    for k, pk in STATES.items():
        near('%s %s' % (w, k), st.get(pk, 0), o['main_thread_ms'][k])
    for k, pk in SLICES.items():
        near('%s %s' % (w, k), t.get(pk, {}).get('dur_ns', 0), o['slices_ms'][k])
if bad:
    sys.exit('\n'.join(bad))
print('%d startups equal' % len(ours))
