// End to end: the release build served on localhost, a short Territory Duel
// game played with real clicks and a drag in headless Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, status, clickSq, move } from './harness.mjs';

const app = useApp();

const score = (page, side) => page.locator(`[data-testid=score-${side === 'x' ? 'first' : 'second'}] .chip-count`).textContent();

test('a short game with clicks, a drag, pause and a new game', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx`);
  await page.locator('[data-square]').first().waitFor();
  assert.equal(await page.locator('[data-square]').count(), 49);
  assert.equal(await page.locator('.piece').count(), 4);
  assert.match(await status(page), /X to move/);

  // X clones a7 → b6: targets are shown after selecting.
  await clickSq(page, 'a7');
  assert.equal(await page.locator('.target-clone').count(), 3);
  assert.equal(await page.locator('.target-jump').count(), 5);
  await clickSq(page, 'b6');
  assert.equal(await score(page, 'x'), '3');
  assert.match(await status(page), /O to move/);

  await move(page, 'a1', 'b2'); // O clones
  await move(page, 'a7', 'a5'); // X jumps
  assert.equal(await page.locator('[data-square=a7] .piece').count(), 0);
  await move(page, 'b2', 'a3'); // O clones next to a4
  assert.equal(await score(page, 'o'), '4');

  // X clones a5 → a4 and turns a3.
  await move(page, 'a5', 'a4');
  assert.equal(await score(page, 'x'), '5'); // a4, a5, b6, g1 and the flipped a3
  assert.equal(await score(page, 'o'), '3');
  assert.equal(await page.locator('[data-square=a3] .piece.px.flip').count(), 1);
  assert.match(await page.locator('[data-testid=notice]').textContent(), /flips 1 piece/);

  // O drags g7 to g5 (a jump) with the mouse.
  const from = await page.locator('[data-square=g7] rect').boundingBox();
  const to = await page.locator('[data-square=g5] rect').boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  // The piece under the pointer is drawn in the mover's colours.
  assert.equal(await page.locator('.piece.ghost.po').count(), 1, 'the dragged O piece is drawn as an O');
  await page.mouse.up();
  assert.equal(await page.locator('[data-square=g5] .piece.po').count(), 1);
  assert.equal(await page.locator('[data-square=g7] .piece').count(), 0);
  assert.equal(await page.locator('.movelist li').count(), 3, 'six moves make three full moves');
  assert.deepEqual(await page.locator('.movelist .mv').allTextContents(), ['b6', 'b2', 'a7a5', 'a3', 'a4', 'g7g5']);

  // Pause: the clock stops and the board takes no moves.
  await page.locator('[data-testid=pause]').click();
  assert.match(await status(page), /Paused/);
  const frozen = await page.locator('[data-testid=clock]').textContent();
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('[data-testid=clock]').textContent(), frozen);
  await page.locator('.overlay button').click(); // Resume
  assert.match(await status(page), /X to move/);

  // New game (the dialog, started as it is) resets the board.
  await page.locator('[data-testid=new-game]').click();
  await page.locator('[data-testid=start-game]').click();
  assert.equal(await page.locator('.piece').count(), 4);
  assert.equal(await page.locator('.movelist li').count(), 0);

  assert.deepEqual(errors, []);
  await context.close();
});

test('the page fits a phone screen without horizontal scrolling', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx`, { width: 360, height: 740 });
  await page.locator('[data-square]').first().waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone`);
  const board = await page.locator('svg.board').boundingBox();
  assert.ok(board.width >= 300, `board is only ${board.width}px wide`);
  await move(page, 'g1', 'f2');
  assert.equal(await score(page, 'x'), '3');
  assert.deepEqual(errors, []);
  await context.close();
});

test('every screen fits phones from 320 px, portrait and landscape, with 44 px touch targets', async () => {
  for (const viewport of [{ width: 320, height: 640 }, { width: 740, height: 360 }, { width: 1280, height: 800 }]) {
    for (const query of ['', 'settings', '?game=ataxx&moves=b6', '?game=stones', '?game=mill', '?rules=mill']) {
      const settings = query === 'settings';
      const { page, errors, context } = await openPage(app.browser, `${app.server.url}${settings ? '' : query}`, viewport);
      await page.locator('main *').first().waitFor();
      // The settings panel, with the language choice, over the home screen.
      if (settings) await page.locator('[data-testid=settings]').click();
      await page.waitForTimeout(200);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${query || 'home'} at ${viewport.width}px is ${overflow}px too wide`);
      const scope = settings ? '[data-testid=settings-panel] ' : '';
      const small = await page.evaluate((scope) => [...document.querySelectorAll(['button', 'select', 'input', 'a[href]'].map((s) => scope + s).join(','))]
        .filter((el) => el.offsetParent !== null)
        // A checkbox or radio inside its label is tapped through the label.
        .map((el) => [(el.closest('label') ?? el).getBoundingClientRect(), el.getAttribute('aria-label') || el.textContent.trim() || el.id])
        .filter(([r]) => r.height < 44 || r.width < 24)
        .map(([r, name]) => `${name} ${Math.round(r.width)}×${Math.round(r.height)}`), scope);
      assert.deepEqual(small, [], `${query || 'home'} at ${viewport.width}px`);
      if (settings) {
        // Every language choice is visible and inside the screen.
        const boxes = await page.locator('[data-testid=set-lang] label').evaluateAll((ls) => ls.map((l) => l.getBoundingClientRect().toJSON()));
        assert.equal(boxes.length, 5);
        for (const b of boxes) assert.ok(b.left >= 0 && b.right <= viewport.width, `a language choice is off screen: ${JSON.stringify(b)}`);
      }
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
});
