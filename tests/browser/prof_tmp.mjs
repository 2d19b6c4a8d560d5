import {chromium} from 'playwright-core';
import {LAUNCH_ARGS} from './launch.mjs';
import {pathToFileURL} from 'node:url';
const b = await chromium.launch({executablePath:'/usr/bin/chromium', headless:true, args:LAUNCH_ARGS});
const ctx = await b.newContext({viewport:{width:1280,height:800}});
const tab = await ctx.newPage();
const cdp = await ctx.newCDPSession(tab);
for (const warm of [0,1]) {
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', {interval: 1000});
await cdp.send('Profiler.start');
const s = Date.now();
await tab.goto(pathToFileURL(process.argv[2]).href, {waitUntil:'commit'});
await tab.waitForFunction(() => window.systraceLoad && window.systraceLoad.done, null, {polling:100, timeout:120000});
const {profile} = await cdp.send('Profiler.stop');
console.log('load', Date.now()-s);
if (!warm) continue;
const byId = new Map(profile.nodes.map(n=>[n.id,n]));
const parent = new Map(); for (const n of profile.nodes) for (const c of (n.children||[])) parent.set(c, n.id);
const dt = profile.timeDeltas; const incl = new Map();
profile.samples.forEach((id,i)=>{ const seen = new Set(); let x = id; while (x !== undefined) { const n = byId.get(x); const k=`${n.callFrame.functionName||'(anon)'}:${n.callFrame.lineNumber}`; if (!seen.has(k)) { seen.add(k); incl.set(k,(incl.get(k)||0)+(dt[i]||0)); } x = parent.get(x); } });
[...incl].sort((a,b)=>b[1]-a[1]).slice(0,45).forEach(([k,t])=>console.log((t/1000).toFixed(0).padStart(6), k));
}
await b.close();
