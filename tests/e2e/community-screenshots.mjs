// Not a test: screenshots of issue 37's page side through the real server
// at 1280x800, 360x740 and 740x360, light and dark: the name dialog (with
// a refusal), the name card with the recovery code, the lobby, a game
// between two named players (names and ratings on the chips), the
// finished game in review and the player page with its chart and the
// leaderboard (as far as the server serves them).
// Usage (after `make dist server-bin`): node tests/e2e/community-screenshots.mjs OUTDIR
import fs from 'node:fs';
import { launch, startGameServer, move } from './harness.mjs';

const out = process.argv[2] ?? '/tmp/shots-ui37';
fs.mkdirSync(out, { recursive: true });
const server = await startGameServer(process.env.DIST ?? undefined, ['--rooms-per-address', '0']);
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
      await tid(a, 'lobby').scrollIntoViewIfNeeded();
      await shot(a, 'lobby');

      const b = await open(`${server.url}?online`);
      await tid(b, 'name-input').fill(`Björn ${n}`);
      await tid(b, 'name-save').click();
      await tid(b, 'my-name').waitFor();
      // A game between the two (an invite: casual unless chosen).
      await tid(a, 'online-game-ataxx').check();
      await tid(a, 'online-side').selectOption('first');
      await tid(a, 'create-game').click();
      await a.waitForFunction(() => document.querySelector('[data-testid=invite-link]')?.value.includes('key='));
      await b.goto(await tid(a, 'invite-link').inputValue());
      await b.locator('[data-square]').first().waitFor();
      await a.locator('[data-square]').first().waitFor();
      for (const [p, f, t, k] of [[a, 'a7', 'b6', 1], [b, 'a1', 'b2', 2]]) {
        await move(p, f, t);
        await a.waitForFunction((k) => document.querySelectorAll('.movelist .mv').length === k, k);
        await b.waitForFunction((k) => document.querySelectorAll('.movelist .mv').length === k, k);
      }
      await a.waitForTimeout(300);
      await shot(a, 'named-game');
      await tid(a, 'resign').click();
      await tid(a, 'resign-yes').click();
      await tid(b, 'result').waitFor();
      await b.waitForTimeout(300);
      await shot(b, 'finished-card');
      await tid(b, 'online-review').click();
      await tid(b, 'close-result').click();
      await tid(b, 'analyse').click();
      await b.waitForFunction(() => !document.querySelector('[data-testid=analyse]').disabled, null, { timeout: 30000 });
      await b.waitForTimeout(300);
      await shot(b, 'finished-review');

      const id = (await a.evaluate(() => JSON.parse(localStorage.getItem('stoneplay.identity'))))[0].id;
      const c = await open(`${server.url}?player=${id}`);
      await tid(c, 'player-page').waitFor();
      await c.waitForTimeout(1500);
      await shot(c, 'player-page');
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
