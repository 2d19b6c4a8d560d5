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
//
// Most of a small page's load is the viewer starting (a second of CPU); its
// trace is a tenth of that.  So a tab whose page imported cleanly stays on
// it, and the next page written with the same viewer (the same bytes before
// its trace part and after it) is not loaded: its trace part, parsed by the
// browser's HTML parser (DOMParser), is imported into that running viewer by
// the page's own loader (systraceLoad.reopen, assets/prefix.html).  Pages
// checked with a screenshot or asked for fresh, pages of another viewer and
// those with a trace part over REOPEN_MAX are loaded as a user opens them.

import {createHash} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const NAME_CAP = 100;   // keeps corpus-sized name lists out of the JSON line
const VIEWPORT = {width: 1280, height: 800};
// A bigger trace part is loaded: its import, not the viewer's start, is
// then the cost of a load.  The viewer keeps something of each import it
// replaced (about twice the trace part's size stays on its heap, making
// every later collection slower): a tab is loaded afresh once the trace
// parts it imported since its last load would pass REOPEN_BUDGET.
const REOPEN_MAX = 4 << 20;
const REOPEN_BUDGET = 16 << 20;
const BEGIN_TRACE = Buffer.from('<!-- BEGIN TRACE -->');
const END_TRACE = Buffer.from('<!-- END TRACE -->');
// what precedes the trace part in every systrace page (assets/prefix.html's end)
const REOPEN_HEAD = '<!DOCTYPE html>\n<html>\n<head>\n</head>\n<body>\n';

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
  // CPU samples (a JSON trace's top-level "samples" and "stackFrames"):
  // how many, and the frames of their stacks, leaf to root.
  const samples = model.samples || [];
  out.samples = samples.length;
  out.sampleFrames = samples.reduce((n, s) => n + s.getNodesAsArray().length, 0);
  out.sampleMaxDepth = samples.reduce((m, s) => Math.max(m, s.getNodesAsArray().length), 0);
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

// Runs in the page: import the trace part of another page (html, from its
// "<!-- BEGIN TRACE -->" on) into this page's running viewer.
function reopenWith(html) {
  window.systraceLoad.reopen(new DOMParser().parseFromString(html, 'text/html'));
}

// Runs in the page: can its viewer import another page's trace?
function canReopen() {
  const load = window.systraceLoad;
  return !!(load && load.done && !load.error && typeof load.reopen === 'function');
}

export class TabPool {
  constructor(browser, keep) {
    this.browser = browser;
    this.keep = keep;     // idle tabs kept for reuse
    this.idle = [];
    this.made = 0;        // tabs opened in all
  }

  // A kept tab, preferably one showing a page of this viewer.
  async acquire(viewer = null) {
    let i = this.idle.findIndex((slot) => viewer && slot.viewer === viewer);
    if (i < 0) i = this.idle.length - 1;
    if (i >= 0) return this.idle.splice(i, 1)[0];
    const context = await this.browser.newContext({viewport: VIEWPORT});
    this.made++;
    // viewer: the pageInfo().viewer of the page the tab shows, when its
    // viewer can import the next page's trace (null: parked on about:blank)
    // reopened: bytes of trace parts imported since the tab's last load
    const slot = {context, tab: null, errors: new Set(), external: new Set(), broken: false,
                  viewer: null, reopened: 0};
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
        // frees the last trace's model; the renderer (and its code) stays.
        // A page whose viewer will import the next trace stays instead.
        if (!slot.viewer) await slot.tab.goto('about:blank', {timeout: 10000});
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

function clearStorage() {
  try { localStorage.clear(); sessionStorage.clear(); } catch { /* none */ }
}

// One page in a pool's tab: the JSON-able result.  A timeout marks the tab
// broken (its page may still be running); other failures throw.
// info: pageInfo(page); a page of the viewer the tab shows is imported
// there (result.reopened), unless it is to be drawn (shot) or fresh.
export async function checkPage(slot, file, page, timeoutMs, shot, info = {}, fresh = false) {
  const {tab} = slot;
  slot.errors.clear();
  slot.external.clear();
  let reopen = !shot && !fresh && info.section && slot.viewer === info.viewer &&
               slot.reopened + info.section.length <= REOPEN_BUDGET;
  slot.viewer = null;
  // Every page starts without the storage (the viewer's settings) the last
  // one left: cleared from the page the tab shows, whose file: origin the
  // next page shares, before a load or a reopen alike.
  await tab.evaluate(clearStorage).catch(() => {});
  const start = Date.now();
  try {
    if (reopen) {
      try {
        const html = REOPEN_HEAD + new TextDecoder('utf-8').decode(info.section);
        await tab.evaluate(reopenWith, html);
      } catch {
        reopen = false;   // the page is loaded instead
      }
    }
    if (!reopen) await tab.goto(page, {waitUntil: 'commit', timeout: timeoutMs});
    slot.reopened = reopen ? slot.reopened + info.section.length : 0;
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
  if (reopen) result.reopened = true;
  if (shot) {
    // The track view sets its initial zoom from a polling timer; let it draw.
    await tab.waitForTimeout(1000);
    await tab.screenshot({path: shot});
  }
  // a page that went wrong in any way is not built on
  if (info.section && !slot.errors.size && !slot.external.size &&
      await tab.evaluate(canReopen)) slot.viewer = info.viewer;
  return result;
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// What runChecks needs of a page file:
//   key      its result's key: its bytes, and for a page not in systrace's
//            layout its folder too (it may refer to files beside it; in a
//            systrace page the trace part is inert text).  What the viewer
//            makes of a page depends on nothing else, so a page identical to
//            one already checked (a trace converted from several forms of one
//            input, or by two cases) is not loaded again;
//   viewer   for a systrace page, the identity of all but its trace part:
//            two pages with the same viewer run the same code before their
//            trace is read;
//   section  its bytes from "<!-- BEGIN TRACE -->" on (null: too big).
function pageInfo(page) {
  const none = {key: null, viewer: null, section: null};
  if (!page.startsWith('file:')) return none;
  let file, bytes;
  try {
    file = fileURLToPath(page);
    bytes = readFileSync(file);
  } catch {
    return none;
  }
  const hash = sha256(bytes);
  const begin = bytes.indexOf(BEGIN_TRACE);
  const end = bytes.lastIndexOf(END_TRACE);
  if (begin < 0 || end < begin) return {...none, key: `${path.dirname(file)}\0${hash}`};
  const viewer = `${sha256(bytes.subarray(0, begin))}:${sha256(bytes.subarray(end))}`;
  const section = bytes.length - begin <= REOPEN_MAX ? bytes.subarray(begin) : null;
  return {key: hash, viewer, section};
}

// Checks jobs ({file, page (URL), shot, fresh}) in order in one tab of the pool,
// calling onResult(result) for each; a tab that went wrong is replaced.
// cache (a Map, optional): results by pageInfo().key, reused for pages
// checked without a screenshot or --fresh, marked {cached: true}.
export async function runChecks(pool, jobs, timeoutMs, onResult, cache = null) {
  let slot = null;
  try {
    for (const job of jobs) {
      const info = pageInfo(job.page);
      const key = cache && !job.shot && !job.fresh ? info.key : null;
      const seen = key && cache.get(key);
      if (seen) {
        onResult({...seen, file: job.file, cached: true});
        continue;
      }
      if (!slot) slot = await pool.acquire(info.viewer);
      const result = await checkPage(slot, job.file, job.page, timeoutMs, job.shot,
                                     info, job.fresh);
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
