// Not a test: screenshots of the release build at desktop and phone sizes,
// light and dark, one per game, for a person to look at.
// Usage (after `make dist`): node tests/e2e/screenshots.mjs OUTDIR
import path from 'node:path';
import { serve, launch, openPage } from './harness.mjs';

const out = process.argv[2] ?? '/tmp/stoneplay-shots';
const server = await serve();
const browser = await launch();
const sizes = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 360, height: 740 },
  landscape: { width: 740, height: 360 },
};
// A few moves and a selection per game, so targets, last move and effects show.
const games = {
  ataxx: { query: '?game=ataxx&moves=b6.b2.c6.f6', clicks: ['[data-square=c6] rect'] },
  stones: { query: '?game=stones&moves=a1-c3.h8-e5.c3xe5-f6.g8-h7', clicks: ['[data-square=b1] rect'] },
  mill: { query: '?game=mill&moves=a7.b6.d7.d6.g7', clicks: [] },
  'stones-vs-computer': { query: '?game=stones&vs=casual&you=second', clicks: [] },
  'new-game-dialog': { query: '?game=mill&vs=casual', clicks: ['[data-testid=new-game]'] },
};
for (const [name, viewport] of Object.entries(sizes)) {
  for (const scheme of ['light', 'dark']) {
    for (const [game, { query, clicks }] of Object.entries(games)) {
      const { page, errors, context } = await openPage(browser, server.url + query, viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.locator('svg.board').waitFor();
      for (const c of clicks) await page.locator(c).click();
      await page.waitForTimeout(600);
      const file = path.join(out, `${game}-${name}-${scheme}.png`);
      // The first screen as the player sees it, then the whole page.
      await page.screenshot({ path: file });
      await page.screenshot({ path: file.replace(/\.png$/, '-full.png'), fullPage: true });
      console.log(file, errors.length ? errors : 'no errors');
      await context.close();
    }
  }
}
await browser.close();
await server.close();
