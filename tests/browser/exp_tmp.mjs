import {chromium} from 'playwright-core';
import {LAUNCH_ARGS} from './launch.mjs';
import {readFileSync} from 'node:fs';
const N = +process.env.N, MODE = process.env.MODE;
const b = await chromium.launch({executablePath: '/usr/bin/chromium', args: LAUNCH_ARGS});
const ctx = await b.newContext({viewport: {width: 1280, height: 800}});
const tab = await ctx.newPage();
tab.on('pageerror', (e) => console.log('pageerror', String(e)));
const f = process.argv[2];
const html = readFileSync(f, 'latin1');
const section = html.substring(html.indexOf('<!-- BEGIN TRACE -->'));
const done = () => window.systraceLoad && window.systraceLoad.done;
for (let i = 0; i < N; i++) {
  const t0 = Date.now();
  if (i === 0 || MODE === 'full') {
    if (i) await tab.goto('about:blank');
    await tab.goto('file://' + f, {waitUntil: 'commit'});
  } else {
    await tab.evaluate((s) => window.systraceLoad.reopen(new DOMParser().parseFromString('<!DOCTYPE html><html><head></head><body>' + s, 'text/html')), section);
  }
  await tab.waitForFunction(done, null, {polling: 100, timeout: 60000});
  const r = await tab.evaluate(() => ({err: systraceLoad.error, n: Object.keys(systraceLoad.model.processes).length, ft: systraceLoad.fastTracks, views: document.querySelectorAll('tr-ui-timeline-view').length}));
  console.log(i, Date.now() - t0, JSON.stringify(r));
}
await b.close();
