// End to end: installable and offline. The service worker registers and
// precaches the build, the app reloads and plays offline (the computer
// too), it works under a sub-path, a new deployment is offered as an
// update, and the worker's wasm is not part of the first page load.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage } from './harness.mjs';

const browser = await launch();
after(async () => browser.close());

const clickSq = (page, sq) => page.locator(`[data-square=${sq}] rect`).click();
const controlled = (page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });

test('the manifest meets the install criteria, with icons that load', async () => {
  const server = await serve();
  const { page, errors, context } = await openPage(browser, server.url);
  const href = await page.locator('link[rel=manifest]').getAttribute('href');
  const manifest = await (await page.request.get(new URL(href, server.url).href)).json();
  assert.equal(manifest.name, 'Stoneplay');
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.start_url, './');
  assert.equal(manifest.scope, './');
  assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);
  const sizes = manifest.icons.map((i) => `${i.sizes} ${i.purpose}`);
  for (const want of ['192x192 any', '512x512 any', '512x512 maskable']) assert.ok(sizes.includes(want), want);
  for (const icon of manifest.icons) {
    const r = await page.request.get(new URL(icon.src, server.url).href);
    assert.equal(r.status(), 200, icon.src);
  }
  await controlled(page);
  assert.deepEqual(errors, []);
  await context.close();
  await server.close();
});

test('offline: reload, play with two players and against the computer', async () => {
  const log = [];
  const server = await serve(undefined, '/', {}, log);
  const { page, errors, context } = await openPage(browser, `${server.url}?game=ataxx`);
  await page.locator('[data-square=a7]').waitFor();
  // The first load does not fetch the worker: it loads when first needed.
  const resources = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  assert.ok(!resources.some((r) => r.includes('worker_bg.wasm')), 'the page did not load the worker');
  await controlled(page);
  await context.setOffline(true);
  await page.reload();
  await page.locator('[data-square=a7]').waitFor();
  // A game only opened was not saved (no move yet): it starts afresh, not paused.
  assert.equal(await page.locator('.overlay').count(), 0);
  await clickSq(page, 'a7');
  await clickSq(page, 'b6');
  assert.equal(await page.locator('.piece').count(), 5);
  await page.goto(`${server.url}?game=mill&vs=beginner`);
  await page.locator('[data-point=d6] rect').click();
  await page.waitForFunction(() => document.querySelectorAll('.mill-board .piece.pb:not(.hand)').length === 1, null, { timeout: 10000 });
  // A language never used before switches offline too: the service worker
  // cached every table with the build.
  await page.locator('[data-testid=settings]').click();
  await page.locator('[data-testid=set-lang-uz]').check();
  await page.waitForFunction(() => document.documentElement.lang === 'uz', null, { timeout: 10000 });
  assert.equal(await page.locator('[data-testid=lang-unavailable]').count(), 0);
  // Offline, a failed request would be an error; there must be none.
  assert.deepEqual(errors, []);
  await context.close();
  await server.close();
});

test('under a sub-path of a static host', async () => {
  const server = await serve(undefined, '/games/stoneplay/');
  assert.match(server.url, /\/games\/stoneplay\/$/);
  const { page, errors, context } = await openPage(browser, `${server.url}?game=stones`);
  await page.locator('[data-square=h8]').waitFor();
  await page.locator('[data-square=a1] rect').click();
  await page.locator('[data-square=c3] rect').click();
  assert.match(page.url(), /\/games\/stoneplay\/\?game=stones&moves=a1-c3$/);
  await controlled(page);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).scope);
  assert.match(scope, /\/games\/stoneplay\/$/);
  await page.locator('[data-testid=pick-ataxx]').click();
  await page.locator('[data-testid=new-game]').click();
  await page.locator('[data-testid=mode]').selectOption('computer');
  await page.locator('[data-testid=start-game]').click();
  await page.locator('[data-square=a7] rect').click();
  await page.locator('[data-square=b6] rect').click();
  await page.waitForFunction(() => document.querySelectorAll('.movelist button.mv').length === 2, null, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await context.close();
  await server.close();
});

test('a new deployment is offered as "Update available" and taken on reload', async () => {
  const overrides = {};
  const server = await serve(undefined, '/', overrides);
  const { page, errors, context } = await openPage(browser, `${server.url}?game=ataxx`);
  await controlled(page);
  assert.equal(await page.locator('[data-testid=update]').count(), 0);
  overrides['sw.js'] = (text) => text.replace(/const VERSION = '([^']*)'/, "const VERSION = '$1-next'");
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
  await page.locator('[data-testid=update]').waitFor({ timeout: 15000 });
  await Promise.all([page.waitForEvent('load'), page.locator('[data-testid=apply-update]').click()]);
  await page.locator('[data-square=a7]').waitFor();
  const version = await page.evaluate(async () => (await caches.keys()).join(','));
  assert.match(version, /-next/);
  assert.doesNotMatch(version.replace(/stoneplay-[0-9a-f]+-next/, ''), /stoneplay-/, 'the old cache is gone');
  assert.deepEqual(errors, []);
  await context.close();
  await server.close();
});
