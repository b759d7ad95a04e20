// End to end: the review's evaluation graph (src/ui/review.rs) is large,
// with a score axis in pieces (its 0 line drawn) and a move axis labelled
// with the move list's move numbers at a round step, placed under their
// moves (move n after its row is complete); it fits a
// 360×740 phone, reads in dark mode, and a click still shows a position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp } from './harness.mjs';

const app = useApp();

// A finished Stones! game of 7 moves (14 actions, the list's 7 rows): each
// side's one stone runs its diagonal to the far rank; then White, to move,
// has no move.
const white = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7', 'h8'];
const black = ['a8', 'b7', 'c6', 'd5', 'e4', 'f3', 'g2', 'h1'];
const moves = white.slice(1).flatMap((to, i) => [`${white[i]}-${to}`, `${black[i]}-${black[i + 1]}`]);
const GAME = `?game=stones&pos=${encodeURIComponent('W:a1 B:a8 w')}&moves=${moves.join('.')}`;

for (const scheme of ['light', 'dark']) {
  test(`the review graph has a score axis in pieces and move numbers, at 360×740 (${scheme})`, async () => {
    const viewport = { width: 360, height: 740 };
    const { page, errors, context } = await openPage(app.browser, app.server.url + GAME, viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await page.locator('[data-testid=result]').waitFor();
    await page.locator('[data-testid=close-result]').click();
    await page.locator('[data-testid=analyse]').click();
    await page.locator('[data-testid=review-graph]').waitFor({ timeout: 10000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid=analyse]').disabled, null, { timeout: 20000 });
    const graph = page.locator('[data-testid=review-graph]');
    await graph.scrollIntoViewIfNeeded();
    const plot = await graph.boundingBox();
    assert.ok(plot.height >= 150, `the graph is ${plot.height} px tall`);
    // The whole chart is inside the screen's width.
    const chart = await page.locator('[data-testid=review-chart]').boundingBox();
    assert.ok(chart.x >= 0 && chart.x + chart.width <= viewport.width, JSON.stringify(chart));
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0);

    // The score axis: its unit, five labels top to bottom with 0 in the
    // middle, each beside its height on the plot; the 0 line is drawn there.
    assert.equal((await page.locator('[data-testid=review-y-title]').textContent()).trim(), 'pieces');
    const yLabels = page.locator('[data-testid=review-y] span');
    assert.deepEqual(await yLabels.allTextContents(), ['+1', '+0.5', '0', '−0.5', '−1']);
    const zero = await yLabels.nth(2).boundingBox();
    const zeroLine = await page.locator('[data-testid=review-zero]').boundingBox();
    assert.ok(Math.abs(zero.y + zero.height / 2 - (plot.y + plot.height / 2)) < 3, 'the 0 label is at mid-height');
    assert.ok(Math.abs(zeroLine.y - (plot.y + plot.height / 2)) < 2, 'the 0 line is at mid-height');
    assert.ok(zero.x + zero.width <= plot.x + 1, 'score labels are left of the plot');

    // The move axis: the list's move numbers 2, 4 and 6 of 7, each under
    // the position after its row (action 2n of 14).
    assert.equal((await page.locator('[data-testid=review-x-title]').textContent()).trim(), 'move');
    const xLabels = page.locator('[data-testid=review-x] span');
    assert.deepEqual(await xLabels.allTextContents(), ['2', '4', '6']);
    for (const [i, n] of [[0, 2], [1, 4], [2, 6]]) {
      const box = await xLabels.nth(i).boundingBox();
      const want = plot.x + ((2 * n) / 14) * plot.width;
      assert.ok(Math.abs(box.x + box.width / 2 - want) < 3, `move ${n} is labelled at ${box.x + box.width / 2}, not ${want}`);
      assert.ok(box.y >= plot.y + plot.height - 1, `move ${n} is under the plot`);
    }
    // Readable: labels in a colour far from the panel's.
    const [fg, bg] = await page.evaluate(() => {
      const lum = (c) => {
        const [r, g, b] = c.match(/[\d.]+/g).map(Number);
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      };
      const label = document.querySelector('[data-testid=review-x] span');
      return [lum(getComputedStyle(label).color), lum(getComputedStyle(label.closest('.review')).backgroundColor)];
    });
    assert.ok(Math.abs(fg - bg) > 0.3, `labels ${fg} on ${bg}`);
    assert.equal(bg < 0.5, scheme === 'dark', `the panel is ${scheme}`);

    // A click at the fifth action shows the position after it: White's
    // part of move 3, named as the list names it.
    await graph.click({ position: { x: (5 / 14) * plot.width, y: plot.height / 2 } });
    await page.locator('[data-testid=lookback-line]').waitFor();
    assert.equal(await page.locator('[data-testid=lookback-line]').textContent(), 'Looking back at move 3 of 7, White’s c3-d4');
    assert.equal(await page.locator('svg.board [data-square=d4] .piece.pw').count(), 1, 'White on d4 after c3-d4');
    assert.deepEqual(errors, []);
    await context.close();
  });
}
