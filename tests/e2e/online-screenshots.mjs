// Not a test: screenshots of online play through the real server (two
// pages as two devices) at desktop and phone sizes, light and dark: setup,
// waiting with the invite, a game on both sides, paused, a draw offer, the
// resign confirmation and the finished game with a rematch asked.
// Usage (after `make dist server-bin`): node tests/e2e/online-screenshots.mjs OUTDIR
import { launch, startGameServer, clickSq } from './harness.mjs';

const out = process.argv[2] ?? '/tmp/stoneplay-shots';
const server = await startGameServer();
const browser = await launch();
const tid = (p, id) => p.locator(`[data-testid=${id}]`);
const sizes = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } };
const problems = [];
try {
  for (const [size, viewport] of Object.entries(sizes)) {
    for (const theme of ['light', 'dark']) {
      const open = async (url) => {
        const ctx = await browser.newContext({ viewport, colorScheme: theme });
        const page = await ctx.newPage();
        page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
        page.on('pageerror', (e) => problems.push(e.message));
        await page.goto(url);
        return { page, ctx };
      };
      const shot = (p, name) => p.page.screenshot({ path: `${out}/online-${name}-${size}-${theme}.png`, fullPage: true });
      const a = await open(`${server.url}?online`);
      await tid(a.page, 'online-game-mill').check();
      await shot(a, 'setup');
      await tid(a.page, 'online-game-ataxx').check();
      await tid(a.page, 'online-side').selectOption('first');
      await tid(a.page, 'create-game').click();
      await a.page.waitForFunction(() => document.querySelector('[data-testid=invite-link]')?.value.includes('key='));
      await shot(a, 'waiting');
      const b = await open(await tid(a.page, 'invite-link').inputValue());
      await b.page.locator('[data-square]').first().waitFor();
      await a.page.locator('[data-square]').first().waitFor();
      await clickSq(a.page, 'a7');
      await clickSq(a.page, 'b6');
      await b.page.locator('[data-square=b6] .piece').waitFor();
      await clickSq(b.page, 'a1');
      await clickSq(b.page, 'b2');
      await a.page.locator('[data-square=b2] .piece').waitFor();
      await shot(a, 'game-first');
      await shot(b, 'game-second');
      await tid(a.page, 'online-pause').click();
      await tid(b.page, 'paused').waitFor();
      await shot(b, 'paused');
      await tid(a.page, 'resume').click();
      await tid(b.page, 'paused').waitFor({ state: 'detached' });
      await tid(b.page, 'offer-draw').click();
      await tid(a.page, 'draw-offer').waitFor();
      await shot(a, 'draw-offer');
      await tid(a.page, 'decline-draw').click();
      await tid(a.page, 'resign').click();
      await shot(a, 'resign-confirm');
      await tid(a.page, 'resign-yes').click();
      await tid(b.page, 'result').waitFor();
      await tid(a.page, 'online-rematch').click();
      await b.page.waitForFunction(() => /Accept rematch/.test(document.querySelector('[data-testid=online-rematch]')?.textContent));
      await b.page.waitForTimeout(300);
      await shot(b, 'over');
      await a.ctx.close();
      await b.ctx.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(`online screenshots in ${out}${problems.length ? `; page errors: ${problems.join('; ')}` : ''}`);
