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
  assert.equal(await page.locator('[data-testid=mode]').inputValue(), 'computer');
  assert.match(page.url(), /nomove=lose/, 'single player uses the lose rule');
  await clickSq(page, 'a7');
  await clickSq(page, 'b6');
  // The computer (O) is thinking: the indicator shows and the clock ticks.
  await page.locator('[data-testid=thinking]').waitFor({ timeout: 2000 });
  const t0 = await page.locator('[data-testid=clock]').textContent();
  // The page stays responsive: the board is disabled for us, but a button reacts.
  const started = Date.now();
  await page.locator('.movelist').click();
  assert.ok(Date.now() - started < 1000, 'the page reacts while the computer thinks');
  await page.waitForTimeout(1200);
  const t1 = await page.locator('[data-testid=clock]').textContent();
  const answered = (await moves(page)).length === 2;
  assert.ok(answered || t0 !== t1, `clock ${t0} -> ${t1} while thinking`);
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
  await page.locator('[data-testid=hint]').click();
  await page.waitForFunction(() => /Hint: /.test(document.querySelector('[data-testid=notice]').textContent), null, { timeout: 5000 });
  await page.locator('[data-point=d6] rect').click();
  await page.waitForFunction(() => document.querySelectorAll('.mill-board .piece.pb:not(.hand)').length === 1, null, { timeout: 8000 });
  assert.match(await status(page), /White: place a piece \(8 in hand\)/);
  // Ask the computer to move, then start a new game at once: the stale
  // answer is dropped and the new game starts clean.
  await page.locator('[data-point=f4] rect').click();
  await page.locator('[data-testid=new-game]').click();
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('.mill-board .piece:not(.hand)').count(), 0);
  assert.match(await status(page), /White: place a piece \(9 in hand\)/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('playing Black: the computer opens as White', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=stones&vs=casual&you=second`);
  await page.waitForFunction(() => document.querySelectorAll('.movelist .mv').length >= 1, null, { timeout: 8000 });
  assert.match(await status(page), /Black to move/);
  assert.equal(await page.locator('[data-testid=side]').inputValue(), 'second');
  assert.deepEqual(errors, []);
  await context.close();
});
