// End to end (issue 38): a Territory Duel position that comes back a third
// time ends the game and is decided by the piece count, on the page's
// result card, its status line and its review. The link is issue 11's
// cycle of flipping jumps, played twice: the start comes back with X on
// one piece (a1) and O on two (d1, g3), so O wins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, status } from './harness.mjs';

const app = useApp();

const CYCLE = 'a1c2.g3e2.c2a1.e2g3';
const LINK = `?game=ataxx&pos=7/7/7/7/6o/7/x2o3%20x%200%201&moves=${CYCLE}.${CYCLE}`;
const VERDICT = 'The same position occurred three times — O wins, 2 pieces to 1.';

test('a third occurrence is won by the side with more pieces: O wins, with the repetition as the reason', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}${LINK}`);
  const result = page.locator('[data-testid=result]');
  await result.waitFor();
  const card = await result.textContent();
  assert.ok(card.includes(VERDICT), card);
  assert.doesNotMatch(card, /draw/);
  assert.equal(await status(page), VERDICT);
  // The board shows the final position: X on a1, O on d1 and g3.
  assert.equal(await page.locator('.piece.px').count(), 1);
  assert.equal(await page.locator('.piece.po').count(), 2);

  // The review scores the final position as O's win: the graph's last
  // point lies below the zero line (the second player's side).
  await page.locator('[data-testid=close-result]').click();
  await page.locator('[data-testid=analyse]').click();
  await page.locator('[data-testid=review-graph]').waitFor({ timeout: 10000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid=analyse]').disabled, null, { timeout: 20000 });
  const { points, zero } = await page.evaluate(() => ({
    points: document.querySelector('.review-line').getAttribute('points').trim().split(/\s+/),
    zero: Number(document.querySelector('[data-testid=review-zero]').getAttribute('y1')),
  }));
  assert.equal(points.length, 9, 'the start and eight moves');
  const lastY = Number(points.at(-1).split(',')[1]);
  assert.ok(lastY > zero + 1, `the final position is scored for O: y ${lastY}, zero line ${zero}`);
  // Stepping back through the moves is looking back (issue 36): the
  // status describes the position shown, under a line that says so.
  await page.locator('[data-testid=undo]').click();
  assert.match(await page.locator('[data-testid=lookback-line]').textContent(), /Looking back at move 4 of 4/);
  assert.equal(await status(page), 'O to move');

  assert.deepEqual(errors, []);
  await context.close();
});

test('the result card keeps its words clear of the close button and inside the board, at every size', async () => {
  // The long result line reached under the ✕ on a 740×360 screen.
  for (const viewport of [{ width: 360, height: 740 }, { width: 740, height: 360 }, { width: 1280, height: 800 }]) {
    const { page, errors, context } = await openPage(app.browser, `${app.server.url}${LINK}`, viewport);
    await page.locator('[data-testid=result]').waitFor();
    await page.waitForTimeout(300); // the card fades in
    const [text, close, rematch, board] = await Promise.all(
      ['#result-text', '[data-testid=close-result]', '[data-testid=rematch]', '[data-testid=result]']
        .map((s) => page.locator(s).boundingBox()));
    const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    const size = `${viewport.width}×${viewport.height}`;
    assert.ok(!overlap(text, close), `${size}: the ✕ covers the result: ${JSON.stringify({ text, close })}`);
    for (const [name, box] of [['result', text], ['Rematch', rematch]]) {
      assert.ok(box.y >= board.y && box.y + box.height <= board.y + board.height + 1, `${size}: ${name} leaves the board`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a repetition with equal counts is still a draw', async () => {
  // The start position's shuffle: two pieces each when it comes back.
  const shuffle = 'g1e1.a1c1.e1g1.c1a1';
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx&moves=${shuffle}.${shuffle}`);
  const result = page.locator('[data-testid=result]');
  await result.waitFor();
  const card = await result.textContent();
  assert.ok(card.includes('The same position occurred three times — draw, 2 pieces each.'), card);
  assert.deepEqual(errors, []);
  await context.close();
});
