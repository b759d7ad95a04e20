// End to end: Stones! and Mill played with real clicks in the release build,
// the game picker, and links that reopen a game or are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, status, clickSq, clickPt } from './harness.mjs';

const app = useApp();


test('Stones!: picked from the header, a slide and a pinning jump', async () => {
  const { page, errors, context } = await openPage(app.browser, app.server.url);
  await page.locator('[data-testid=pick-stones]').click();
  await page.locator('[data-square=h8]').waitFor();
  assert.equal(await page.locator('.stones-board .piece').count(), 16);
  assert.match(await status(page), /White to move/);
  await clickSq(page, 'a1');
  assert.equal(await page.locator('.target-slide').count(), 6, 'a1 slides to b2 … g7');
  await clickSq(page, 'c3');
  assert.match(await status(page), /Black to move/);
  await clickSq(page, 'h8');
  await clickSq(page, 'e5');
  await clickSq(page, 'c3');
  assert.equal(await page.locator('.target-jump').count(), 1);
  assert.equal(await page.locator('[data-square=e5].jump-over').count(), 1);
  await clickSq(page, 'f6'); // c3 slides through d4, jumps e5, lands on f6
  assert.equal(await page.locator('[data-square=e5] .piece.pb.pinned').count(), 1);
  assert.match(await page.locator('[data-testid=notice]').textContent(), /pins the stone on e5/);
  assert.match(page.url(), /game=stones&moves=a1-c3\.h8-e5\.c3xe5-f6$/);
  // Black presses its pinned stone: the notice says why it cannot move.
  await clickSq(page, 'e5');
  assert.equal(await page.locator('.target-slide, .target-jump').count(), 0);
  assert.match(await page.locator('[data-testid=notice]').textContent(), /This stone is pinned/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Territory Duel: a piece with no empty square within two says why', async () => {
  // X's piece on a7 is walled in by O; X can still move from g1.
  const pos = encodeURIComponent('xoo4/ooo4/ooo4/7/7/7/6x x 0 1');
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx&pos=${pos}`);
  await page.locator('[data-square=a7]').waitFor();
  await clickSq(page, 'a7');
  assert.match(await page.locator('[data-testid=notice]').textContent(), /no empty square within two/);
  // A piece that can move shows its targets instead.
  await clickSq(page, 'g1');
  assert.ok(await page.locator('.target-clone').count() > 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Mill: placing, a mill, a removal, and the Lasker preset', async () => {
  const { page, errors, context } = await openPage(app.browser, app.server.url);
  await page.locator('[data-testid=pick-mill]').click();
  await page.locator('[data-point=d6]').waitFor();
  assert.equal(await page.locator('[data-point]').count(), 24);
  assert.equal(await page.locator('.piece.hand').count(), 18);
  for (const p of ['a7', 'b6', 'd7', 'd6', 'g7']) await clickPt(page, p);
  assert.match(await status(page), /remove a Black piece/);
  assert.equal(await page.locator('.mill-fresh').count(), 1);
  await clickPt(page, 'd6');
  assert.match(await status(page), /Black: place a piece \(7 in hand\)/);
  assert.match(await page.locator('[data-testid=score-second]').textContent(), /1 lost/);
  assert.match(page.url(), /game=mill&moves=a7\.b6\.d7\.d6\.g7\.xd6$/);

  // Another preset starts a new game under its rules.
  await page.locator('[data-testid=new-game]').click();
  await page.locator('[data-testid=mill-preset]').selectOption('lasker');
  await page.locator('[data-testid=start-game]').click();
  assert.equal(await page.locator('.piece.hand').count(), 20);
  assert.match(page.url(), /game=mill&rules=lasker$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link reopens the same game; a bad link says why and the app still works', async () => {
  const link = `${app.server.url}?game=ataxx&moves=b6.a1a3`;
  const { page, errors, context } = await openPage(app.browser, app.server.url + '?game=mill&rules=twelve&moves=d6.f4');
  await page.locator('[data-point=d6] .piece.pw').waitFor();
  assert.equal(await page.locator('[data-point=f4] .piece.pb').count(), 1);
  assert.equal(await page.locator('.mill-line').count(), 20, 'Twelve Men\'s Morris has diagonals');
  await page.goto(link);
  await page.locator('[data-square=a3] .piece.po').waitFor();
  assert.equal(await page.locator('[data-square=b6] .piece.px').count(), 1);
  assert.match(await status(page), /X to move/);
  await page.reload();
  await page.locator('[data-square=a3] .piece.po').waitFor();

  await page.goto(`${app.server.url}?game=ataxx&moves=b6.zz`);
  await page.locator('[data-testid=link-error]').waitFor();
  // zz would be O's part of move 1, as the move list numbers it.
  assert.match(await page.locator('[data-testid=link-error]').textContent(), /move 1 \(zz\)/);
  // The app still works: pick a game and play.
  await page.locator('[data-testid=pick-ataxx]').click();
  await page.locator('[data-square=a7]').waitFor();
  assert.equal(await page.locator('.piece').count(), 4);
  await clickSq(page, 'a7');
  await clickSq(page, 'b6');
  assert.equal(await page.locator('.piece').count(), 5);
  assert.deepEqual(errors, []);
  await context.close();
});
