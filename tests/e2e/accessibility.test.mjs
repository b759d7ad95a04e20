// End to end: keyboard-only play and an automated accessibility check
// (axe-core) of every screen, light and dark, with no serious violations:
// home, settings, the three rules pages (with their board diagrams), each
// game, against the computer, paused, the result card, the review and a
// link error (the online screens are in online.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, axe } from './harness.mjs';

const app = useApp();

const focused = (page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

test('a keyboard-only game: arrows move the focus, Enter selects and moves, Escape cancels', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx`);
  await page.locator('[data-square=a1]').focus();
  assert.match(await focused(page), /^a1, O piece/);
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowUp');
  assert.match(await focused(page), /^a7, X piece/);
  await page.keyboard.press('Enter');
  assert.match(await focused(page), /selected/);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('.selected').count(), 0);
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowRight');
  assert.match(await focused(page), /^b7, empty, clone here/);
  await page.keyboard.press(' ');
  assert.equal(await page.locator('.piece.px').count(), 3);
  assert.match(await page.locator('[data-testid=notice]').textContent(), /X clones to b7/);
  // Only one square is in the tab order: Tab leaves the board.
  assert.equal(await page.locator('[data-square][tabindex="0"]').count(), 1);
  // Mill: arrows follow the lines' points.
  await page.goto(`${app.server.url}?game=mill`);
  await page.locator('[data-point=d5]').focus();
  await page.keyboard.press('ArrowUp');
  assert.match(await focused(page), /^d6,/);
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('[data-point=d6] .piece.pw').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

// X takes O's last piece with its first move: a finished game.
const won = `?game=ataxx&pos=${encodeURIComponent('7/7/7/7/7/5x1/6o x 0 1')}&moves=g2`;

// [name, link, what shows the screen is ready, what to do there first]
const screens = [
  ['home', '', '[data-testid=card-ataxx]'],
  ['rules', '?rules=mill', '[data-testid=rules-diagram] svg'],
  ['rules (territory duel)', '?rules=ataxx', '[data-testid=rules-diagram] svg'],
  ['rules (stones)', '?rules=stones', '[data-testid=rules-diagram] svg'],
  ['territory duel', '?game=ataxx&moves=b6.b2', '[data-square=a7]'],
  ['stones', '?game=stones&moves=a1-c3.h8-e5.c3xe5-f6', '[data-square=h8]'],
  ['mill', '?game=mill&moves=a7.b6.d7.d6.g7', '[data-point=d6]'],
  ['against the computer', '?game=ataxx&vs=beginner', '[data-square=a7]'],
  ['paused', '?game=mill&moves=a7.b6', '[data-point=d6]', async (page) => {
    // A reloaded game comes back paused already; otherwise pause it.
    const status = () => page.locator('[data-testid=status]').textContent();
    if (!/Paused/.test(await status())) await page.locator('[data-testid=pause]').click();
    assert.match(await status(), /Paused/);
  }],
  ['result card', won, '[data-testid=result]'],
  ['review', won, '[data-testid=analyse]', async (page) => {
    await page.locator('[data-testid=analyse]').click();
    await page.locator('[data-testid=review-graph]').waitFor({ timeout: 10000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid=analyse]').disabled, null, { timeout: 10000 });
    await page.locator('[data-testid=mistakes] li').first().waitFor();
  }],
  ['link error', '?game=ataxx&moves=b6.zz', '[data-testid=link-error]'],
];

for (const scheme of ['light', 'dark']) {
  test(`no serious accessibility violations on any screen (${scheme})`, async () => {
    const found = [];
    for (const [name, query, ready, action] of screens) {
      const { page, errors, context } = await openPage(app.browser, `${app.server.url}${query}`);
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => localStorage.removeItem('stoneplay.settings'));
      await page.reload();
      await page.locator(ready).first().waitFor();
      await action?.(page).catch((e) => assert.fail(`${name}: ${e.message}`));
      for (const v of await axe(page)) found.push(`${name}: ${v}`);
      if (name === 'home') {
        await page.locator('[data-testid=settings]').click();
        for (const v of await axe(page)) found.push(`settings: ${v}`);
      }
      assert.deepEqual(errors, []);
      await context.close();
    }
    assert.deepEqual(found, []);
  });
}
