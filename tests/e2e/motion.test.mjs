// End to end: moves travel on the board (src/ui/board/motion.rs). A
// picture of the piece of the move just played starts at its origin and
// glides, hops or grows to its spot while the piece waits hidden there;
// flips and pins wait for it; the computer's move travels too; Undo shows
// no travel; the animations setting and reduced motion turn it all off. The page's
// animations are slowed a hundredfold through the DevTools protocol, so a
// 260 ms glide is still running when the test looks at it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, clickSq, clickPt, move } from './harness.mjs';

const app = useApp();

async function slowMotion(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Animation.enable');
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 0.01 });
}

/**
 * The travel of the piece that landed on `spot` (a [data-square] or
 * [data-point] name): the class of its picture over the board, how many
 * animations run on that picture, the picture's transform at the start of
 * its animation (`null` if none), and whether the piece itself waits
 * hidden in its slot meanwhile.
 */
function travel(page, spot) {
  return page.evaluate((spot) => {
    const pic = document.querySelector(`[data-testid=travel][data-to="${spot}"]`);
    const piece = document.querySelector(`:is([data-square="${spot}"], [data-point="${spot}"]) .slot .piece`);
    const waits = !!piece?.getAnimations().some((a) => a.animationName === 'arriving' && a.playState === 'running');
    if (!pic) return { kind: null, running: 0, start: null, waits };
    const kind = [...pic.classList].find((c) => c.startsWith('glide-')) ?? null;
    const running = pic.getAnimations().filter((a) => a.playState === 'running');
    let start = null;
    if (running.length) {
      const a = running[0];
      const was = a.currentTime;
      a.pause();
      a.currentTime = 0;
      start = getComputedStyle(pic).transform;
      a.currentTime = was;
      a.play();
    }
    return { kind, running: running.length, start, waits };
  }, spot);
}

/** Every animation running on a piece, its slot or a travelling picture. */
const pieceAnimations = (page) => page.evaluate(() => document.getAnimations()
  .filter((a) => a.effect?.target?.closest?.('.slot, .travel'))
  .map((a) => a.animationName));

test('Territory Duel: a jump hops from its square, a clone grows out of its source, a flip waits', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx`);
  await page.locator('[data-square=a7]').waitFor();
  await slowMotion(page);
  // Nothing moves on a fresh board.
  assert.deepEqual(await pieceAnimations(page), []);

  await move(page, 'a7', 'c5'); // X jumps: a7 is two squares up and left of c5
  assert.deepEqual(await travel(page, 'c5'), { kind: 'glide-hop', running: 1, start: 'matrix(1, 0, 0, 1, -200, -200)', waits: true });

  await move(page, 'g7', 'f6'); // O clones out of g7, up and right of f6
  assert.deepEqual(await travel(page, 'f6'), { kind: 'glide-grow', running: 1, start: 'matrix(0.25, 0, 0, 0.25, 100, -100)', waits: true });
  assert.deepEqual(await travel(page, 'c5'), { kind: null, running: 0, start: null, waits: false }, 'the last move stops travelling');

  await move(page, 'c5', 'e6'); // X jumps next to f6 and turns it
  assert.equal((await travel(page, 'e6')).kind, 'glide-hop');
  // f6 turns over once the jump has landed: O's picture goes edge-on, X comes up.
  const flip = await page.evaluate(() => [...document.querySelectorAll('[data-square=f6] .slot > *')]
    .map((e) => [e.getAttribute('class'), ...e.getAnimations().map((a) => [a.animationName, a.effect.getTiming().delay])]));
  assert.deepEqual(flip, [['pic was po', ['flip-down', 260]], ['piece px flip', ['flip-up', 260]]]);

  // Undo shows the position before at once: nothing travels or flips.
  await page.locator('[data-testid=undo]').click();
  await page.locator('[data-square=c5] .piece').waitFor();
  assert.deepEqual(await pieceAnimations(page), []);
  assert.equal(await page.locator('.travel, .slot.arriving, .piece.flip').count(), 0);
  // Redo replays the one move: it travels again, as it was played.
  await page.locator('[data-testid=redo]').click();
  assert.equal((await travel(page, 'e6')).start, 'matrix(1, 0, 0, 1, -200, 100)');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Stones! and Mill: a jump hops over the stone it pins, a placement comes from the hand', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=stones&moves=a1-c3.h8-e5`);
  await page.locator('[data-square=c3] .piece').waitFor();
  await slowMotion(page);
  assert.deepEqual(await pieceAnimations(page), [], 'a game opened from a link shows its last move still');
  await move(page, 'c3', 'f6');
  assert.deepEqual(await travel(page, 'f6'), { kind: 'glide-hop', running: 1, start: 'matrix(1, 0, 0, 1, -300, 300)', waits: true });
  const pin = await page.evaluate(() => document.querySelector('[data-square=e5] .piece.pin-now')
    .getAnimations().map((a) => [a.animationName, a.effect.getTiming().delay]));
  assert.deepEqual(pin, [['pin', 260]], 'the pin plays once the jump has landed');
  const cross = await page.evaluate(() => document.querySelector('[data-square=e5] .piece.pin-now .pin')
    .getAnimations().map((a) => [a.animationName, a.effect.getTiming().delay]));
  assert.deepEqual(cross, [['pin-cross', 260]], 'its cross grows then, not before');

  await page.goto(`${app.server.url}?game=mill`);
  await page.locator('[data-point=a7]').waitFor();
  await slowMotion(page);
  await clickPt(page, 'a7');
  // White's ninth piece leaves the right end of the hand row under the
  // board, the size of a piece in hand.
  assert.deepEqual(await travel(page, 'a7'), { kind: 'glide-enter', running: 1, start: 'matrix(0.65, 0, 0, 0.65, 440, 690)', waits: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the computer's move travels too", async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx&vs=beginner`);
  await page.locator('[data-square=a7]').waitFor();
  await slowMotion(page);
  await move(page, 'a7', 'c5');
  assert.equal((await travel(page, 'c5')).kind, 'glide-hop');
  // The computer (O) answers: its piece is the one travelling now.
  await page.waitForFunction(() => document.querySelectorAll('.movelist .mv')[1]?.textContent, null, { timeout: 8000 });
  const moving = await page.evaluate(() => [...document.querySelectorAll('[data-testid=travel]')]
    .map((t) => [t.dataset.to, t.getAnimations().length, t.querySelector('.pic.po') !== null]));
  assert.equal(moving.length, 1, JSON.stringify(moving));
  assert.notEqual(moving[0][0], 'c5');
  assert.deepEqual(moving[0].slice(1), [1, true]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the animations setting and reduced motion keep pieces still', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx`);
  await page.locator('[data-square=a7]').waitFor();
  await slowMotion(page);
  await page.locator('[data-testid=settings]').click();
  await page.locator('[data-testid=set-animations]').uncheck();
  await page.locator('[data-testid=close-settings]').click();
  await move(page, 'a7', 'c5');
  assert.equal((await travel(page, 'c5')).running, 0);
  assert.deepEqual(await pieceAnimations(page), []);
  // The picture is transparent, the piece shows where it landed.
  assert.equal(await page.locator('[data-testid=travel]').evaluate((t) => getComputedStyle(t).opacity), '0');
  assert.equal(await page.locator('[data-square=c5] .piece').evaluate((p) => getComputedStyle(p).opacity), '1');

  await page.locator('[data-testid=settings]').click();
  await page.locator('[data-testid=set-animations]').check();
  await page.locator('[data-testid=close-settings]').click();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await move(page, 'g7', 'e6'); // O jumps; c5 is two files away, nothing flips
  assert.equal((await travel(page, 'e6')).running, 0);
  await move(page, 'c5', 'd6'); // X clones next to e6 and turns it
  assert.equal(await page.locator('[data-square=e6] .piece.px').count(), 1);
  assert.deepEqual(await pieceAnimations(page), []);

  // With motion allowed again the same kind of move travels.
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await move(page, 'a1', 'b2');
  assert.equal((await travel(page, 'b2')).running, 1);
  assert.deepEqual(errors, []);
  await context.close();
});
