// End to end: single player against the computer, which searches in a Web
// Worker: it answers within its time, the clock keeps running and the page
// stays responsive while it thinks; Undo takes back your move and its reply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, status, clickSq, clickPt } from './harness.mjs';

const app = useApp();

const moves = (page) => page.locator('.movelist .mv').allTextContents().then((m) => m.filter((t) => t && t !== '…'));

test('Territory Duel against the Master: the computer answers, the clock runs meanwhile', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx&vs=master`);
  await page.locator('[data-square=a7]').waitFor();
  // The New game sheet (its code comes when first opened) starts from the link.
  await page.locator('[data-testid=open-new-game]').click();
  assert.equal(await page.locator('[data-testid=mode]').inputValue(), 'computer');
  await page.keyboard.press('Escape');
  await page.locator('[data-testid=new-game-dialog]').waitFor({ state: 'hidden' });
  assert.match(page.url(), /nomove=lose/, 'single player uses the lose rule');
  await clickSq(page, 'a7');
  await clickSq(page, 'b6');
  // The computer (O) is thinking: the indicator shows and the clock ticks.
  await page.locator('[data-testid=thinking]').waitFor({ timeout: 2000 });
  // The clock runs while it thinks: its bar (0.1 % steps, 30 ms of 30 s)
  // moves before the answer comes, however soon that is.
  const seen = await page.evaluate(() => new Promise((ok) => {
    const fill = () => document.querySelector('.clock .clock-fill').style.width;
    const first = fill();
    const look = () => {
      if (!document.querySelector('[data-testid=thinking]')) ok({ first, last: fill(), thinking: false });
      else if (fill() !== first) ok({ first, last: fill(), thinking: true });
      else setTimeout(look, 5);
    };
    look();
  }));
  assert.ok(seen.thinking, `the clock stood at ${seen.first} while the computer thought`);
  // The page stays responsive: the board is disabled for us, but a button reacts.
  const started = Date.now();
  await page.locator('.movelist').click();
  assert.ok(Date.now() - started < 1000, 'the page reacts while the computer thinks');
  await page.waitForFunction(() => document.querySelectorAll('.movelist .mv').length >= 2 &&
    document.querySelectorAll('.movelist .mv')[1].textContent.length > 0, null, { timeout: 8000 });
  assert.equal(await page.locator('[data-testid=thinking]').count(), 0);
  assert.match(await status(page), /X to move/);
  assert.equal((await moves(page)).length, 2);

  // Undo takes back the computer's reply and our move.
  await page.locator('[data-testid=undo]').click();
  assert.equal((await moves(page)).length, 0);
  assert.equal(await page.locator('.piece').count(), 4);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a hint for the side to move, and a new game while the computer thinks', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=mill&vs=beginner`);
  await page.locator('[data-point=d6]').waitFor();
  // A placement marks its point only: no arrow, no start.
  const placed = await askHint(page);
  assert.match(placed, /^[a-g][1-7]$/);
  assert.deepEqual(await marks(page), { from: [], to: [placed], arrows: [], removes: [] });
  const mine = placed === 'd6' ? 'f4' : 'd6';
  await page.locator(`[data-point=${mine}] rect`).click();
  assert.deepEqual(await marks(page), none, 'the mark goes with the move');
  await page.waitForFunction(() => document.querySelectorAll('.mill-board .piece.pb:not(.hand)').length === 1, null, { timeout: 8000 });
  assert.match(await status(page), /White: place a piece \(8 in hand\)/);
  // Ask the computer to move, then start a new game at once: the stale
  // answer is dropped and the new game starts clean.
  const free = await page.locator('.mill-board .pt:not(:has(.piece))').first().getAttribute('data-point');
  await page.locator(`[data-point=${free}] rect`).click();
  await page.locator('[data-testid=new-game]').click();
  await page.locator('[data-testid=start-game]').click();
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('.mill-board .piece:not(.hand)').count(), 0);
  assert.match(await status(page), /White: place a piece \(9 in hand\)/);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Presses Hint and returns the move it names once it is on the notice line. */
async function askHint(page) {
  await page.locator('[data-testid=hint]').click();
  const line = await page.waitForFunction(() => {
    const m = /Hint for move \d+: (\S+) \(/.exec(document.querySelector('[data-testid=notice]').textContent);
    return m && m[1];
  }, null, { timeout: 8000 });
  return line.jsonValue();
}

/** The move drawn on the board: the spots of its rings, arrows and removals. */
const marks = (page) => page.evaluate(() => {
  const at = (id) => [...document.querySelectorAll(`svg.board [data-testid=${id}]`)].map((e) => e.dataset.at);
  return {
    from: at('mark-from'),
    to: at('mark-to'),
    arrows: [...document.querySelectorAll('svg.board [data-testid=mark-arrow]')].map((e) => `${e.dataset.from}>${e.dataset.to}`),
    removes: at('mark-remove'),
  };
});
const none = { from: [], to: [], arrows: [], removes: [] };

test('the hint is drawn on the board at the squares it names, and goes with the next move, undo or a new hint', async () => {
  // Stones!, two players: a slide or a jump, from its square to its landing square.
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=stones`);
  await page.locator('[data-square=a1]').waitFor();
  assert.deepEqual(await marks(page), none);
  let hint = await askHint(page);
  let [, from, to] = /^([a-h][1-8])(?:x[a-h][1-8])?-([a-h][1-8])$/.exec(hint) ?? [];
  assert.ok(from && to, `a Stones! move: ${hint}`);
  assert.deepEqual(await marks(page), { from: [from], to: [to], arrows: [`${from}>${to}`], removes: [] });
  // The arrow points from the start towards the landing square.
  const box = (sel) => page.locator(sel).boundingBox();
  const [a, b, arrow] = [await box(`[data-square=${from}]`), await box(`[data-square=${to}]`), await box('[data-testid=mark-arrow]')];
  assert.ok(arrow.x <= Math.min(a.x, b.x) + a.width && arrow.x + arrow.width >= Math.max(a.x, b.x), 'the arrow spans both squares');
  // Playing the hinted move takes the mark away.
  await clickSq(page, from);
  await clickSq(page, to);
  await page.waitForFunction(() => document.querySelectorAll('.movelist .mv').length >= 1);
  assert.deepEqual(await marks(page), none, 'the mark goes with the move');
  // A new hint (for Black) is drawn; Undo takes it away.
  hint = await askHint(page);
  [, from, to] = /^([a-h][1-8])(?:x[a-h][1-8])?-([a-h][1-8])$/.exec(hint) ?? [];
  assert.deepEqual((await marks(page)).arrows, [`${from}>${to}`]);
  await page.locator('[data-testid=undo]').click();
  assert.deepEqual(await marks(page), none, 'the mark goes with undo');
  assert.deepEqual(errors, []);
  await context.close();

  // Territory Duel where X has only jumps: an arrow from a1; then a new
  // game, where the mark is gone.
  const jumpsOnly = encodeURIComponent('7/7/7/7/7/oo5/xo5 x 0 1');
  const duel = await openPage(app.browser, `${app.server.url}?game=ataxx&pos=${jumpsOnly}`);
  await duel.page.locator('[data-square=a1] .piece').waitFor();
  hint = await askHint(duel.page);
  assert.match(hint, /^a1[a-g][1-7]$/, 'a jump from a1');
  assert.deepEqual(await marks(duel.page), { from: ['a1'], to: [hint.slice(2)], arrows: [`a1>${hint.slice(2)}`], removes: [] });
  await duel.page.locator('[data-testid=new-game]').click();
  await duel.page.locator('[data-testid=start-game]').click();
  await duel.page.locator('[data-square=a7] .piece').waitFor();
  assert.deepEqual(await marks(duel.page), none, 'the mark goes with a new game');
  // From the start a clone: its target only (the text names no source).
  hint = await askHint(duel.page);
  if (hint.length === 2) {
    assert.deepEqual(await marks(duel.page), { from: [], to: [hint], arrows: [], removes: [] });
  }
  // Asking again replaces the mark (never two at once).
  await duel.page.locator('[data-testid=hint]').click();
  assert.deepEqual(await marks(duel.page), none, 'a new hint clears the old mark at once');
  await duel.page.waitForFunction(() => /Hint for move \d+: /.test(document.querySelector('[data-testid=notice]').textContent), null, { timeout: 8000 });
  assert.equal(await duel.page.locator('[data-testid=move-mark]').count(), 1);
  assert.deepEqual(duel.errors, []);
  await duel.context.close();

  // Mill after White's mill: the removal is marked on Black's piece.
  const mill = await openPage(app.browser, `${app.server.url}?game=mill&moves=a7.b6.d7.d6.g7`);
  await mill.page.locator('[data-point=b6] .piece').waitFor();
  hint = await askHint(mill.page);
  assert.match(hint, /^x(b6|d6)$/);
  assert.deepEqual(await marks(mill.page), { from: [], to: [], arrows: [], removes: [hint.slice(1)] });
  assert.deepEqual(mill.errors, []);
  await mill.context.close();
});

test('playing Black: the computer opens as White', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=stones&vs=casual&you=second`);
  await page.waitForFunction(() => document.querySelectorAll('.movelist .mv').length >= 1, null, { timeout: 8000 });
  assert.match(await status(page), /Black to move/);
  await page.locator('[data-testid=open-new-game]').click();
  assert.equal(await page.locator('[data-testid=side]').inputValue(), 'second');
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * Before the page loads: every Web Worker it starts is kept in
 * `window.__workers`, with the messages it posted (`answers`) and whether
 * the page terminated it.
 */
const spyOnWorkers = (page) => page.addInitScript(() => {
  const Real = window.Worker;
  window.__workers = [];
  window.Worker = class extends Real {
    constructor(...args) {
      super(...args);
      this.answers = [];
      this.terminated = false;
      this.addEventListener('message', (e) => this.answers.push(e.data));
      window.__workers.push(this);
    }

    terminate() {
      this.terminated = true;
      super.terminate();
    }
  };
});

const workers = (page) => page.evaluate(() => window.__workers.map((w) => ({
  terminated: w.terminated,
  answers: w.answers.map((a) => (a && typeof a === 'object' ? Object.keys(a)[0] : a)),
})));

test('undo and pause while the computer thinks stop its search; a stale answer is dropped by its id', async () => {
  const { page, errors, context } = await openPage(app.browser, 'about:blank');
  await spyOnWorkers(page);
  // Playwright sees each worker the page starts, and when it ends.
  const started = [];
  page.on('worker', (w) => started.push({ closed: new Promise((ok) => w.once('close', () => ok(true))) }));
  const ended = (i) => Promise.race([started[i].closed, new Promise((ok) => setTimeout(() => ok(false), 3000))]);
  await page.goto(`${app.server.url}?game=ataxx&vs=master`);
  await page.locator('[data-square=a7]').waitFor();
  const thinking = page.locator('[data-testid=thinking]');

  // Undo while the Master thinks: our move is taken back and its worker ends.
  await clickSq(page, 'a7');
  await clickSq(page, 'b6');
  await thinking.waitFor({ timeout: 2000 });
  await page.locator('[data-testid=undo]').click();
  assert.equal(await thinking.count(), 0);
  assert.deepEqual(await moves(page), []);
  assert.equal(await page.locator('.piece').count(), 4);
  assert.deepEqual((await workers(page)).map((w) => w.terminated), [true], 'undo terminates the search');
  assert.ok(await ended(0), 'the first worker ended');

  // Pause while it thinks: the search ends too; resuming asks a new worker.
  await clickSq(page, 'a7');
  await clickSq(page, 'b6');
  await thinking.waitFor({ timeout: 2000 });
  await page.locator('[data-testid=pause]').click();
  assert.equal(await thinking.count(), 0);
  assert.deepEqual((await workers(page)).map((w) => w.terminated), [true, true], 'pause terminates the search');
  assert.ok(await ended(1), 'the second worker ended');
  assert.deepEqual(await moves(page), ['b6']);
  await page.locator('[data-testid=pause]').click();
  await thinking.waitFor({ timeout: 2000 });
  await page.waitForFunction(() => document.querySelectorAll('.movelist .mv').length >= 2 &&
    document.querySelectorAll('.movelist .mv')[1].textContent.length > 0, null, { timeout: 8000 });
  const reply = (await moves(page))[1];
  const third = (await workers(page))[2];
  assert.equal(third.terminated, false);
  assert.ok(third.answers.includes('Best'), `the third worker answered: ${third.answers}`);

  // The same position again (undo both, replay b6): the computer is asked
  // with a new request id. Its earlier answer, for the same position, is
  // posted again while it thinks: the page drops it by its id alone.
  await page.locator('[data-testid=undo]').click();
  assert.deepEqual(await moves(page), []);
  await clickSq(page, 'a7');
  await clickSq(page, 'b6');
  await thinking.waitFor({ timeout: 2000 });
  const after = await page.evaluate(async () => {
    const w = window.__workers[2];
    const stale = w.answers.find((a) => a && a.Best);
    w.dispatchEvent(new MessageEvent('message', { data: stale }));
    await new Promise((ok) => setTimeout(ok, 100));
    return {
      moves: document.querySelectorAll('.movelist .mv').length,
      thinking: !!document.querySelector('[data-testid=thinking]'),
      id: stale.Best.id,
    };
  });
  assert.deepEqual(after, { moves: 1, thinking: true, id: after.id }, 'the stale answer was played');
  // The real answer comes, and only one.
  await page.waitForFunction(() => document.querySelectorAll('.movelist .mv').length >= 2 &&
    document.querySelectorAll('.movelist .mv')[1].textContent.length > 0, null, { timeout: 8000 });
  assert.equal((await moves(page)).length, 2);
  assert.equal(await thinking.count(), 0);
  assert.equal((await workers(page)).length, 3, 'a finished search keeps its worker');
  assert.ok(reply);
  assert.deepEqual(errors, []);
  await context.close();
});
