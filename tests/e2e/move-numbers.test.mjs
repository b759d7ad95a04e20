// End to end (issue 36, point 1): "move" means one thing everywhere, the
// move list's numbered moves ("10. f5-d7 f8-c5"; "move 10, Black's f8-c5").
// Each test reads what the page shows and checks it against the list's own
// rows: the review's marked moves, the look-back line, the graph's move
// axis, Recent games, the hint, import and export. Territory Duel with a
// pass, Stones!, and Mill with a removal (part of its move, not a move).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp } from './harness.mjs';

const app = useApp();
const notice = (page) => page.locator('[data-testid=notice]').textContent();
const line = (page) => page.locator('[data-testid=lookback-line]').textContent();

/** The move list as the page shows it: [{ number, cells: [first, second] }]. */
async function listRows(page) {
  return page.evaluate(() => [...document.querySelectorAll('.movelist li')].map((li) => ({
    number: Number(li.getAttribute('value')),
    cells: [...li.querySelectorAll('.mv')].map((c) => c.textContent),
  })));
}

/** Which row and side (0 first, 1 second) of `rows` show `text`; a test game has each text once. */
function find(rows, text) {
  const hits = rows.flatMap((r) => r.cells.map((c, i) => (c === text ? [r.number, i] : null)).filter(Boolean));
  assert.equal(hits.length, 1, `${text} is in the list once: ${JSON.stringify(rows)}`);
  return hits[0];
}

/** Clicks every cell of the list in turn and checks the look-back line names it as the list does. */
async function lookBackNamesEveryCell(page, sides) {
  const rows = await listRows(page);
  const total = rows.at(-1).number;
  const buttons = page.locator('.movelist button.mv');
  const n = await buttons.count();
  // The last cell is the live game (no look-back line); every other one is named.
  for (let k = 0; k < n - 1; k++) {
    const text = await buttons.nth(k).textContent();
    await buttons.nth(k).click();
    const [number, side] = find(rows, text);
    assert.equal(await line(page), `Looking back at move ${number} of ${total}, ${sides[side]}’s ${text}`);
  }
}

test('Territory Duel: the review names a mistake and a pass as the list numbers them', async () => {
  // X clones far away (a6); O could take g1 but clones to e2; X's f1 takes
  // both O pieces. O's e2 is the list's "1. a6 e2": move 1, O's, not move 2.
  const pos = encodeURIComponent('x6/7/7/7/7/5o1/6x x 0 1');
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=ataxx&pos=${pos}&moves=a6.e2.f1`);
  await page.locator('[data-testid=result]').waitFor();
  await page.locator('[data-testid=close-result]').click();
  const rows = await listRows(page);
  assert.deepEqual(rows, [{ number: 1, cells: ['a6', 'e2'] }, { number: 2, cells: ['f1'] }]);
  await page.locator('[data-testid=analyse]').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=analyse]').disabled, null, { timeout: 20000 });
  const mistakes = await page.locator('[data-testid=mistake]').allTextContents();
  assert.ok(mistakes.some((m) => m.startsWith('move 1, O’s e2 ')), `O's e2 is marked as move 1: ${mistakes}`);
  for (const m of mistakes) {
    const [, n, side, mv] = /^move (\d+), (X|O)’s (\S+) \(/.exec(m) ?? [];
    assert.ok(n, `"${m}" names a move as the list does`);
    assert.deepEqual(find(rows, mv), [Number(n), side === 'X' ? 0 : 1], `${m} against the list`);
  }
  // The better move's line numbers it the same way.
  await page.locator('[data-testid=mistake]', { hasText: 'O’s e2' }).click();
  assert.match(await page.locator('[data-testid=review-better]').textContent(), /^Before move 1 the computer/);
  assert.equal(await line(page), 'Looking back at move 1 of 2, X’s a6');
  assert.deepEqual(errors, []);
  await context.close();

  // A pass is a move of its side: X is walled in and passes, O clones.
  const walled = encodeURIComponent('7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1');
  const p2 = await openPage(app.browser, `${app.server.url}?game=ataxx&pos=${walled}&moves=0000.a4.0000.b4`);
  await p2.page.locator('[data-square=b4] .piece').waitFor();
  // X, still walled in, passes again at once: move 3, X's pass.
  await p2.page.locator('.movelist li[value="3"]').waitFor();
  assert.deepEqual(await listRows(p2.page), [
    { number: 1, cells: ['pass', 'a4'] }, { number: 2, cells: ['pass', 'b4'] }, { number: 3, cells: ['pass'] },
  ]);
  await p2.page.locator('.movelist button.mv').nth(2).click();
  assert.equal(await line(p2.page), 'Looking back at move 2 of 3, X’s pass');
  await p2.page.locator('.movelist button.mv').nth(1).click();
  assert.equal(await line(p2.page), 'Looking back at move 1 of 3, O’s a4');
  assert.deepEqual(p2.errors, []);
  await p2.context.close();
});

test('Stones!: the look-back line, the graph axis and Recent games count the list’s moves', async () => {
  // 14 actions, 7 numbered moves: each side's one stone runs its diagonal.
  const white = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7', 'h8'];
  const black = ['a8', 'b7', 'c6', 'd5', 'e4', 'f3', 'g2', 'h1'];
  const moves = white.slice(1).flatMap((to, i) => [`${white[i]}-${to}`, `${black[i]}-${black[i + 1]}`]);
  const { page, errors, context } = await openPage(app.browser,
    `${app.server.url}?game=stones&pos=${encodeURIComponent('W:a1 B:a8 w')}&moves=${moves.slice(0, 13).join('.')}`);
  await page.locator('[data-square=h8] .piece').waitFor();
  await lookBackNamesEveryCell(page, ['White', 'Black']);
  // ◀ from the live game steps one side's move back: Black's part of move 6.
  await page.locator('[data-testid=live]').click();
  await page.locator('[data-testid=prev]').click();
  assert.equal(await line(page), 'Looking back at move 6 of 7, Black’s f3-g2');
  // Black plays the last move here (g2-h1), so the game is kept.
  await page.locator('[data-testid=lookback-live]').click();
  await page.locator('[data-square=g2] rect').click();
  await page.locator('[data-square=h1] rect').click();
  await page.locator('[data-testid=result]').waitFor();
  await page.locator('[data-testid=close-result]').click();
  const rows = await listRows(page);
  assert.equal(rows.length, 7);
  assert.deepEqual(rows.at(-1), { number: 7, cells: ['g7-h8', 'g2-h1'] });

  // The graph's move axis: the list's move numbers (2, 4, 6 of 7).
  await page.locator('[data-testid=analyse]').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=analyse]').disabled, null, { timeout: 20000 });
  assert.deepEqual(await page.locator('[data-testid=review-x] span').allTextContents(), ['2', '4', '6']);
  // Any marked move is named as the list names it.
  for (const m of await page.locator('[data-testid=mistake]').allTextContents()) {
    const [, n, side, mv] = /^move (\d+), (White|Black)’s (\S+) \(/.exec(m) ?? [];
    assert.ok(n, `"${m}" names a move as the list does`);
    assert.deepEqual(find(rows, mv), [Number(n), side === 'White' ? 0 : 1], m);
  }

  // Recent games: 7 moves, as many as the list's rows (not 14).
  await page.locator('[data-testid=home]').click();
  await page.locator('[data-testid=recent-game]').first().waitFor();
  assert.match(await page.locator('[data-testid=recent-game]').first().textContent(), /Stones! · two players · 7 moves/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Mill: a removal is part of its move in the list, the look-back line, hints, import, export and Recent games', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=mill`);
  await page.locator('.game-text summary').click();
  const text = page.locator('[data-testid=game-text]');
  // White closes a mill on move 3 and removes a1: six actions, three moves.
  await text.fill('1. a7 a1 2. d7 d1 3. g7xa1');
  await page.locator('[data-testid=import]').click();
  assert.match(await notice(page), /^Game imported: 3 moves\./);
  assert.deepEqual(await listRows(page), [
    { number: 1, cells: ['a7', 'a1'] }, { number: 2, cells: ['d7', 'd1'] }, { number: 3, cells: ['g7xa1'] },
  ]);
  // The export writes the same numbers.
  assert.match(await text.inputValue(), /\n1\. a7 a1 2\. d7 d1 3\. g7xa1\n/);
  await lookBackNamesEveryCell(page, ['White', 'Black']);
  // ◀ from the live game steps over the whole move, removal included.
  await page.locator('[data-testid=live]').click();
  await page.locator('[data-testid=prev]').click();
  assert.equal(await line(page), 'Looking back at move 2 of 3, Black’s d1');
  await page.locator('[data-testid=next]').click();
  assert.equal(await page.locator('[data-testid=lookback]').count(), 0, 'the next step is the live game');
  // A hint is for Black's part of move 3.
  await page.locator('[data-testid=hint]').click();
  await page.waitForFunction(() => /^Hint for move 3: /.test(document.querySelector('[data-testid=notice]').textContent), null, { timeout: 20000 });
  // Recent games: 3 moves (the list's rows), not 6.
  await page.locator('[data-testid=home]').click();
  await page.locator('[data-testid=recent-game]').first().waitFor();
  assert.match(await page.locator('[data-testid=recent-game]').first().textContent(), /Mill · two players · 3 moves/);
  assert.deepEqual(errors, []);
  await context.close();
});
