// Not a test: screenshots of a finished online game (issue 37, point 1)
// through the real server at 1280x800, 360x740 and 740x360, light and
// dark: the result card, stepping back, the review with its graph,
// Recent games and the permanent (spectator) link opened by a third page.
// Usage (after `make dist server-bin`): node tests/e2e/finished-screenshots.mjs OUTDIR
import { launch, startGameServer, move } from './harness.mjs';

const out = process.argv[2] ?? '/tmp/finished37-shots';
const server = await startGameServer();
const browser = await launch();
const tid = (p, id) => p.locator(`[data-testid=${id}]`);
const sizes = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 }, landscape: { width: 740, height: 360 } };
const problems = [];
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
      const a = await open(`${server.url}?online`);
      await tid(a, 'online-game-ataxx').check();
      await tid(a, 'online-side').selectOption('first');
      await tid(a, 'create-game').click();
      await a.waitForFunction(() => document.querySelector('[data-testid=invite-link]')?.value.includes('key='));
      const b = await open(await tid(a, 'invite-link').inputValue());
      await b.locator('[data-square]').first().waitFor();
      await a.locator('[data-square]').first().waitFor();
      for (const [p, f, t, n] of [[a, 'a7', 'b6', 1], [b, 'a1', 'b2', 2], [a, 'a7', 'a5', 3], [b, 'b2', 'a3', 4]]) {
        await move(p, f, t);
        await a.waitForFunction((n) => document.querySelectorAll('.movelist .mv').length === n, n);
        await b.waitForFunction((n) => document.querySelectorAll('.movelist .mv').length === n, n);
      }
      await tid(a, 'resign').click();
      await tid(a, 'resign-yes').click();
      await tid(b, 'result').waitFor();
      await b.waitForTimeout(300);
      await shot(b, 'online-over-card');
      await tid(b, 'look-at-board').click();
      await tid(b, 'prev').click();
      await b.waitForTimeout(300);
      await shot(b, 'online-over-stepping');
      await tid(b, 'online-review').click();
      await tid(b, 'close-result').click();
      await tid(b, 'analyse').click();
      await b.waitForFunction(() => !document.querySelector('[data-testid=analyse]').disabled, null, { timeout: 30000 });
      await b.waitForTimeout(300);
      await shot(b, 'online-review');
      await b.goto(server.url);
      await tid(b, 'recent-game').first().waitFor();
      await shot(b, 'recent-games');
      const link = await tid(a, 'finished-link').inputValue();
      const c = await open(link);
      await tid(c, 'result').waitFor();
      await tid(c, 'look-at-board').click();
      await c.waitForTimeout(300);
      await shot(c, 'watch-finished');
      for (const x of ctxs) await x.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(problems.length ? `problems: ${problems.join('\n')}` : 'no page errors');
