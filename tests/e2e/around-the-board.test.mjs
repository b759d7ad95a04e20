// End to end: what keeps people coming back: resume after reload, share
// links, settings that stick, undo/redo, move-list navigation, import and
// export, the home screen's recent games, review and results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, status, clickSq, clickPt } from './harness.mjs';

const app = useApp();

const notice = (page) => page.locator('[data-testid=notice]').textContent();
const moveTexts = (page) => page.locator('.movelist button.mv').allTextContents();

test('reload keeps the game, paused; the home screen lists it; a shared link opens it elsewhere', async () => {
  const { page, errors, context } = await openPage(app.browser, app.server.url);
  await page.locator('[data-testid=play-ataxx]').click();
  await clickSq(page, 'a7');
  await clickSq(page, 'b6');
  await clickSq(page, 'a1');
  await clickSq(page, 'b2');
  assert.match(page.url(), /\?game=ataxx&moves=b6\.b2$/);
  await page.reload();
  await page.locator('[data-square=b2] .piece.po').waitFor();
  assert.deepEqual(await moveTexts(page), ['b6', 'b2']);
  assert.match(await status(page), /Paused/);
  const left = await page.locator('[data-testid=clock]').textContent();
  await page.waitForTimeout(1200);
  assert.equal(await page.locator('[data-testid=clock]').textContent(), left, 'paused on return');
  await page.locator('.overlay button').click();
  assert.match(await status(page), /X to move/);

  // Home lists the game; Resume reopens it.
  await page.locator('[data-testid=home]').click();
  await page.locator('[data-testid=recent-game]').first().waitFor();
  // b6 b2 is one numbered move ("1. b6 b2"), as the move list shows it.
  assert.match(await page.locator('[data-testid=recent-game]').first().textContent(), /Territory Duel · two players · 1 move[^s]/);
  await page.locator('[data-testid=resume]').first().click();
  await page.locator('[data-square=b6] .piece.px').waitFor();
  assert.deepEqual(await moveTexts(page), ['b6', 'b2']);

  // Share: the link opens the same position in a fresh browser context.
  await page.locator('[data-testid=share]').click();
  await page.waitForFunction(() => /Link copied|Copy this link/.test(document.querySelector('[data-testid=notice]').textContent));
  const link = page.url();
  const other = await openPage(app.browser, link);
  await other.page.locator('[data-square=b2] .piece.po').waitFor();
  assert.deepEqual(await moveTexts(other.page), ['b6', 'b2']);
  assert.match(await other.page.locator('[data-testid=status]').textContent(), /X to move/, 'a new device is not paused');
  assert.deepEqual(other.errors, []);
  await other.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test('settings stick across visits: theme, board turned round, clock', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx`);
  await page.locator('[data-testid=settings]').click();
  await page.locator('[data-testid=set-theme]').selectOption('dark');
  await page.locator('[data-testid=set-flip]').check();
  await page.locator('[data-testid=set-clock]').selectOption('60');
  await page.locator('[data-testid=close-settings]').click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  // Turned round: a1 is drawn at the top right.
  const a1 = await page.locator('[data-square=a1] rect').boundingBox();
  const g7 = await page.locator('[data-square=g7] rect').boundingBox();
  assert.ok(a1.x > g7.x && a1.y < g7.y, 'a1 above and right of g7');
  await page.goto(`${app.server.url}?game=mill`);
  await page.locator('[data-point=d6]').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await page.locator('[data-testid=clock]').textContent(), '1:00');
  await page.locator('[data-testid=settings]').click();
  assert.equal(await page.locator('[data-testid=set-flip]').isChecked(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('undo, redo and looking back through the move list', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx&moves=b6.b2.a7a5`);
  await page.locator('[data-square=a5] .piece').waitFor();
  await page.locator('[data-testid=undo]').click();
  assert.deepEqual(await moveTexts(page), ['b6', 'b2']);
  await page.locator('[data-testid=undo]').click();
  assert.deepEqual(await moveTexts(page), ['b6']);
  await page.locator('[data-testid=redo]').click();
  await page.locator('[data-testid=redo]').click();
  assert.deepEqual(await moveTexts(page), ['b6', 'b2', 'a7a5']);
  assert.equal(await page.locator('[data-testid=redo]').isDisabled(), true);

  // Look at the position after the first move: read-only.
  await page.locator('.movelist button.mv').first().click();
  assert.equal(await page.locator('.piece').count(), 5, 'after b6: 3 X and 2 O');
  assert.equal(await page.locator('[data-testid=lookback-line]').textContent(), 'Looking back at move 1 of 2, X’s b6');
  await clickSq(page, 'b6');
  assert.equal(await page.locator('.selected').count(), 0, 'no moves while looking back');
  await page.locator('[data-testid=next]').click();
  assert.equal(await page.locator('[data-square=b2] .piece.po').count(), 1);
  await page.locator('[data-testid=live]').click();
  assert.equal(await page.locator('[data-square=a5] .piece.px').count(), 1);
  assert.equal(await page.locator('[data-testid=lookback]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('export and import a game as text; a bad import changes nothing', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=mill&moves=d6.f4`);
  await page.locator('[data-point=f4] .piece').waitFor();
  await page.locator('.game-text summary').click();
  const text = page.locator('[data-testid=game-text]');
  assert.match(await text.inputValue(), /\[Game "Mill"\]\n1\. d6 f4/);
  // A Sanmill move list with a mill and a removal written together.
  await text.fill('1. a7 b6 2. d7 d6 3. g7xb6');
  await page.locator('[data-testid=import]').click();
  // Six actions, three moves: the removal is part of White's move 3.
  assert.match(await notice(page), /Game imported: 3 moves/);
  assert.deepEqual(await moveTexts(page), ['a7', 'b6', 'd7', 'd6', 'g7xb6']);
  assert.match(page.url(), /moves=a7\.b6\.d7\.d6\.g7\.xb6$/);
  await text.fill('1. a7 a7');
  await page.locator('[data-testid=import]').click();
  // The second a7 is Black's part of move 1.
  assert.match(await notice(page), /Import failed, the game is unchanged: move 1 \(a7\)/);
  assert.deepEqual(await moveTexts(page), ['a7', 'b6', 'd7', 'd6', 'g7xb6']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a win against the computer is counted, and the game can be reviewed', async () => {
  // X to move takes O's last piece with g2 (a clone next to f1's... only O piece on g1).
  const pos = encodeURIComponent('7/7/7/7/7/5x1/6o x 0 1');
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx&vs=beginner&pos=${pos}`);
  await page.locator('[data-square=f2] .piece').waitFor();
  await clickSq(page, 'f2');
  await clickSq(page, 'g2');
  await page.locator('[data-testid=result]').waitFor();
  assert.match(await page.locator('[data-testid=result]').textContent(), /X wins/);
  await page.locator('[data-testid=analyse]').click();
  await page.locator('[data-testid=review-graph]').waitFor({ timeout: 10000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid=analyse]').disabled, null, { timeout: 10000 });
  assert.equal(await page.locator('.review-line').count(), 1);
  await page.locator('[data-testid=home]').click();
  await page.locator('[data-testid=stats]').waitFor();
  assert.match(await page.locator('[data-testid=stats]').textContent(), /Territory DuelBeginner100/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the review shows the move the computer preferred to a marked move, on the board and in words', async () => {
  // X could take O's last piece (g2 or f1) but clones to e2; O's f1 then
  // takes both X pieces: a finished game with one big drop, X's move 1.
  const pos = encodeURIComponent('7/7/7/7/7/5x1/6o x 0 1');
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx&pos=${pos}&moves=e2.f1`);
  await page.locator('[data-testid=result]').waitFor();
  await page.locator('[data-testid=close-result]').click();
  await page.locator('[data-testid=analyse]').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=analyse]').disabled, null, { timeout: 10000 });
  const mistakes = page.locator('[data-testid=mistake]');
  assert.equal(await mistakes.count(), 1);
  assert.match(await mistakes.first().textContent(), /^move 1, X’s e2 /);
  assert.equal(await page.locator('[data-testid=move-mark]').count(), 0, 'nothing marked before a choice');
  await mistakes.first().click();
  // The position before the mistake, with the better move drawn and named.
  await page.locator('[data-testid=review-better]').waitFor();
  const line = await page.locator('[data-testid=review-better]').textContent();
  const [, better] = /^Before move 1 the computer preferred (\S+) to e2: it is shown on the board\.$/.exec(line) ?? [];
  assert.ok(better, line);
  assert.equal(await page.locator('[data-square=e2] .piece').count(), 0, 'the board shows the position before move 1');
  assert.equal(await page.locator('[data-square=f2] .piece.px').count(), 1);
  assert.equal(await page.locator('[data-testid=lookback-line]').textContent(), 'Looking back at the start, before move 1');
  const drawn = await page.evaluate(() => ({
    to: [...document.querySelectorAll('svg.board [data-testid=mark-to]')].map((e) => e.dataset.at),
    arrows: [...document.querySelectorAll('svg.board [data-testid=mark-arrow]')].map((e) => `${e.dataset.from}>${e.dataset.to}`),
  }));
  if (better.length === 2) {
    assert.deepEqual(drawn, { to: [better], arrows: [] }, 'a clone: its target');
  } else {
    assert.deepEqual(drawn, { to: [better.slice(2)], arrows: [`${better.slice(0, 2)}>${better.slice(2)}`] }, 'a jump: an arrow');
  }
  assert.equal(await mistakes.first().getAttribute('aria-pressed'), 'true');
  // Back to the end of the game: the mark and the line go.
  await page.locator('[data-testid=live]').click();
  assert.equal(await page.locator('[data-testid=move-mark]').count(), 0);
  assert.equal(await page.locator('[data-testid=review-better]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
