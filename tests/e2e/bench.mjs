// Not a test: runs the search benchmark natively (`engine bench`) and in
// headless Chromium inside the AI worker (`?bench`), and prints both with
// the wasm/native speed ratio per game. Run by `make bench-wasm`. The
// worker runs the bench twice: the first run also pays for V8 compiling
// the code (quickly first, then the hot functions again, optimised), the
// second measures the compiled engine, as a search of several seconds
// mostly runs; both ratios are printed.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { serve, launch, openPage, root } from './harness.mjs';

const parse = (text) => Object.fromEntries(text.trim().split('\n').map((line) => {
  const f = line.trim().split(/\s+/);
  return [f[0], { nodes: Number(f[1]), nps: Number(f[f.length - 2]) }];
}));

const native = execFileSync(path.join(root, 'target/release/engine'), ['bench']).toString();
const server = await serve();
const browser = await launch();
const { page, errors, context } = await openPage(browser, `${server.url}?bench`);
const wasm = await page.locator('[data-testid=bench-result]').textContent({ timeout: 180000 });
const first = await page.locator('[data-testid=bench-first]').textContent();
await context.close();
await browser.close();
await server.close();

console.log('native (engine bench):\n' + native.trim());
console.log('\nwasm (AI worker in headless Chromium), first run:\n' + first.trim());
console.log('\nwasm, second run:\n' + wasm.trim());
const n = parse(native);
const ratios = (title, text) => {
  const w = parse(text);
  console.log(`\nwasm/native nodes-per-second ratio, ${title}:`);
  for (const game of Object.keys(n)) {
    if (w[game]) console.log(`${game} ${(100 * w[game].nps / n[game].nps).toFixed(0)}%` +
      (w[game].nodes === n[game].nodes ? ' (same node count)' : ` (nodes ${w[game].nodes} vs ${n[game].nodes})`));
  }
};
ratios('first run (with the compiling)', first);
ratios('second run', wasm);
if (errors.length) {
  console.error(errors);
  process.exit(1);
}
