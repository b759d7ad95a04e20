// End to end: the game screen fits the screen, phone first. At 360×740,
// 740×360 and 1280×800, in English and Turkish, for every game and mode,
// the whole board, whose turn it is, both players' chips and the clock are
// inside the viewport together, without scrolling (measured with bounding
// boxes). Against the computer your side is at the bottom.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp } from './harness.mjs';

const app = useApp();

const SIZES = [
  { width: 360, height: 740 },
  { width: 740, height: 360 },
  { width: 1280, height: 800 },
];
const GAMES = ['ataxx', 'stones', 'mill'];
const MODES = { 'two players': '', computer: '&vs=casual', 'computer, you second': '&vs=casual&you=second' };
const PARTS = {
  board: 'svg.board',
  turn: '[data-testid=status]',
  'first chip': '[data-testid=score-first]',
  'second chip': '[data-testid=score-second]',
  clock: '.clock',
};

/** The parts of the game screen that are not wholly on screen, one line each. */
async function offScreen(page, viewport) {
  const problems = [];
  for (const [name, selector] of Object.entries(PARTS)) {
    const box = await page.locator(selector).first().boundingBox();
    if (!box) {
      problems.push(`${name}: not shown`);
      continue;
    }
    const inside = box.x >= -0.5 && box.y >= -0.5 &&
      box.x + box.width <= viewport.width + 0.5 && box.y + box.height <= viewport.height + 0.5;
    if (!inside) problems.push(`${name}: ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)}`);
  }
  return problems;
}

for (const [lang, locale] of [['en', 'en-US'], ['tr', 'tr-TR']]) {
  test(`${lang}: board, turn, chips and clock on screen together, every game, mode and size`, async () => {
    const problems = [];
    for (const viewport of SIZES) {
      const context = await app.browser.newContext({ viewport, locale });
      const errors = [];
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(e.message));
      for (const game of GAMES) {
        for (const [mode, extra] of Object.entries(MODES)) {
          await page.goto(`${app.server.url}?game=${game}${extra}`);
          await page.locator('svg.board').waitFor();
          await page.waitForTimeout(150);
          const where = `${viewport.width}×${viewport.height} ${game}, ${mode}`;
          assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
          assert.deepEqual(await page.evaluate(() => [window.scrollX, window.scrollY]), [0, 0]);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (overflow > 0) problems.push(`${where}: ${overflow}px wider than the screen`);
          for (const p of await offScreen(page, viewport)) problems.push(`${where}: ${p}`);
          // The header is one row: nothing in it is below its first item.
          const rows = await page.evaluate(() => {
            const items = [...document.querySelectorAll('.topbar > *')].filter((e) => e.offsetParent !== null);
            const tops = items.map((e) => e.getBoundingClientRect()).map((r) => r.top + r.height / 2);
            return Math.max(...tops) - Math.min(...tops);
          });
          if (rows > 12) problems.push(`${where}: the header is not one row (${rows}px)`);
        }
      }
      assert.deepEqual(errors, []);
      await context.close();
    }
    assert.deepEqual(problems, []);
  });
}

test('no setup above the board: Mode, Level, You play and Rules are in the New game dialog', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=mill&vs=casual`, { width: 360, height: 740 });
  await page.locator('svg.board').waitFor();
  const board = await page.locator('svg.board').boundingBox();
  for (const id of ['mode', 'level', 'side', 'mill-preset']) {
    assert.equal(await page.locator(`[data-testid=${id}]`).isVisible(), false, `${id} is not on the game screen`);
  }
  assert.ok(board.y < 160, `the board starts at ${board.y}`);
  await page.locator('[data-testid=new-game]').click();
  await page.locator('[data-testid=new-game-dialog]').waitFor();
  for (const id of ['mode', 'level', 'side', 'mill-preset', 'start-game']) {
    assert.equal(await page.locator(`[data-testid=${id}]`).isVisible(), true, `${id} is in the dialog`);
  }
  assert.equal(await page.locator('[data-testid=mode]').inputValue(), 'computer');
  assert.equal(await page.locator('[data-testid=level]').inputValue(), 'casual');
  // Start: playing Black against the computer.
  await page.locator('[data-testid=side]').selectOption('second');
  await page.locator('[data-testid=start-game]').click();
  await page.waitForFunction(() => /you=second/.test(location.search));
  assert.equal(await page.locator('[data-testid=new-game-dialog]').isVisible(), false);
  assert.deepEqual(errors, []);
  await context.close();
});

/** The mean height of the centres of `selector`'s elements, from 0 (top) to 1 (bottom) of the board. */
const meanY = (page, selector) => page.evaluate((selector) => {
  const board = document.querySelector('svg.board').getBoundingClientRect();
  const ys = [...document.querySelectorAll(selector)].map((e) => e.getBoundingClientRect()).map((r) => r.top + r.height / 2);
  return (ys.reduce((a, b) => a + b, 0) / ys.length - board.top) / board.height;
}, selector);

test('against the computer your side is at the bottom; turning the board round still turns it', async () => {
  const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=stones&vs=casual&you=second`, { width: 360, height: 740 });
  await page.locator('svg.board').waitFor();
  assert.ok(await meanY(page, '.piece.pb') > 0.5, 'your (Black) stones start at the bottom');
  assert.ok(await meanY(page, '.piece.pw') < 0.5);
  // The three boxes in one look: the computer moves meanwhile, and a
  // layout read in three steps could mix two moments.
  const { board, mine, theirs } = await page.evaluate(() => {
    const box = (selector) => {
      const r = document.querySelector(selector).getBoundingClientRect();
      return { y: r.top, height: r.height };
    };
    return { board: box('svg.board'), mine: box('[data-testid=score-second]'), theirs: box('[data-testid=score-first]') };
  });
  assert.ok(mine.y > board.y + board.height - 1, `your chip is under the board (${JSON.stringify({ board, mine })})`);
  assert.ok(theirs.y + theirs.height < board.y + 1, `the computer's chip is above it (${JSON.stringify({ board, theirs })})`);
  // Playing first, White is at the bottom.
  await page.goto(`${app.server.url}?game=stones&vs=casual`);
  await page.locator('svg.board').waitFor();
  assert.ok(await meanY(page, '.piece.pw') > 0.5);
  // The setting turns the board round.
  await page.locator('[data-testid=settings]').click();
  await page.locator('[data-testid=set-flip]').check();
  await page.locator('[data-testid=close-settings]').click();
  await page.goto(`${app.server.url}?game=stones&vs=casual&you=second`);
  await page.locator('svg.board').waitFor();
  assert.ok(await meanY(page, '.piece.pb') < 0.5, 'turned round: yours at the top');
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone the board stays put as the turn passes (the chips keep their height)', async () => {
  for (const game of ['stones', 'mill', 'ataxx']) {
    const { page, errors, context } = await openPage(app.browser, `${app.server.url}?game=${game}&vs=casual&you=second`, { width: 360, height: 740 });
    await page.locator('svg.board').waitFor();
    // The board's top with "to move" on the computer's chip and without it:
    // the text is set here rather than waited for, as the computer moves at
    // once (a long label such as Mill's "computer · 8 in hand · 0 lost"
    // once wrapped it onto a second line).
    const tops = await page.evaluate(() => {
      const turn = document.querySelector('[data-testid=score-first] .chip-turn');
      const top = () => document.querySelector('svg.board').getBoundingClientRect().top;
      const was = turn.textContent;
      turn.textContent = 'to move';
      const on = top();
      turn.textContent = '';
      const off = top();
      turn.textContent = was;
      return { on, off };
    });
    assert.equal(tops.on, tops.off, `${game}: the board moves as the turn passes (${JSON.stringify(tops)})`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the settings panel at 360×740: no row runs over the next, and the clock select shows its value', async () => {
  const { page, errors, context } = await openPage(app.browser, app.server.url, { width: 360, height: 740 });
  await page.locator('[data-testid=settings]').click();
  const panel = page.locator('[data-testid=settings-panel]');
  await panel.waitFor();
  // Every row of the panel, top to bottom: each starts at or below the end
  // of what the row before draws (its own box or anything inside it).
  // The footer with Done stays in view at the panel's bottom (issue 36:
  // sticky, over the rows that scroll under it), so it is not a row.
  const footer = await page.locator('.settings-footer').boundingBox();
  assert.ok(footer && footer.y + footer.height <= 740 + 0.5, `Done ends at ${footer && footer.y + footer.height}, below the screen`);
  const rows = await panel.evaluate((p) => [...p.children].filter((c) => !c.classList.contains('settings-footer')).map((c) => {
    const drawn = [c, ...c.querySelectorAll('*')].map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0);
    return {
      what: c.tagName + (c.dataset.testid ? `[${c.dataset.testid}]` : '') + (c.className ? `.${c.className}` : ''),
      top: c.getBoundingClientRect().top,
      bottom: Math.max(...drawn.map((r) => r.bottom)),
    };
  }));
  for (let i = 1; i < rows.length; i++) {
    assert.ok(rows[i].top >= rows[i - 1].bottom - 0.5, `${rows[i].what} starts at ${rows[i].top}, above the end of ${rows[i - 1].what} at ${rows[i - 1].bottom}`);
  }
  // The select is wide enough for its text and its arrow.
  const [needed, width] = await page.locator('[data-testid=set-clock]').evaluate((s) => {
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(s).font;
    probe.style.whiteSpace = 'pre';
    probe.textContent = s.options[s.selectedIndex].text;
    document.body.append(probe);
    const w = probe.getBoundingClientRect().width;
    probe.remove();
    const cs = getComputedStyle(s);
    return [w + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + 16, s.getBoundingClientRect().width];
  });
  assert.ok(width >= needed, `the clock select is ${width} px wide, its text needs ${needed}`);
  assert.deepEqual(errors, []);
  await context.close();
});
