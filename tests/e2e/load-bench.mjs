// Not a test: the load budget. Serves the release build and, in headless
// Chromium with an empty cache, measures what the first visit transfers,
// the gzip size of the main wasm, and the time from navigation to an
// interactive board (its squares can be clicked). Run by `make bench-load`.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, openPage, root } from './harness.mjs';

const dist = path.join(root, 'dist');
const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(dist, f)), { level: 9 }).length;
const files = ['', 'pkg'].filter((d) => fs.existsSync(path.join(dist, d))).flatMap((d) => fs.readdirSync(path.join(dist, d)).filter((f) => f.endsWith('.wasm')).map((f) => path.join(d, f)));
for (const f of files) {
  console.log(`${f}: ${fs.statSync(path.join(dist, f)).size} bytes, ${gz(f)} gzip`);
}
// The page's wasm on a first visit to each page, gzip: the main module and
// the chunks its split points need (pkg/preload.js lists them, as the
// splitter's loader fetches them).
const preload = path.join(dist, 'pkg', 'preload.js');
if (fs.existsSync(preload)) {
  const needs = JSON.parse(fs.readFileSync(preload, 'utf8').match(/const needs = (\{.*\});/)[1]);
  const visit = (...points) => gz('pkg/stoneplay_bg.wasm')
    + [...new Set(points.flatMap((p) => needs[p] ?? []))].reduce((sum, f) => sum + gz(path.join('pkg', f)), 0);
  const pages = [['home (?)', 'home'], ...['ataxx', 'stones', 'mill'].map((g) => [`?game=${g} or ?rules=${g}`, `game_${g}`]),
    ['?bench', 'extras'], ['?online (lobby: the setup form, name card and lobby in the community part)', 'online', 'community'],
    ['?player= (a player\'s page, in the community part)', 'online', 'community'],
    ...['ataxx', 'stones', 'mill'].map((g) => [`an online ${g} room`, 'online', `online_${g}`])];
  for (const [name, ...points] of pages) console.log(`first visit's wasm, ${name}: ${visit(...points)} gzip`);
}

const server = await serve();
const browser = await launch();
const runs = [];
for (let i = 0; i < 5; i++) {
  const { page, errors, context } = await openPage(browser, 'about:blank');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // THROTTLE=slow4g: Chromium's "Slow 4G" (150 ms, 1.6 Mbit/s down), where
  // bytes cost time as on a phone; without it, loopback, where they do not.
  if (process.env.THROTTLE === 'slow4g') {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8,
    });
  }
  let transferred = 0;
  const urls = [];
  cdp.on('Network.loadingFinished', (e) => { transferred += e.encodedDataLength; });
  cdp.on('Network.requestWillBeSent', (e) => urls.push(new URL(e.request.url).pathname));
  await page.goto(`${server.url}?game=ataxx`);
  await page.locator('[data-square=a7]').waitFor({ timeout: 60000 });
  const ms = await page.evaluate(() => performance.now());
  // Interactive: a click selects.
  await page.locator('[data-square=a7] rect').click();
  await page.locator('.selected').waitFor();
  await page.waitForTimeout(300);
  const gzipped = [...new Set(urls)]
    .map((u) => decodeURIComponent(u.slice(1)) || 'index.html')
    .filter((f) => fs.existsSync(path.join(dist, f)) && fs.statSync(path.join(dist, f)).isFile())
    .reduce((sum, f) => sum + gz(f), 0);
  runs.push({ ms, transferred, gzipped, workerLoaded: urls.some((u) => u.endsWith('worker_bg.wasm')) });
  if (errors.length) console.error(errors);
  await context.close();
}
await browser.close();
await server.close();
const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`first visit transferred: ${med(runs.map((r) => r.transferred))} bytes as served here (no compression), ${med(runs.map((r) => r.gzipped))} bytes with gzip -9 as a static host would serve it`);
console.log(`navigation to interactive board: median ${med(runs.map((r) => r.ms)).toFixed(0)} ms over ${runs.length} runs (${runs.map((r) => r.ms.toFixed(0)).join(', ')})`);
console.log(`worker wasm fetched by the page on first visit: ${runs.some((r) => r.workerLoaded) ? 'yes' : 'no'} (the service worker precaches it in the background)`);
