// End to end (issue 36, point 2): looking back at an earlier move, the
// chips (piece counts, Mill's pieces in hand, whose turn) and the status
// line describe the position shown, not the live game; a line says plainly
// that you are looking back, with a button back to the game (in every
// language); back on the game, the live numbers return; no live-only hint
// is drawn on the past board.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, status } from './harness.mjs';

const app = useApp();

/** Both chips as shown: [count, "to move" or "", label] for the first and the second side. */
async function chips(page) {
  return page.evaluate(() => ['first', 'second'].map((s) => {
    const chip = document.querySelector(`[data-testid=score-${s}]`);
    return [chip.querySelector('.chip-count').textContent, chip.querySelector('.chip-turn').textContent,
      chip.querySelector('.chip-label').textContent];
  }));
}

test('Territory Duel: looking back, the chips and the status describe the position shown', async () => {
  // After b6 b2 a7a5: X 3, O 3, O to move. After b6 alone: X 3, O 2, O to
  // move; after b6 b2: X 3, O 3, X to move.
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx&moves=b6.b2.a7a5`);
  await page.locator('[data-square=a5] .piece').waitFor();
  const live = await chips(page);
  assert.deepEqual(live.map((c) => c.slice(0, 2)), [['3', ''], ['3', 'to move']]);
  assert.equal(await status(page), 'O to move');
  assert.equal(await page.locator('[data-testid=lookback]').count(), 0, 'no look-back line on the live game');

  await page.locator('.movelist button.mv', { hasText: /^b6$/ }).click();
  assert.deepEqual((await chips(page)).map((c) => c.slice(0, 2)), [['3', ''], ['2', 'to move']]);
  assert.equal(await page.locator('[data-testid=lookback-line]').textContent(), 'Looking back at move 1 of 2, X’s b6');
  assert.equal(await page.locator('[data-testid=lookback-live]').textContent(), 'Back to the game');

  await page.locator('[data-testid=next]').click();
  assert.deepEqual((await chips(page)).map((c) => c.slice(0, 2)), [['3', 'to move'], ['3', '']]);
  assert.equal(await status(page), 'X to move', 'the status of the position shown');
  assert.equal(await page.locator('[data-testid=lookback-line]').textContent(), 'Looking back at move 1 of 2, O’s b2');

  // The start: before move 1.
  await page.locator('[aria-label="First position"]').click();
  assert.deepEqual((await chips(page)).map((c) => c.slice(0, 2)), [['2', 'to move'], ['2', '']]);
  assert.equal(await page.locator('[data-testid=lookback-line]').textContent(), 'Looking back at the start, before move 1');

  // Back to the game: the live numbers again, and the line goes.
  await page.locator('[data-testid=lookback-live]').click();
  assert.deepEqual(await chips(page), live);
  assert.equal(await status(page), 'O to move');
  assert.equal(await page.locator('[data-testid=lookback]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Mill: looking back shows the pieces in hand of the position shown; a hint stays on the live board', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=mill&moves=a7.a1.d7.d1.g7.xa1`);
  await page.locator('[data-point=g7] .piece').waitFor();
  const live = await chips(page);
  assert.equal(await status(page), 'Black: place a piece (7 in hand)');
  // A hint for the live position, drawn on the live board.
  await page.locator('[data-testid=hint]').click();
  await page.waitForFunction(() => /^Hint/.test(document.querySelector('[data-testid=notice]').textContent), null, { timeout: 20000 });
  await page.locator('[data-testid=move-mark]').first().waitFor();

  // After White's 1. a7: White 8 in hand, Black 9, Black to move.
  await page.locator('.movelist button.mv', { hasText: /^a7$/ }).click();
  const shown = await chips(page);
  assert.match(shown[0][2], /8 in hand/);
  assert.match(shown[1][2], /9 in hand/);
  assert.deepEqual(shown.map((c) => c[1]), ['', 'to move']);
  assert.equal(await status(page), 'Black: place a piece (9 in hand)');
  assert.equal(await page.locator('[data-testid=move-mark]').count(), 0, 'the live hint is not drawn on a past board');
  assert.equal(await page.locator('[data-testid=hint]').isDisabled(), true, 'no hint for a past board');
  // After 2. d7 d1: White to move, 7 and 7 in hand.
  await page.locator('.movelist button.mv', { hasText: /^d1$/ }).click();
  const later = await chips(page);
  assert.match(later[0][2], /7 in hand/);
  assert.match(later[1][2], /7 in hand/);
  assert.equal(await status(page), 'White: place a piece (7 in hand)');
  assert.equal(await page.locator('[data-testid=lookback-line]').textContent(), 'Looking back at move 2 of 3, Black’s d1');

  await page.locator('[data-testid=lookback-live]').click();
  assert.deepEqual(await chips(page), live);
  assert.equal(await status(page), 'Black: place a piece (7 in hand)');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the look-back line and its button are in every language', async () => {
  const words = {
    'tr-TR': ['Geçmişe bakılıyor: 2 hamleden 1. hamle, X: b6', 'Oyuna dön'],
    'af-ZA': ['Jy kyk terug na skuif 1 van 2, X se b6', 'Terug na die spel'],
    'mr-IN': ['मागे पाहत आहात: 2 पैकी चाल 1, X: b6', 'डावाकडे परत'],
    'uz-UZ': ['Ortga qaralmoqda: 2 ta yurishdan 1-yurish, X: b6', 'Oʻyinga qaytish'],
  };
  for (const [locale, [at, back]] of Object.entries(words)) {
    const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx&moves=b6.b2.a7a5`, undefined, locale);
    await page.locator('[data-square=a5] .piece').waitFor();
    await page.locator('.movelist button.mv').first().click();
    assert.equal(await page.locator('[data-testid=lookback-line]').textContent(), at, locale);
    assert.equal(await page.locator('[data-testid=lookback-live]').textContent(), back, locale);
    assert.deepEqual(errors, [], locale);
    await context.close();
  }
});
