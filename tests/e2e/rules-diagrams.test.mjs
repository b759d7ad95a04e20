// End to end: the rules pages' board diagrams (src/client/diagram.rs, drawn
// in src/ui/rules_page.rs by the games' own boards in their read-only
// mode). Each page shows its three diagrams in the section they illustrate,
// each an SVG board of 140-180 px named as one image, with its move drawn
// (a mark, and the last move, flips, pin or mill); none takes a click or
// the keyboard focus; at 360 px they wrap inside the screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp } from './harness.mjs';

const app = useApp();

// Per game: each diagram's caption key, the heading of the section it
// belongs to, and what must be drawn on its board.
const PAGES = {
  ataxx: [
    ['rules.ataxx.s2.d1', 'Your move', ['[data-testid=mark-to][data-at=b6]', '[data-square=b6].last-to .piece.px']],
    ['rules.ataxx.s2.d2', 'Your move', ['[data-testid=mark-arrow][data-from=a7][data-to=c5]', '[data-square=a7].last-from']],
    ['rules.ataxx.s2.d3', 'Your move', ['[data-testid=mark-arrow][data-from=b2][data-to=d4]', '[data-square=c5].last-flipped .piece.px',
      '[data-square=d5].last-flipped .piece.px', '[data-square=e4].last-flipped .piece.px']],
  ],
  stones: [
    ['rules.stones.s2.d1', 'Your move', ['[data-testid=mark-arrow][data-from=c3][data-to=e5]', '[data-square=e5].last-to .piece.pw']],
    ['rules.stones.s3.d1', 'Which stones can be jumped', ['[data-testid=mark-arrow][data-from=c3][data-to=g7]',
      '[data-square=f6].last-jumped .piece.pb.pinned']],
    ['rules.stones.s3.d2', 'Which stones can be jumped', ['[data-testid=mark-arrow][data-from=d4][data-to=f6]',
      '[data-square=e5].last-jumped .piece.pw:not(.pinned)']],
  ],
  mill: [
    ['rules.mill.s2.d1', 'Your move', ['[data-testid=mark-arrow][data-from=g1][data-to=b6]', '[data-point=b6].last-to .piece.pw']],
    ['rules.mill.s3.d1', 'Mills', ['[data-testid=mark-arrow][data-from=b4][data-to=a4]', '.mill-fresh']],
    ['rules.mill.s3.d2', 'Mills', ['[data-testid=mark-remove][data-at=b6]', '.mill-fresh', '[data-point=b6] .piece.pb']],
  ],
};

for (const [game, diagrams] of Object.entries(PAGES)) {
  test(`${game}: the rules page shows its ${diagrams.length} diagrams with their moves drawn, in their sections`, async () => {
    const viewport = { width: 360, height: 740 };
    const { page, errors, context } = await openPage(app.browser, `${app.server.url}?rules=${game}`, viewport);
    await page.locator('[data-testid=rules-page]').waitFor();
    const figures = page.locator('[data-testid=rules-diagram]');
    assert.equal(await figures.count(), diagrams.length);
    for (const [i, [key, heading, drawn]] of diagrams.entries()) {
      const fig = figures.nth(i);
      assert.equal(await fig.getAttribute('data-caption'), key);
      // In the section it illustrates.
      assert.equal(await fig.evaluate((f) => f.closest('section').querySelector('h2').textContent), heading, key);
      // One SVG board, named as one image by its caption.
      const svg = fig.locator('svg.board.diagram');
      assert.equal(await svg.count(), 1, key);
      assert.equal(await svg.getAttribute('role'), 'img');
      const caption = (await fig.locator('figcaption').textContent()).trim();
      assert.ok(caption.length > 20, `${key}: caption "${caption}"`);
      assert.equal(await svg.getAttribute('aria-label'), `Board diagram: ${caption}`);
      // The move is drawn.
      assert.equal(await svg.locator('[data-testid=move-mark]').count(), 1, `${key}: no move drawn`);
      for (const sel of drawn) assert.ok(await svg.locator(sel).count() >= 1, `${key}: ${sel} is not drawn`);
      // Read-only: nothing to focus, no buttons.
      assert.equal(await svg.locator('[tabindex], [role=button]').count(), 0, `${key}: focusable spots`);
      // Small, and inside the screen.
      const box = await svg.boundingBox();
      assert.ok(box.width >= 140 && box.width <= 180, `${key}: ${box.width} px wide`);
      assert.ok(box.height >= 140 && box.height <= 180, `${key}: ${box.height} px high`);
      assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, `${key}: x ${box.x}..${box.x + box.width}`);
    }
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0);
    // Two diagrams side by side on a phone: the first two share a row.
    const [a, b] = [await figures.nth(0).boundingBox(), await figures.nth(1).boundingBox()];
    if (diagrams[0][1] === diagrams[1][1]) assert.equal(Math.round(a.y), Math.round(b.y));
    // A click on a diagram does nothing.
    const url = page.url();
    await figures.first().locator('svg').click({ position: { x: 20, y: 20 } });
    assert.equal(page.url(), url);
    assert.equal(await page.locator('.selected').count(), 0);
    // The keyboard passes the diagrams by: Tab from the top reaches the
    // Play button without stopping inside a board.
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      const inBoard = await page.evaluate(() => document.activeElement?.closest('svg')?.outerHTML.slice(0, 80));
      assert.equal(inBoard, undefined, 'focus went into a diagram');
      reached = await page.evaluate(() => document.activeElement?.dataset.testid === 'rules-play');
    }
    assert.ok(reached, 'Tab never reached the Play button');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the diagrams follow the language: Turkish captions and labels', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?rules=stones`, { width: 1280, height: 800 }, 'tr-TR');
  await page.locator('[data-testid=rules-page]').waitFor();
  const fig = page.locator('[data-testid=rules-diagram]').nth(1);
  await page.waitForFunction(() => document.documentElement.lang === 'tr');
  const caption = (await fig.locator('figcaption').textContent()).trim();
  assert.match(caption, /^Kilitleme: Beyaz c3xf6-g7/);
  assert.equal(await fig.locator('svg').getAttribute('aria-label'), `Tahta şeması: ${caption}`);
  // Wide screen: the three fit on one row.
  const boxes = await Promise.all([0, 1, 2].map((i) => page.locator('[data-testid=rules-diagram] svg').nth(i).boundingBox()));
  assert.ok(boxes.every((b) => b.width >= 140 && b.width <= 180), JSON.stringify(boxes));
  assert.deepEqual(errors, []);
  await context.close();
});
