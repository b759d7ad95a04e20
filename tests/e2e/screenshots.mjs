// Not a test: takes screenshots of the release build at desktop and phone
// sizes for a person to look at. Usage: node tests/e2e/screenshots.mjs OUTDIR
import path from 'node:path';
import { serve, launch, openPage } from './harness.mjs';

const out = process.argv[2] ?? '/tmp/stoneplay-shots';
const server = await serve();
const browser = await launch();
const sizes = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } };
for (const [name, viewport] of Object.entries(sizes)) {
  for (const scheme of ['light', 'dark']) {
    const { page, errors, context } = await openPage(browser, server.url, viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await page.locator('[data-square]').first().waitFor();
    // A few moves and a selection so targets, last move and flips show.
    for (const sq of ['a7', 'b6', 'a1', 'b2', 'b6', 'c6', 'g7', 'f6', 'c6']) {
      await page.locator(`[data-square=${sq}] rect`).click();
    }
    await page.waitForTimeout(600);
    const file = path.join(out, `${name}-${scheme}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(file, errors.length ? errors : 'no errors');
    await context.close();
  }
}
await browser.close();
await server.close();
