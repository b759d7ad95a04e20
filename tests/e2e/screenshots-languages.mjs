// Not a test: screenshots of the home screen, a game, a rules page and the
// settings panel in each language asked for (default: English and
// Marathi), desktop and phone, for a person to look at. A Devanagari
// sample line is added to the page (not part of the app) so the bundled
// font shows even while a table is still an English copy.
// Usage (after `make dist`): node tests/e2e/screenshots-languages.mjs OUTDIR [en mr …]
import path from 'node:path';
import { serve, launch, openPage } from './harness.mjs';

const out = process.argv[2] ?? '/tmp/stoneplay-shots';
const langs = process.argv.length > 3 ? process.argv.slice(3) : ['en', 'mr'];
const server = await serve();
const browser = await launch();
const sizes = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } };
const screens = {
  home: { query: '', ready: '[data-testid=card-ataxx]' },
  game: { query: '?game=mill&moves=a7.b6.d7.d6.g7', ready: '[data-point=d6]' },
  rules: { query: '?rules=ataxx', ready: '[data-testid=rules-page]' },
  settings: { query: '', ready: '[data-testid=card-ataxx]', open: '[data-testid=settings]' },
};
const SAMPLE = 'देवनागरी नमुना: खेळ सुरू करा, नियम वाचा, चाल बदला — ०१२३४५६७८९';
for (const lang of langs) {
  for (const [size, viewport] of Object.entries(sizes)) {
    for (const [name, { query, ready, open }] of Object.entries(screens)) {
      const { page, errors, context } = await openPage(browser, server.url + query, viewport);
      await page.evaluate((l) => localStorage.setItem('stoneplay.settings', JSON.stringify({ lang: l })), lang);
      await page.reload();
      await page.locator(ready).first().waitFor();
      if (open) await page.locator(open).click();
      if (lang === 'mr') {
        await page.evaluate((text) => {
          const p = document.createElement('p');
          p.textContent = text;
          p.style.cssText = 'margin:0;padding:0.4rem 1rem;font-size:1.2rem;background:#ffe9a8;color:#222';
          document.body.prepend(p);
          const b = document.createElement('strong');
          b.textContent = ' — मोठा ठळक मजकूर';
          p.append(b);
        }, SAMPLE);
        await page.evaluate(() => document.fonts.ready);
      }
      await page.waitForTimeout(400);
      const file = path.join(out, `lang-${lang}-${name}-${size}.png`);
      await page.screenshot({ path: file, fullPage: name !== 'settings' });
      console.log(file, errors.length ? errors : 'no errors');
      await context.close();
    }
  }
}
await browser.close();
await server.close();
