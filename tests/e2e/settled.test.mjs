// End to end (issue 37, against the REAL game server serving dist/ in
// headless Chromium): a leaderboard lists only settled players, so two
// named players play rated Territory Duel games through the server until one
// rating is no longer provisional (each game a rated invite: a move each,
// then one resigns, the winner alternating, as a pair of regulars would;
// tests/e2e/rated-games.mjs plays them over the page's own WebSocket with
// the protocol's messages, and the server referees and rates each); the
// player page then shows the settled rating without `?`, its chart with
// a point per game, the leaderboard with the player, and one of the
// games opened in review from the page's list.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, startGameServer, tid, text } from './harness.mjs';
import { playRated } from './rated-games.mjs';

let game;
let browser;
before(async () => {
  // Two players on one address play many games quickly: the rate limit
  // raised as the load benchmark raises it.
  game = await startGameServer(undefined, ['--rooms-per-address', '0', '--rate', '1000', '--burst', '1000']);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await game?.stop();
});

test('a settled player on the leaderboard; the player page charts every game and opens one in review', async () => {
  const a = await openPage(browser, game.url);
  await tid(a.page, 'play-online').waitFor();
  const { ids, games, settled } = await playRated(a.page, { names: ['Sela', 'Rafe'], games: 60, untilSettled: true });
  assert.ok(settled, `no rating settled after ${games} games`);
  const name = ['Sela', 'Rafe'][settled.index];
  // The player's page: the rating without '?', one chart point a game.
  await a.page.goto(`${game.url}?player=${ids[settled.index]}`);
  await tid(a.page, 'player-page').waitFor();
  assert.equal(await text(a.page, 'player-name'), name);
  const row = await text(a.page, 'rating-ataxx');
  assert.match(row, new RegExp(`${settled.rating}(?!\\?)`));
  assert.doesNotMatch(row, /\?/);
  const path = await a.page.locator('[data-testid=chart-ataxx] .rating-line').getAttribute('d');
  assert.equal(path.match(/[ML]/g).length, games);
  // The leaderboard of Territory Duel: the settled player, no '?'.
  await tid(a.page, 'leaderboard-ataxx').click();
  const line = tid(a.page, 'leaderboard-row').filter({ hasText: name });
  await line.waitFor();
  assert.match(await line.textContent(), new RegExp(`^[12]\\. ${name} ${settled.rating} · ${games} games$`));
  // Only settled players: no '?' on any line.
  for (const l of await tid(a.page, 'leaderboard-row').allTextContents()) assert.doesNotMatch(l, /\?/);
  // The newest game opens in review: its two moves, stepping, the result.
  assert.equal(await tid(a.page, 'player-game').count(), Math.min(games, 20));
  await tid(a.page, 'player-game-review').first().click();
  await a.page.waitForFunction(() => document.querySelectorAll('.movelist .mv').length === 2);
  assert.match(a.page.url(), /[?&]game=ataxx/);
  await tid(a.page, 'result').waitFor();
  assert.deepEqual(a.errors, []);
  await a.context.close();
});
