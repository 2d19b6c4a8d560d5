// What check.mjs asks of a page, shared by its own browser and the run's
// shared one (server.mjs): open a systrace page in a tab, wait for the
// viewer's import to end, and summarise the model it made.
//
// Tabs are kept and reused (TabPool): a tab that already ran the viewer
// keeps its renderer, whose compiled copy of the viewer's scripts makes the
// next page load in about half the time and a third of the CPU of one in a
// fresh context.  Each tab has its own browser context (storage, routes);
// between checks its storage is cleared and it is parked on about:blank, and
// a tab that timed out, crashed or failed in any way is closed, not reused.

import {createHash} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const NAME_CAP = 100;   // keeps corpus-sized name lists out of the JSON line
const VIEWPORT = {width: 1280, height: 800};

// Runs in the page: has the import ended, one way or the other?
function importEnded() {
  const overlayTitle = (o) => {
    const t = o.shadowRoot && o.shadowRoot.querySelector('title') ||
              o.querySelector('title');
    return t ? t.textContent : '';
  };
  for (const o of Array.from(document.querySelectorAll('.overlay'))) {
    if (overlayTitle(o) === 'Import error') return true;
  }
  if (window.systraceLoad) return window.systraceLoad.done;
  const view = document.querySelector('tr-ui-timeline-view');
  return !!(view && view.model);
}

// Runs in the page: what the viewer made of the trace.
function summarize(nameCap) {
  // Does the trace name this thread?  ftrace writes "<...>" for a task
  // whose name it did not know; the viewer renames a process's main
  // thread "UI Thread" (moving its name to the process) or "UI thread"
  // (when the process dump names the process).
  const namedByTrace = (t) => {
    let name = t.name;
    if ((name === 'UI Thread' || name === 'UI thread') && t.parent &&
        t.tid === t.parent.pid) {
      name = t.parent.name;
    }
    return !!name && name !== '<...>';
  };
  const out = {ok: false, error: null, title: document.title};
  // innerText holds only rendered text: true while the viewer's yellow
  // "running with WebComponentsV0 polyfill" bar is on screen.
  out.polyfillBanner = document.body.innerText.includes('WebComponentsV0 polyfill');
  let errorText = null;
  for (const o of Array.from(document.querySelectorAll('.overlay'))) {
    const t = o.shadowRoot && o.shadowRoot.querySelector('title') ||
              o.querySelector('title');
    if (t && t.textContent === 'Import error') {
      errorText = (o.textContent || '').trim() || 'Import error';
    }
  }
  const load = window.systraceLoad;
  if (load && load.error) errorText = load.error;
  out.error = errorText;
  const view = document.querySelector('tr-ui-timeline-view');
  const model = load && load.model || view && view.model;
  out.viewTitle = view && view.$ && view.$.title ? view.$.title.textContent : null;
  out.fastTracks = load && load.fastTracks ? load.fastTracks : null;
  if (!model) {
    out.ok = errorText === null && !!load && load.done;
    return out;
  }
  out.ok = errorText === null;
  const processes = Object.values(model.processes);
  const threads = Object.values(model.kernel.threads || {});
  for (const p of processes) threads.push(...Object.values(p.threads));
  const countAsync = (slices) => slices.reduce(
      (n, s) => n + 1 + countAsync(s.subSlices || []), 0);
  out.processes = processes.length;
  out.threads = threads.length;
  out.slices = threads.reduce((n, t) => n + t.sliceGroup.slices.length, 0);
  const cpus = Object.values(model.kernel.cpus);
  out.cpus = cpus.filter((c) => c.slices.length > 0).length;
  out.cpuSlices = cpus.reduce((n, c) => n + c.slices.length, 0);
  const counters = model.getAllCounters();
  out.counters = counters.length;
  out.counterSamples = counters.reduce(
      (n, c) => n + c.series.reduce((m, s) => m + s.samples.length, 0), 0);
  out.cpuCounters = cpus.reduce((n, c) => n + Object.keys(c.counters).length, 0);
  const sliced = threads.filter((t) => t.sliceGroup.slices.length > 0);
  out.sliceThreads = sliced.length;
  out.namedSliceThreads = sliced.filter(namedByTrace).length;
  out.asyncSlices = threads.reduce(
      (n, t) => n + countAsync(t.asyncSliceGroup.slices), 0);
  const unfinished = (s) => s.didNotFinish || /no matching END/.test(s.error || '');
  const countUnfinished = (slices) => slices.reduce(
      (n, s) => n + (unfinished(s) ? 1 : 0) + countUnfinished(s.subSlices || []), 0);
  out.unfinishedAsyncSlices = threads.reduce(
      (n, t) => n + countUnfinished(t.asyncSliceGroup.slices), 0);
  const names = (list) => [...new Set(list.filter((n) => n))].sort();
  out.processNames = names(processes.map((p) => p.name));
  const threadNames = names(threads.map((t) => t.name));
  out.threadNameCount = threadNames.length;
  out.threadNames = threadNames.slice(0, nameCap);
  const sliceNames = names(threads.flatMap(
      (t) => t.sliceGroup.slices.map((s) => s.title)));
  out.sliceNameCount = sliceNames.length;
  out.sliceNames = sliceNames.slice(0, nameCap);
  const warnings = names(model.importWarnings.map((w) => `${w.type}: ${w.message}`));
  out.importWarningCount = warnings.length;
  out.importWarnings = warnings.slice(0, nameCap / 5);
  return out;
}

export class TabPool {
  constructor(browser, keep) {
    this.browser = browser;
    this.keep = keep;     // idle tabs kept for reuse
    this.idle = [];
    this.made = 0;        // tabs opened in all
  }

  async acquire() {
    const kept = this.idle.pop();
    if (kept) return kept;
    const context = await this.browser.newContext({viewport: VIEWPORT});
    this.made++;
    const slot = {context, tab: null, errors: new Set(), external: new Set(), broken: false};
    try {
      // The page must work offline: record (and refuse) anything not local.
      await context.route(/^(?!file:|data:|blob:|about:)/, (route) => {
        slot.external.add(route.request().url());
        return route.abort();
      });
      slot.tab = await context.newPage();
    } catch (e) {
      await context.close().catch(() => {});
      throw e;
    }
    // uncaught page exceptions and console.error
    slot.tab.on('pageerror', (e) => slot.errors.add(String(e)));
    slot.tab.on('console', (m) => { if (m.type() === 'error') slot.errors.add(m.text()); });
    slot.tab.on('crash', () => { slot.broken = true; });
    return slot;
  }

  async release(slot) {
    if (!slot.broken && this.idle.length < this.keep) {
      try {
        await slot.tab.evaluate(() => {
          try { localStorage.clear(); sessionStorage.clear(); } catch { /* none */ }
        });
        // frees the last trace's model; the renderer (and its code) stays
        await slot.tab.goto('about:blank', {timeout: 10000});
        if (!slot.broken) {
          this.idle.push(slot);
          return;
        }
      } catch { /* closed below */ }
    }
    await slot.context.close().catch(() => {});
  }

  async close() {
    for (const slot of this.idle.splice(0)) await slot.context.close().catch(() => {});
  }
}

// One page in a pool's tab: the JSON-able result.  A timeout marks the tab
// broken (its page may still be running); other failures throw.
export async function checkPage(slot, file, page, timeoutMs, shot) {
  const {tab} = slot;
  slot.errors.clear();
  slot.external.clear();
  const start = Date.now();
  try {
    await tab.goto(page, {waitUntil: 'commit', timeout: timeoutMs});
  } catch (e) {
    slot.broken = true;
    throw e;
  }
  try {
    await tab.waitForFunction(importEnded, null, {timeout: timeoutMs, polling: 100});
  } catch (e) {
    slot.broken = true;
    const what = e.name === 'TimeoutError' ? `timeout after ${timeoutMs} ms`
                                           : `waiting failed: ${e.message}`;
    return {ok: false, timedOut: true, file,
            error: what + (slot.errors.size ? `; page errors: ${[...slot.errors].join(' | ')}`
                                            : '')};
  }
  const loadMs = Date.now() - start;
  const result = await tab.evaluate(summarize, NAME_CAP);
  result.pageErrors = [...slot.errors].slice(0, 20);
  result.externalRequests = [...slot.external].slice(0, 20);
  result.loadMs = loadMs;
  result.file = file;
  if (shot) {
    // The track view sets its initial zoom from a polling timer; let it draw.
    await tab.waitForTimeout(1000);
    await tab.screenshot({path: shot});
  }
  return result;
}

// The key of a page's result: its bytes and its folder (a page may refer to
// files beside it).  What the viewer makes of a page depends on nothing
// else, so a page identical to one already checked (a trace converted from
// several forms of one input, say) is not loaded again.
function pageKey(page) {
  if (!page.startsWith('file:')) return null;
  try {
    const file = fileURLToPath(page);
    const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
    return `${path.dirname(file)}\0${hash}`;
  } catch {
    return null;
  }
}

// Checks jobs ({file, page (URL), shot}) in order in one tab of the pool,
// calling onResult(result) for each; a tab that went wrong is replaced.
// cache (a Map, optional): results by pageKey, reused for pages checked
// without a screenshot, marked {cached: true}.
export async function runChecks(pool, jobs, timeoutMs, onResult, cache = null) {
  let slot = null;
  try {
    for (const job of jobs) {
      const key = cache && !job.shot ? pageKey(job.page) : null;
      const seen = key && cache.get(key);
      if (seen) {
        onResult({...seen, file: job.file, cached: true});
        continue;
      }
      if (!slot) slot = await pool.acquire();
      const result = await checkPage(slot, job.file, job.page, timeoutMs, job.shot);
      if (key && !result.timedOut) cache.set(key, result);
      onResult(result);
      if (slot.broken) {
        await pool.release(slot);
        slot = null;
      }
    }
  } catch (e) {
    if (slot) slot.broken = true;
    throw e;
  } finally {
    if (slot) await pool.release(slot);
  }
}
