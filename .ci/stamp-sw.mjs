// Trunk post-build hook: fills index.html's <noscript> from the language
// tables, copies every table but English (built into the page's wasm) to
// lang/CODE.txt, where the page fetches the one it needs, then writes the
// list of built files and a version (a hash of their contents) into the
// service worker, so each build gets its own cache and the old one is
// dropped when the new one takes over.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LANGS, stampNoscript, tablePath } from './i18n-tables.mjs';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('TRUNK_STAGING_DIR is not set: run me from a Trunk hook');
console.log(`index.html: <noscript> in ${stampNoscript(dir)} distinct texts`);
fs.mkdirSync(path.join(dir, 'lang'), { recursive: true });
for (const lang of LANGS.filter((l) => l !== 'en')) fs.copyFileSync(tablePath(lang), path.join(dir, 'lang', `${lang}.txt`));
// The favicon goes into index.html as a data: URL (issue 36). As a file,
// Chromium fetched it again on every change of the address (the game
// lives in the link, so every move), and the service worker fetches it for
// its cache anyway: icon.svg was requested three times per load. Now the
// service worker's fetch is its only request; the manifest still names it.
{
  const indexPath = path.join(dir, 'index.html');
  const html = fs.readFileSync(indexPath, 'utf8');
  const link = '<link rel="icon" type="image/svg+xml" href="icon.svg" />';
  if (!html.includes(link)) throw new Error(`index.html: ${link} was not found`);
  const svg = fs.readFileSync(path.join(dir, 'icon.svg'), 'utf8').trim();
  const uri = `data:image/svg+xml,${encodeURIComponent(svg)}`;
  fs.writeFileSync(indexPath, html.replace(link, `<link rel="icon" type="image/svg+xml" href="${uri}" />`));
}
// The worker's loader (Trunk's data-loader-shim) starts wasm-bindgen with a
// bare path, which wasm-bindgen 0.2.9x logs as "using deprecated parameters
// for the initialization function; pass a single object instead" on every
// start of the worker: pass the object it asks for (issue 36).
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('_loader.js'))) {
  const p = path.join(dir, f);
  const text = fs.readFileSync(p, 'utf8');
  const fixed = text.replace(/wasm_bindgen\((["'][^"']+["'])\)/g, 'wasm_bindgen({ module_or_path: $1 })');
  if (fixed === text && !text.includes('module_or_path')) throw new Error(`${f}: the wasm_bindgen(...) call to fix was not found`);
  fs.writeFileSync(p, fixed);
}
const files = [];
const walk = (d) => {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else files.push(path.relative(dir, p).split(path.sep).join('/'));
  }
};
walk(dir);
const precache = ['./', ...files.filter((f) => f !== 'sw.js').sort().map((f) => `./${f}`)];
const hash = crypto.createHash('sha256');
for (const f of files.filter((f) => f !== 'sw.js').sort()) hash.update(f).update(fs.readFileSync(path.join(dir, f)));
const version = hash.digest('hex').slice(0, 16);
const swPath = path.join(dir, 'sw.js');
const sw = fs.readFileSync(swPath, 'utf8')
  .replace('__VERSION__', version)
  .replace('__PRECACHE__', JSON.stringify(precache, null, 2));
fs.writeFileSync(swPath, sw);
console.log(`sw.js: version ${version}, ${precache.length} files precached`);
