// Not a test: screenshots of issue 37's page side through the real server
// at 1280x800, 360x740 and 740x360, light and dark: the name dialog (with
// a refusal), the name card with the recovery code, the lobby (open
// challenges, rated and casual, your own, and a live game), a rated game
// between two named players (names and ratings on the chips), the
// finished game in review and the player page with a chart of several
// rated games and the leaderboard.
// Usage (after `make dist server-bin`): node tests/e2e/community-screenshots.mjs OUTDIR
import fs from 'node:fs';
import { launch, startGameServer, move } from './harness.mjs';
import { playRated } from './rated-games.mjs';

const out = process.argv[2] ?? '/tmp/shots-ui37';
fs.mkdirSync(out, { recursive: true });
const server = await startGameServer(process.env.DIST ?? undefined, ['--rooms-per-address', '0', '--rate', '1000', '--burst', '1000']);
const browser = await launch();
const tid = (p, id) => p.locator(`[data-testid=${id}]`);
const sizes = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 }, landscape: { width: 740, height: 360 } };
const problems = [];
let n = 0;
try {
  for (const [size, viewport] of Object.entries(sizes)) {
    for (const theme of ['light', 'dark']) {
      const ctxs = [];
      const open = async (url) => {
        const ctx = await browser.newContext({ viewport, colorScheme: theme });
        ctxs.push(ctx);
        const page = await ctx.newPage();
        page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
        page.on('pageerror', (e) => problems.push(e.message));
        await page.goto(url);
        return page;
      };
      const shot = (p, name) => p.screenshot({ path: `${out}/${name}-${size}-${theme}.png`, fullPage: true });
      n += 1;
      const a = await open(`${server.url}?online`);
      await tid(a, 'name-form').waitFor();
      await tid(a, 'name-input').fill('X');
      await tid(a, 'name-save').click();
      await tid(a, 'identity-problem').waitFor();
      await shot(a, 'name-dialog');
      await tid(a, 'name-input').fill(`Ana ${n}`);
      await tid(a, 'name-save').click();
      await tid(a, 'my-name').waitFor();
      await tid(a, 'show-code').click();
      await a.waitForTimeout(300);
      await shot(a, 'name-card');
      await tid(a, 'show-code').click();

      // Eight rated games between two regulars (a chart of several
      // points), and a ninth left running: a live game in the lobby.
      const z = await open(server.url);
      const regulars = await playRated(z, { names: [`Sela ${n}`, `Rafe ${n}`], games: 8, live: true });
      const b = await open(`${server.url}?online`);
      await tid(b, 'name-input').fill(`Björn ${n}`);
      await tid(b, 'name-save').click();
      await tid(b, 'my-name').waitFor();
      const c = await open(`${server.url}?online`);
      await tid(c, 'name-input').fill(`Cleo ${n}`);
      await tid(c, 'name-save').click();
      await tid(c, 'my-name').waitFor();
      // Open challenges: Cleo's rated Mill, Björn's casual Territory Duel
      // and Ana's own.
      await tid(c, 'online-game-mill').check();
      await tid(c, 'online-rated').check();
      await tid(c, 'post-challenge').click();
      await tid(c, 'cancel-challenge').waitFor();
      await tid(b, 'online-game-ataxx').check();
      await tid(b, 'post-challenge').click();
      await tid(b, 'cancel-challenge').waitFor();
      await tid(a, 'online-game-stones').check();
      await tid(a, 'post-challenge').click();
      await tid(a, 'cancel-challenge').waitFor();
      await a.waitForFunction(() => document.querySelectorAll('[data-testid=challenge]').length === 3
        && document.querySelectorAll('[data-testid=live-game]').length >= 1);
      await tid(a, 'lobby').scrollIntoViewIfNeeded();
      await a.waitForTimeout(300);
      await shot(a, 'lobby');
      await tid(a, 'cancel-challenge').click();
      await tid(b, 'cancel-challenge').click();
      await tid(a, 'post-challenge').waitFor();
      await tid(b, 'post-challenge').waitFor();

      // A rated quick match between Ana and Björn.
      for (const p of [a, b]) {
        await tid(p, 'online-game-ataxx').check();
        await tid(p, 'online-rated').check();
      }
      await tid(a, 'quick-match').click();
      await tid(b, 'quick-match').click();
      for (const p of [a, b]) await p.locator('[data-square]').first().waitFor({ timeout: 15000 });
      const first = (await tid(a, 'score-first').textContent()).includes('you') ? a : b;
      const second = first === a ? b : a;
      for (const [p, f, t, k] of [[first, 'a7', 'b6', 1], [second, 'a1', 'b2', 2]]) {
        await move(p, f, t);
        await a.waitForFunction((k) => document.querySelectorAll('.movelist .mv').length === k, k);
        await b.waitForFunction((k) => document.querySelectorAll('.movelist .mv').length === k, k);
      }
      await a.waitForTimeout(300);
      await shot(a, 'rated-game');
      await tid(first, 'resign').click();
      await tid(first, 'resign-yes').click();
      await tid(second, 'result').waitFor();
      await second.waitForFunction(() => /→/.test(document.querySelector('[data-testid=score-first]')?.textContent ?? ''));
      await second.waitForTimeout(300);
      await shot(second, 'finished-card');
      await tid(second, 'online-review').click();
      await tid(second, 'close-result').click();
      await tid(second, 'analyse').click();
      await second.waitForFunction(() => !document.querySelector('[data-testid=analyse]').disabled, null, { timeout: 30000 });
      await second.waitForTimeout(300);
      await shot(second, 'finished-review');

      // A regular's page: the chart of the eight games, the leaderboard.
      const d = await open(`${server.url}?player=${regulars.ids[0]}`);
      await tid(d, 'player-page').waitFor();
      await d.locator('[data-testid=chart-ataxx]').waitFor();
      await d.waitForTimeout(1000);
      await shot(d, 'player-page');

      // Ana's page after her one rated game.
      const id = (await a.evaluate(() => JSON.parse(localStorage.getItem('stoneplay.identity'))))[0].id;
      const e = await open(`${server.url}?player=${id}`);
      await tid(e, 'player-page').waitFor();
      await e.waitForTimeout(1500);
      await shot(e, 'player-page-one-game');
      for (const ctx of ctxs) await ctx.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`screenshots in ${out}`);
