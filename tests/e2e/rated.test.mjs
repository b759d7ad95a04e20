// End to end (issue 37, points 2–5, against the REAL game server serving
// dist/ in headless Chromium): two named players tick Rated and are paired
// by quick match; the chips show their provisional ratings and, after a
// resignation, the change; the winner's page lists the game with its
// rating change; and a casual challenge posted in the lobby is taken by a
// third page, which both then play in.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, startGameServer, tid, text, move, named as namedOn } from './harness.mjs';

let game;
let browser;
before(async () => {
  game = await startGameServer(undefined, ['--rooms-per-address', '0']);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await game?.stop();
});

const named = (name) => namedOn(browser, game.url, name);

const kept = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('stoneplay.identity') ?? '[]'));

test('a rated quick match: names and provisional ratings on the chips, the change after the result, the player page', async () => {
  const a = await named('Ana');
  const b = await named('Bob');
  for (const p of [a.page, b.page]) {
    await tid(p, 'online-game-ataxx').check();
    await tid(p, 'online-rated').check();
  }
  await tid(a.page, 'quick-match').click();
  await tid(b.page, 'quick-match').click();
  for (const p of [a.page, b.page]) await p.locator('[data-square]').first().waitFor({ timeout: 15000 });
  assert.match(await text(a.page, 'rated-line'), /Rated/);
  const chips = (await text(a.page, 'score-first')) + ' | ' + (await text(a.page, 'score-second'));
  assert.match(chips, /Ana 1500\? · you/);
  assert.match(chips, /Bob 1500\? · opponent/);
  const first = (await text(a.page, 'score-first')).includes('you') ? a.page : b.page;
  const second = first === a.page ? b.page : a.page;
  await move(first, 'a7', 'b6');
  await second.waitForFunction(() => document.querySelectorAll('.movelist .mv').length === 1);
  await move(second, 'a1', 'b2');
  await first.waitForFunction(() => document.querySelectorAll('.movelist .mv').length === 2);
  // The first mover resigns: each side sees both new ratings.
  await tid(first, 'resign').click();
  await tid(first, 'resign-yes').click();
  const loser = first === a.page ? 'Ana' : 'Bob';
  const winner = first === a.page ? 'Bob' : 'Ana';
  for (const p of [a.page, b.page]) {
    await tid(p, 'result').waitFor();
    await p.waitForFunction(() => /→/.test(document.querySelector('[data-testid=score-first]')?.textContent ?? ''));
    const both = (await text(p, 'score-first')) + ' | ' + (await text(p, 'score-second'));
    assert.match(both, new RegExp(`${loser} 1500 → 1338 −162`));
    assert.match(both, new RegExp(`${winner} 1500 → 1662 \\+162`));
  }
  // The winner's page: the rating, the game with its change, a review link.
  const winnerPage = first === a.page ? b.page : a.page;
  const id = (await kept(winnerPage))[0].id;
  const c = await openPage(browser, `${game.url}?player=${id}`);
  await tid(c.page, 'player-page').waitFor();
  assert.equal(await text(c.page, 'player-name'), winner);
  assert.match(await text(c.page, 'player-ratings'), /1662\?/);
  assert.match(await text(c.page, 'player-game'), new RegExp(`${winner} won.*1500 → 1662 \\+162`));
  await tid(c.page, 'player-game-review').waitFor();
  assert.equal(await text(c.page, 'page-of'), 'Page 1 of 1');
  assert.equal(await tid(c.page, 'page-next').isDisabled(), true);
  assert.equal((await text(c.page, 'page-next')).trim(), 'Older');
  // Opened in review, the chips name both players, and there is no clock
  // to choose (it was the server's).
  await tid(c.page, 'player-game-review').click();
  await tid(c.page, 'result').waitFor();
  const reviewed = (await text(c.page, 'score-first')) + ' | ' + (await text(c.page, 'score-second'));
  assert.match(reviewed, new RegExp(`${winner} · `));
  assert.match(reviewed, new RegExp(`${loser} · `));
  assert.equal(await c.page.locator('.clock-choice').count(), 0);
  // Nobody by that name: a clear line, no page.
  const d = await openPage(browser, `${game.url}?player=Nobody`);
  await d.page.getByText('No player has this name or id.').waitFor();
  for (const p of [a, b, c, d]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('a lobby challenge is listed live on another page and taken there with one click', async () => {
  const a = await named('Cleo');
  const c = await named('Dan');
  await tid(a.page, 'online-game-ataxx').check();
  await tid(a.page, 'post-challenge').click();
  await tid(a.page, 'cancel-challenge').waitFor();
  const offered = tid(c.page, 'challenge').filter({ hasText: 'Cleo' });
  await offered.waitFor();
  await offered.locator('[data-testid=take-challenge]').click();
  for (const p of [a.page, c.page]) await p.locator('[data-square]').first().waitFor({ timeout: 15000 });
  const chips = (await text(c.page, 'score-first')) + ' | ' + (await text(c.page, 'score-second'));
  assert.match(chips, /Cleo/);
  assert.match(chips, /Dan/);
  // Taken: it has left the lobby for everyone still following it.
  const e = await named('Eve');
  await tid(e.page, 'no-challenges').waitFor();
  for (const p of [a, c, e]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});
