// End to end (issue 37, point 1): a finished online game is yours to
// keep. Two pages play Territory Duel through the REAL game server
// (target/release/server serving dist/) to a resignation; then the
// finished game is stepped through where it was played, opened in review
// with the evaluation graph (the local game's review: the same screen as
// a finished local game), found in Recent games with its result, and its
// permanent link (the room's spectator link) opened in a third page shows
// it read-only, steppable.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, startGameServer, move, tid, text, moves, waitMoves } from './harness.mjs';

let game;
let browser;
before(async () => {
  game = await startGameServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await game?.stop();
});

const pieces = (page, cls) => page.locator(`svg.board .piece.${cls}`).count();

const PLAYED = ['b6', 'b2', 'a7a5', 'a3'];

// The main thread's long tasks (over 50 ms), from the moment `watchLong`
// is called on a page (again after each load): printed with the test's
// output as a figure, not asserted (this machine's load varies).
const LONG = () => {
  window.__long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push(Math.round(e.duration));
  }).observe({ type: 'longtask' });
};
const long = [];
async function watchLong(p) {
  await p.page.evaluate(LONG);
}
async function keepLong(p, what) {
  const found = await p.page.evaluate(() => window.__long.splice(0));
  long.push(...found.map((ms) => `${what}: ${ms} ms`));
}

test('a finished online game: stepped through, reviewed with the graph, in Recent games, and its link read-only for anyone', async () => {
  // A creates a game as X; B takes the invite.
  const a = await openPage(browser, `${game.url}?online`);
  await tid(a.page, 'online-setup').waitFor();
  await tid(a.page, 'online-game-ataxx').check();
  await tid(a.page, 'online-side').selectOption('first');
  await tid(a.page, 'create-game').click();
  await a.page.waitForFunction(() => document.querySelector('[data-testid=invite-link]')?.value.includes('key='));
  const invite = await tid(a.page, 'invite-link').inputValue();
  const b = await openPage(browser, invite);
  await b.page.locator('[data-square]').first().waitFor();
  await a.page.locator('[data-square]').first().waitFor();

  // Before the end the move list is text and there is nothing to review.
  assert.equal(await tid(a.page, 'online-review').count(), 0);
  await move(a.page, 'a7', 'b6');
  await waitMoves(b.page, ['b6']);
  assert.equal(await a.page.locator('.movelist button.mv').count(), 0, 'no stepping while the game is on');
  await move(b.page, 'a1', 'b2');
  await waitMoves(a.page, ['b6', 'b2']);
  await move(a.page, 'a7', 'a5');
  await waitMoves(b.page, ['b6', 'b2', 'a7a5']);
  await move(b.page, 'b2', 'a3');
  await waitMoves(a.page, PLAYED);

  // A resigns.
  await watchLong(a);
  await watchLong(b);
  await tid(a.page, 'resign').click();
  await tid(a.page, 'resign-yes').click();
  await tid(a.page, 'result').waitFor();
  await tid(b.page, 'result').waitFor();
  assert.match(await text(b.page, 'result'), /You won!/);
  assert.match(await text(a.page, 'result'), /Review this game/, 'the result card offers the review');

  await keepLong(a, 'the end (loser)');
  await keepLong(b, 'the end (winner)');
  // Stepping where it was played, as in a finished local game: ◀ goes
  // back a move, a move in the list goes there, ⏭ back to the end.
  await tid(b.page, 'look-at-board').click();
  assert.equal(await pieces(b.page, 'po'), 4);
  await tid(b.page, 'prev').click();
  assert.equal(await text(b.page, 'lookback-line'), 'Looking back at move 2 of 2, X’s a7a5');
  assert.equal(await pieces(b.page, 'po'), 3, 'before O\'s a3');
  await b.page.locator('.movelist button.mv', { hasText: /^b6$/ }).click();
  assert.equal(await text(b.page, 'lookback-line'), 'Looking back at move 1 of 2, X’s b6');
  assert.equal(await pieces(b.page, 'px'), 3);
  assert.equal(await pieces(b.page, 'po'), 2);
  await tid(b.page, 'next').click();
  assert.equal(await text(b.page, 'lookback-line'), 'Looking back at move 1 of 2, O’s b2');
  await tid(b.page, 'lookback-live').click();
  assert.equal(await tid(b.page, 'lookback').count(), 0);
  assert.equal(await pieces(b.page, 'po'), 4);

  await keepLong(b, 'stepping');
  // The permanent link: the room's spectator link, on both pages.
  const link = await tid(a.page, 'finished-link').inputValue();
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/\?watch=[a-z2-7]{16}$/);
  assert.equal(await tid(b.page, 'finished-link').inputValue(), link);

  // Review: the local game's screen, finished as it ended, with the
  // evaluation graph and the better moves, Share and the export.
  const a7Above = async (p) => (await p.locator('[data-square=a7] rect').boundingBox()).y < (await p.locator('[data-square=a1] rect').boundingBox()).y;
  // Each player's own side is at the bottom online: the boards are turned
  // round from each other.
  const turned = await a7Above(b.page);
  assert.notEqual(await a7Above(a.page), turned);
  await tid(b.page, 'online-review').click();
  await b.page.waitForFunction(() => /\?game=ataxx&moves=b6\.b2\.a7a5\.a3$/.test(location.search));
  await tid(b.page, 'result').waitFor();
  assert.equal(await a7Above(b.page), turned, 'the review keeps your side at the bottom');
  assert.match(await text(b.page, 'status'), /X resigned — O wins\./);
  await keepLong(b, 'opening the review (its chunk fetched)');
  await tid(b.page, 'close-result').click();
  await tid(b.page, 'analyse').click();
  await tid(b.page, 'review-graph').waitFor({ timeout: 10000 });
  await b.page.waitForFunction(() => !document.querySelector('[data-testid=analyse]').disabled, null, { timeout: 30000 });
  assert.ok((await b.page.locator('[data-testid=mistakes] li').count()) >= 1, 'the review lists its verdicts');
  assert.ok(await tid(b.page, 'share').isVisible());
  assert.match(await tid(b.page, 'game-text').inputValue(), /b6.*b2.*a7a5.*a3/s, 'the export has the moves');
  await keepLong(b, 'the analysis and its graph');
  // Nothing can be played on the finished game.
  await move(b.page, 'a5', 'a4');
  assert.deepEqual(await moves(b.page), PLAYED);

  // Recent games lists it with its result, as an online game, on both
  // devices; opening it goes to the review.
  for (const p of [a, b]) {
    await p.page.goto(game.url);
    await tid(p.page, 'recent-game').first().waitFor();
    const item = p.page.locator('[data-testid=recent-game]', { hasText: 'online' });
    assert.equal(await item.count(), 1, 'one online game kept');
    assert.match(await item.textContent(), /Territory Duel · online · 2 moves/);
    assert.match(await item.textContent(), /X resigned — O wins\./);
    assert.match(await item.locator('[data-testid=resume]').textContent(), /Review/);
  }
  await watchLong(a);
  await a.page.locator('[data-testid=recent-game]', { hasText: 'online' }).locator('[data-testid=resume]').click();
  await a.page.waitForFunction(() => /\?game=ataxx&moves=b6\.b2\.a7a5\.a3$/.test(location.search));
  await tid(a.page, 'result').waitFor();
  assert.match(await text(a.page, 'status'), /X resigned — O wins\./);
  assert.deepEqual(await moves(a.page), PLAYED);
  await tid(a.page, 'close-result').click();
  await tid(a.page, 'analyse').waitFor();
  await keepLong(a, 'opening it from Recent games (its chunk fetched), as any saved game');

  // A third page, anyone: the permanent link shows the final position
  // and the moves, read-only, steppable.
  const c = await openPage(browser, link);
  await waitMoves(c.page, PLAYED);
  assert.equal(await text(c.page, 'online-role'), 'Watching');
  assert.match(await text(c.page, 'result'), /O won\./);
  assert.equal(await tid(c.page, 'resign').count(), 0);
  assert.equal(await tid(c.page, 'online-rematch').count(), 0, 'no rematch for spectators');
  await tid(c.page, 'look-at-board').click();
  assert.equal(await pieces(c.page, 'po'), 4);
  await c.page.locator('.movelist button.mv', { hasText: /^b2$/ }).click();
  assert.equal(await text(c.page, 'lookback-line'), 'Looking back at move 1 of 2, O’s b2');
  await move(c.page, 'b6', 'c5');
  assert.equal(await c.page.locator('.selected').count(), 0, 'read-only');
  assert.deepEqual(await moves(c.page), PLAYED);
  await tid(c.page, 'online-review').click();
  await c.page.waitForFunction(() => /\?game=ataxx&moves=b6\.b2\.a7a5\.a3$/.test(location.search));
  await tid(c.page, 'result').waitFor();

  for (const p of [a, b, c]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
  console.log(`main-thread tasks over 50 ms after the end: ${long.length ? long.join(', ') : 'none'}`);
});
