// End to end: the rules of a local game's clock and of a finished game
// (src/client/local.rs): a dialog over the board stops the clock; a game
// lost on time stays lost after a reload and on the home screen; undo after
// the end is review, not play; a clock length change applies from the next
// move, also against the computer; after the end the clock says so
// instead of showing a time; a game only opened is not a recent game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, status, move } from './harness.mjs';

const app = useApp();

const clock = (page) => page.locator('[data-testid=clock]').textContent();
const secs = (text) => {
  const m = /^(\d+):(\d\d)$/.exec(text.trim());
  assert.ok(m, `not a clock: ${text}`);
  return Number(m[1]) * 60 + Number(m[2]);
};

/** Opens `query` with the move clock for new games set to `clockSecs`. */
async function openWithClock(query, clockSecs) {
  const opened = await openPage(app.browser, app.server.url);
  await opened.page.locator('main *').first().waitFor();
  await opened.page.evaluate((s) => {
    localStorage.clear();
    localStorage.setItem('stoneplay.settings', JSON.stringify({ clock_secs: s }));
  }, clockSecs);
  await opened.page.goto(app.server.url + query);
  await opened.page.locator('svg.board').waitFor();
  return opened;
}

test('Settings or New game over the board stop the clock; it goes on when they close', async () => {
  const { page, errors, context } = await openWithClock('?game=ataxx', 30);
  await move(page, 'a7', 'b6');
  assert.match(await status(page), /O to move/);
  for (const [open, close] of [
    ['[data-testid=settings]', '[data-testid=close-settings]'],
    ['[data-testid=open-new-game]', '[data-testid=cancel-new-game]'],
    ['[data-testid=new-game]', '[data-testid=cancel-new-game]'],
  ]) {
    await page.locator(open).click();
    const before = await clock(page);
    await page.waitForTimeout(1500);
    assert.equal(await clock(page), before, `the clock ran behind ${open}`);
    await page.locator(close).click();
    await page.waitForTimeout(1200);
    assert.ok(secs(await clock(page)) < secs(before), `the clock goes on after ${close}`);
  }
  assert.match(await status(page), /O to move/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('lost on time: undo reviews without resuming, a reload and the home screen keep it finished', async () => {
  // A 4 s move clock (any length works from the stored settings): the
  // test need not wait out a real 15 s.
  const { page, errors, context } = await openWithClock('?game=ataxx', 4);
  // A length that is not one of the choices is shown as it is, in the
  // game's select and in the settings, not as the first choice.
  const selected = (selector) => page.locator(selector).evaluate((s) => s.options[s.selectedIndex].text);
  assert.equal(await selected('.clock-choice select'), '4 s');
  await page.locator('[data-testid=settings]').click();
  assert.equal(await selected('[data-testid=set-clock]'), '4 s');
  await page.locator('[data-testid=close-settings]').click();
  await move(page, 'a7', 'b6');
  await page.waitForFunction(() => /ran out of time/.test(document.querySelector('[data-testid=notice]').textContent),
    null, { timeout: 8000 });
  const result = await status(page);
  assert.match(result, /X wins/);
  await page.locator('[data-testid=result]').waitFor();
  assert.equal(await clock(page), 'game over', 'the clock shows the end, not a time');

  // Undo after the end steps back through the moves; the game stays over.
  // The board then shows an earlier position, and (issue 36) everything
  // on screen describes that position, under a line that says so.
  await page.locator('[data-testid=undo]').click();
  assert.equal(await page.locator('[data-square=b6] .piece').count(), 0, 'the board shows the start');
  assert.match(await page.locator('[data-testid=lookback-line]').textContent(), /Looking back at the start/);
  assert.equal(await status(page), 'X to move', 'the status of the position shown');
  assert.equal(await page.locator('[data-testid=pause]').isDisabled(), true);
  await move(page, 'a1', 'b2');
  assert.equal(await page.locator('[data-square=b2] .piece').count(), 0, 'no move after the end');
  const shown = await clock(page);
  await page.waitForTimeout(1200);
  assert.equal(await clock(page), shown, 'no clock after the end');
  await page.locator('[data-testid=redo]').click();
  assert.equal(await page.locator('[data-square=b6] .piece.px').count(), 1);
  assert.deepEqual(await page.locator('.movelist button.mv').allTextContents(), ['b6']);

  // A reload brings the finished game back finished, not paused (on a
  // phone, where the clock's words must fit on one line).
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await page.locator('[data-square=b6] .piece.px').waitFor();
  assert.equal(await status(page), result);
  assert.doesNotMatch(await page.locator('[data-testid=notice]').textContent(), /Welcome back/);
  assert.equal(await page.locator('.overlay:not(.result)').count(), 0, 'no pause overlay');
  assert.equal(await clock(page), 'game over', 'not 0:00 or 0:15 after a reload');
  const lines = await page.locator('[data-testid=clock]').evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  assert.equal(lines, 1, '"game over" on one line at 360 px');
  await page.locator('[data-testid=close-result]').click();
  await move(page, 'a1', 'b2');
  assert.equal(await page.locator('[data-square=b2] .piece').count(), 0);

  // The home screen lists it as finished, with a Review button.
  await page.locator('[data-testid=home]').click();
  const row = page.locator('[data-testid=recent-game]').first();
  await row.waitFor();
  assert.doesNotMatch(await row.textContent(), /in progress/);
  assert.match(await row.textContent(), /X wins|ran out of time|time/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Clock choice applies from the next move, against the computer too', async () => {
  const { page, errors, context } = await openWithClock('?game=ataxx&vs=beginner', 30);
  await page.waitForTimeout(2200);
  const before = secs(await clock(page));
  assert.ok(before <= 28, `the clock runs: ${before}`);
  await page.locator('.clock-choice select').selectOption('15');
  const after = secs(await clock(page));
  assert.ok(after <= before && after > 15, `the running move keeps its clock: ${before} -> ${after}`);
  assert.match(await page.locator('[data-testid=notice]').textContent(), /next move/);
  // Our move: the computer's turn has the new length.
  await move(page, 'a7', 'b6');
  assert.ok(secs(await clock(page)) <= 15, 'the next move has 15 s');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a game only opened is not added to Recent games; its first move adds it', async () => {
  const { page, errors, context } = await openWithClock('?game=ataxx', 30);
  // Opened, paused and resumed, Settings opened and closed, reloaded: no move.
  await page.locator('[data-testid=pause]').click();
  await page.locator('[data-testid=pause]').click();
  await page.locator('[data-testid=settings]').click();
  await page.locator('[data-testid=close-settings]').click();
  await page.reload();
  await page.locator('svg.board').waitFor();
  assert.match(await status(page), /X to move/, 'a game never kept is not resumed paused');
  await page.locator('[data-testid=home]').click();
  await page.locator('[data-testid=recent-heading]').waitFor();
  assert.equal(await page.locator('[data-testid=recent-game]').count(), 0);
  assert.match(await page.locator('.recent-games').textContent(), /Games you play are kept here/);

  // The same with a shared link's position: opening it is not playing.
  await page.goto(app.server.url + '?game=ataxx&moves=b6.b2');
  await page.locator('[data-square=b2] .piece.po').waitFor();
  await page.locator('[data-testid=home]').click();
  await page.locator('[data-testid=recent-heading]').waitFor();
  assert.equal(await page.locator('[data-testid=recent-game]').count(), 0);

  // One move, and it is there.
  await page.locator('[data-testid=play-ataxx]').click();
  await move(page, 'a7', 'b6');
  await page.locator('[data-testid=home]').click();
  const row = page.locator('[data-testid=recent-game]');
  await row.first().waitFor();
  assert.equal(await row.count(), 1);
  assert.match(await row.textContent(), /Territory Duel · two players · 1 move(?!s).*in progress/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Rematch is another game: the finished one stays in Recent games', async () => {
  const { page, errors, context } = await openWithClock('?game=ataxx', 2);
  await move(page, 'a7', 'b6');
  await page.locator('[data-testid=result]').waitFor({ timeout: 6000 });
  // The Clock choice after the end is for the next game.
  await page.locator('.clock-choice select').selectOption('60');
  await page.locator('[data-testid=rematch]').click();
  assert.match(await status(page), /X to move/);
  assert.match(await clock(page), /^(1:00|0:59)$/);
  await move(page, 'a7', 'b6');
  await page.locator('[data-testid=home]').click();
  const rows = page.locator('[data-testid=recent-game]');
  await rows.first().waitFor();
  const texts = await rows.allTextContents();
  assert.equal(texts.length, 2, texts.join(' | '));
  assert.match(texts[0], /1 move(?!s).*in progress/, 'the rematch, newest first');
  assert.match(texts[1], /O ran out of time — X wins\./, 'the finished game is still there');
  assert.deepEqual(errors, []);
  await context.close();
});
