// End to end: languages. The settings switch the whole page at once (text,
// aria-labels, <html lang>) and remember the choice; a first visit follows
// the browser's languages; Marathi is drawn in the bundled Noto Sans
// Devanagari, loaded from this server only. Expected words are read from
// the tables themselves (src/i18n/*.txt), so the test follows translations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, status } from './harness.mjs';
import { readTable } from '../../.ci/i18n-tables.mjs';

const app = useApp();
const en = readTable('en');
const tr = readTable('tr');

/** A table's text with its {placeholders} filled. */
const fill = (text, values = {}) => text.replace(/\{([a-z_]+)\}/g, (m, name) => (name in values ? String(values[name]) : m));

const htmlLang = (page) => page.evaluate(() => document.documentElement.lang);
/** Waits until the page speaks `code` (a table not built in arrives by fetch first). */
const waitLang = (page, code) => page.waitForFunction((c) => document.documentElement.lang === c, code, { timeout: 10000 });
/** The language tables the page has fetched so far. */
const tableRequests = (page) => page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.includes('/lang/')));
const text = (page, selector) => page.locator(selector).first().textContent();
const FONT = 'noto-sans-devanagari-devanagari-400-normal.woff2';
const fontEntries = (page) => page.evaluate((f) => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes(f)), FONT);

/** The home screen's words in a table. */
async function assertHomeIn(page, table, code) {
  await waitLang(page, code);
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'ltr');
  assert.equal(await text(page, '[data-testid=recent-heading]'), table.get('home.recent'));
  assert.equal(await text(page, '[data-testid=play-ataxx]'), table.get('home.play'));
  assert.equal(await text(page, '[data-testid=rules-mill]'), table.get('home.rules'));
  assert.equal(await text(page, '[data-testid=card-stones] h2'), table.get('game.stones.title'));
  assert.equal(await page.locator('[data-testid=settings]').getAttribute('aria-label'), table.get('nav.settings'));
}

test('the settings switch the language at once, and it stays for the next visit', async () => {
  const { page, errors, context } = await openPage(app.browser, app.server.url);
  await page.locator('[data-testid=recent-heading]').waitFor();
  await assertHomeIn(page, en, 'en');
  // English pages need no Devanagari font, and no table: English is built in.
  assert.deepEqual(await fontEntries(page), []);
  assert.deepEqual(await tableRequests(page), []);

  await page.evaluate(() => { window.stillTheSamePage = true; });
  await page.locator('[data-testid=settings]').click();
  await page.locator('[data-testid=set-lang-tr]').check();
  await assertHomeIn(page, tr, 'tr');
  // Only the table asked for was fetched.
  assert.deepEqual(await tableRequests(page), ['/lang/tr.txt']);
  assert.equal(await text(page, '[data-testid=settings-panel] h2'), tr.get('nav.settings'));
  assert.equal(await text(page, '[data-testid=close-settings]'), tr.get('settings.done'));
  assert.equal(await page.evaluate(() => window.stillTheSamePage), true, 'no reload');
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('stoneplay.settings')).lang);
  assert.equal(saved, 'tr');

  // A game in Turkish: the turn line and the squares' spoken labels.
  await page.goto(`${app.server.url}?game=ataxx`);
  await page.locator('[data-square=a7]').waitFor();
  assert.equal(await htmlLang(page), 'tr');
  assert.equal(await status(page), fill(tr.get('status.to_move'), { side: tr.get('side.x') }));
  assert.equal(await page.locator('[data-square=a7]').getAttribute('aria-label'),
    `a7, ${fill(tr.get('spot.piece'), { side: tr.get('side.x') })}`);

  // And back to English while playing: everything follows, nothing reloads.
  await page.evaluate(() => { window.stillTheSamePage = true; });
  await page.locator('[data-testid=settings]').click();
  await page.locator('[data-testid=set-lang-en]').check();
  assert.equal(await htmlLang(page), 'en');
  assert.equal(await status(page), fill(en.get('status.to_move'), { side: en.get('side.x') }));
  assert.equal(await page.locator('[data-square=a7]').getAttribute('aria-label'), 'a7, X piece');
  assert.equal(await text(page, '[data-testid=new-game]'), en.get('game.new_game'));
  assert.equal(await page.evaluate(() => window.stillTheSamePage), true, 'no reload');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the online setup screen follows a language switch', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?online`);
  const setup = page.locator('[data-testid=online-setup]');
  await setup.waitFor();
  const gameLabel = page.locator('[data-testid=online-game-ataxx]').locator('xpath=..').locator('span');
  const clock30 = page.locator('[data-testid=online-clock] option[value="30"]');
  assert.equal(await text(page, '[data-testid=online-setup] h2'), en.get('online.title'));
  assert.equal(await gameLabel.textContent(), en.get('game.ataxx.title'));
  assert.equal(await clock30.textContent(), fill(en.get('online.clock_seconds.other'), { n: 30 }));

  await page.evaluate(() => { window.stillTheSamePage = true; });
  await page.locator('[data-testid=settings]').click();
  await page.locator('[data-testid=set-lang-tr]').check();
  await waitLang(page, 'tr');
  assert.equal(await text(page, '[data-testid=online-setup] h2'), tr.get('online.title'));
  assert.equal(await text(page, '[data-testid=create-game]'), tr.get('online.create_game'));
  assert.equal(await gameLabel.textContent(), tr.get('game.ataxx.title'));
  assert.notEqual(tr.get('game.ataxx.title'), en.get('game.ataxx.title'));
  assert.equal(await clock30.textContent(), fill(tr.get('online.clock_seconds.other'), { n: 30 }));
  assert.equal(await page.locator('[data-testid=online-side]').getAttribute('aria-label'), tr.get('online.side_aria'));
  assert.equal(await page.evaluate(() => window.stillTheSamePage), true, 'no reload');
  // The setup looks at the server as it opens (issue 36); this test's
  // static server has none, so that look fails, as the page then says.
  assert.deepEqual(errors.filter((e) => !/WebSocket connection to .* failed/.test(e)), []);
  await context.close();
});

test('a first visit from a Turkish browser comes up in Turkish', async () => {
  const { page, errors, context } = await openPage(app.browser, app.server.url, undefined, 'tr-TR');
  await page.locator('[data-testid=recent-heading]').waitFor();
  assert.deepEqual(await page.evaluate(() => navigator.languages), ['tr-TR']);
  await assertHomeIn(page, tr, 'tr');
  await page.locator('[data-testid=settings]').click();
  assert.equal(await page.locator('[data-testid=set-lang-tr]').isChecked(), true);
  // Not chosen, only followed: nothing is stored until the player picks.
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('stoneplay.settings') ?? '{}').lang ?? null);
  assert.equal(stored, null);

  // A bad link is explained in Turkish, naming the move that failed.
  await page.goto(`${app.server.url}?game=ataxx&moves=b6.zz`);
  await page.locator('[data-testid=link-error]').waitFor();
  // zz would be O's part of move 1, as the move list numbers it.
  const problem = fill(tr.get('problem.move_unreadable'), { n: 1, move: 'zz' });
  assert.equal(await text(page, '[data-testid=link-error] span'), fill(tr.get('link.error'), { problem }));
  assert.deepEqual(errors, []);
  await context.close();
});

test('Marathi is drawn in the bundled Noto Sans Devanagari, loaded from this server', async () => {
  const { page, errors, context } = await openPage(app.browser, app.server.url);
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  await page.locator('[data-testid=recent-heading]').waitFor();
  await page.locator('[data-testid=settings]').click();
  await page.locator('[data-testid=set-lang-mr]').check();
  await waitLang(page, 'mr');
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() => [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'Noto Sans Devanagari' && f.status === 'loaded'), null, { timeout: 10000 });
  assert.equal(await page.evaluate(() => document.fonts.check('16px "Noto Sans Devanagari"', 'मराठी')), true);

  // The text "मराठी" on the page is drawn with the bundled font, not a system one.
  const cdp = await context.newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'label[lang=mr] span' });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  assert.ok(fonts.some((f) => f.familyName === 'Noto Sans Devanagari' && f.isCustomFont && f.glyphCount > 0),
    `fonts used: ${JSON.stringify(fonts)}`);

  // Served by us; no request left this server.
  const loaded = await fontEntries(page);
  assert.ok(loaded.length > 0 && loaded.every((u) => u.startsWith(app.server.url)), `font loaded from ${loaded}`);
  const outside = requests.filter((u) => !u.startsWith(app.server.url) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(outside, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a language whose table cannot be fetched leaves the page as it was and says so', async () => {
  // No service worker (it would answer from its cache) and a table that is
  // not there, as on a host that lost the file.
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', serviceWorkers: 'block' });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.route('**/lang/uz.txt', (route) => route.fulfill({ status: 404, body: 'Not found' }));
  await page.route('**/lang/af.txt', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: '<html>a captive portal</html>' }));
  await page.goto(app.server.url);
  await page.locator('[data-testid=recent-heading]').waitFor();
  await page.locator('[data-testid=settings]').click();

  for (const [code, name] of [['uz', 'Oʻzbekcha'], ['af', 'Afrikaans']]) {
    await page.locator(`[data-testid=set-lang-${code}]`).check();
    const expected = fill(en.get('settings.lang_unavailable'), { lang: name });
    await page.waitForFunction((t) => document.querySelector('[data-testid=lang-unavailable]')?.textContent === t, expected, { timeout: 10000 });
    assert.equal(await htmlLang(page), 'en');
    assert.equal(await text(page, '[data-testid=recent-heading]'), en.get('home.recent'));
  }
  // A language that can be fetched still switches, and the message goes.
  await page.locator('[data-testid=set-lang-tr]').check();
  await waitLang(page, 'tr');
  await page.waitForFunction(() => !document.querySelector('[data-testid=lang-unavailable]'));
  assert.equal(await text(page, '[data-testid=recent-heading]'), tr.get('home.recent'));
  assert.deepEqual(pageErrors, []);
  await context.close();
});
