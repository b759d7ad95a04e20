// End to end (issue 36, point 4): the small things a newcomer trips over.
// The timeout line says it once; a broken link's address is cleaned so a
// reload starts afresh; the online setup says up front when the server is
// down and stops saying so when it answers; icon.svg is fetched once per
// load; the worker starts without wasm-bindgen's deprecation warning; the
// thinking line says whose score it shows; the Stones! chip says what is
// home; Settings' Done is in view on a 360x740 phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { launch, openPage, serve, useApp, startGameServer, move, clickSq, root, tid } from './harness.mjs';

const app = useApp();

const notice = (page) => tid(page, 'notice').textContent();

test('running out of time is said once: "O ran out of time — X wins."', async () => {
  const { page, errors, context } = await openPage(app.browser, app.server.url);
  await page.locator('main *').first().waitFor();
  await page.evaluate(() => localStorage.setItem('stoneplay.settings', JSON.stringify({ clock_secs: 3 })));
  await page.goto(`${app.server.url}?game=ataxx`);
  await page.locator('[data-square=a7] .piece').waitFor();
  await move(page, 'a7', 'b6');
  await page.waitForFunction(() => /ran out of time/.test(document.querySelector('[data-testid=notice]').textContent),
    null, { timeout: 8000 });
  assert.equal(await notice(page), 'O ran out of time — X wins.');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a broken link says what is wrong, cleans the address and offers to start afresh', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=chess&moves=e4`);
  await tid(page, 'link-error').waitFor();
  assert.match(await tid(page, 'link-error').textContent(), /unknown game ‘chess’/);
  assert.equal(new URL(page.url()).search, '', 'the bad address is gone');
  // A reload starts afresh: no error any more.
  await page.reload();
  await tid(page, 'card-ataxx').waitFor();
  assert.equal(await tid(page, 'link-error').count(), 0);
  // Start afresh on the banner: back home, the banner gone.
  await page.goto(`${app.server.url}?game=ataxx&pos=nonsense`);
  await tid(page, 'start-afresh').click();
  assert.equal(await tid(page, 'link-error').count(), 0);
  await tid(page, 'card-ataxx').waitFor();
  assert.equal(new URL(page.url()).search, '');
  assert.deepEqual(errors, []);
  await context.close();
});

/** A port nothing listens on (for now). */
async function freePort() {
  const s = net.createServer();
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address();
  await new Promise((ok) => s.close(ok));
  return port;
}

test('with the online server down the setup says so at once, and stops when the server answers', async () => {
  const host = await serve();
  const port = await freePort();
  const ws = `ws://127.0.0.1:${port}/ws`;
  let server;
  try {
    const p = await openPage(app.browser, `${host.url}?online&server=${encodeURIComponent(ws)}`);
    await tid(p.page, 'online-setup').waitFor();
    await tid(p.page, 'server-down').waitFor({ timeout: 8000 });
    assert.equal(await tid(p.page, 'server-down').textContent(),
      `The online server at ${ws} cannot be reached right now. You can still choose your game: this line goes away as soon as the server answers.`);
    // The server comes up where the link points: the line goes by itself.
    server = await startGameServer(undefined, ['--allow-origin', new URL(host.url).origin], { port });
    await tid(p.page, 'server-down').waitFor({ state: 'detached', timeout: 15000 });
    await tid(p.page, 'online-game-ataxx').check();
    await tid(p.page, 'create-game').click();
    await tid(p.page, 'online-waiting').waitFor();
    // The browser's own log lines for the refused probes are the only errors.
    assert.deepEqual(p.errors.filter((e) => !/WebSocket connection to .* failed/.test(e)), []);
    await p.context.close();
  } finally {
    await host.close();
    await server?.stop();
  }
});

test('icon.svg is fetched once per load, and the worker starts without a deprecation warning', async () => {
  const log = [];
  const host = await serve(path.join(root, 'dist'), '/', {}, log);
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const consoleLines = [];
    page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
    // Against the computer the page rewrites its address at once (the
    // mode's rule joins the link), which is what fetched the icon again.
    await page.goto(`${host.url}?game=ataxx&vs=beginner`);
    await page.locator('[data-square=a7] .piece').waitFor();
    await clickSq(page, 'a7');
    await clickSq(page, 'b6');
    await page.waitForFunction(() => document.querySelectorAll('.movelist .mv').length >= 2, null, { timeout: 8000 });
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForTimeout(1000);
    assert.equal(log.filter((f) => f === 'icon.svg').length, 1, log.join(' '));
    assert.deepEqual(consoleLines.filter((l) => /deprecated/i.test(l)), []);
    await context.close();
  } finally {
    await browser.close();
    await host.close();
  }
});

test('the thinking line says whose score it is; the Stones! chip says what is home', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx&vs=master`);
  await page.locator('[data-square=a7] .piece').waitFor();
  await clickSq(page, 'a7');
  await clickSq(page, 'b6');
  // The computer plays O: the score is O's.
  await page.waitForFunction(() => /depth \d+ · O ([+−]\d+\.\d\d|wins in|loses in)/.test(
    document.querySelector('[data-testid=thinking]')?.textContent ?? ''), null, { timeout: 8000 });
  await page.goto(`${app.server.url}?game=stones&vs=beginner`);
  await page.locator('[data-square=a1] .piece').waitFor();
  assert.match(await page.locator('[data-testid=score-second] .chip-label').textContent(), /^computer · stones home$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a 360x740 phone Settings\' Done is in view without scrolling', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=mill`, { width: 360, height: 740 });
  await page.locator('[data-point=d6]').waitFor();
  await tid(page, 'settings').click();
  const done = tid(page, 'close-settings');
  await done.waitFor();
  const box = await done.boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 740, `Done at ${box.y}..${box.y + box.height}`);
  // Nothing covers it: the element at its centre is Done itself.
  const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.dataset.testid,
    { x: box.x + box.width / 2, y: box.y + box.height / 2 });
  assert.equal(hit, 'close-settings');
  await done.click();
  assert.equal(await tid(page, 'close-settings').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
