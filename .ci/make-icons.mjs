// Renders public/icon.svg into the PNG app icons the manifest lists
// (192, 512, a maskable 512 with a safe-zone margin, and 180 for iOS).
// Run when the icon changes: node .ci/make-icons.mjs (the PNGs are committed).
import fs from 'node:fs';
import path from 'node:path';
import { launch, root } from '../tests/e2e/harness.mjs';

const svg = fs.readFileSync(path.join(root, 'public/icon.svg'), 'utf8');
const out = path.join(root, 'public/icons');
fs.mkdirSync(out, { recursive: true });
const browser = await launch();
const page = await browser.newPage();
for (const [name, size, pad] of [['icon-192.png', 192, 0], ['icon-512.png', 512, 0],
  ['maskable-512.png', 512, 0.1], ['apple-touch-icon.png', 180, 0]]) {
  const inner = size * (1 - 2 * pad);
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<body style="margin:0;background:#1f2a36;display:grid;place-items:center;height:${size}px">
    <div style="width:${inner}px;height:${inner}px">${svg.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body>`);
  await page.screenshot({ path: path.join(out, name) });
  console.log(name);
}
await browser.close();
