// Reads the language tables (src/i18n/LANG.txt) the way the app does
// (src/i18n/parse.rs): `key = text`, indented lines continue the text above,
// `#` comments, empty lines end a text. Used by the post-build hook (the
// <noscript> message) and by the end-to-end tests.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every language of the page, English (the reference) first. */
export const LANGS = ['en', 'tr', 'af', 'mr', 'uz'];

/** A table's text as a Map from key to text. */
export function parseTable(source) {
  const table = new Map();
  let last = null;
  for (const raw of source.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || line.startsWith('#')) { last = null; continue; }
    if (/^[ \t]/.test(line)) {
      if (last !== null) table.set(last, `${table.get(last)} ${line.trim()}`.trim());
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) { last = null; continue; }
    const key = line.slice(0, eq).trim();
    if (table.has(key)) { last = null; continue; }
    table.set(key, line.slice(eq + 1).trim());
    last = key;
  }
  return table;
}

/** The table of language `code` from the source tree. */
export function readTable(code) {
  return parseTable(fs.readFileSync(tablePath(code), 'utf8'));
}

/** Where a language's table lives in the source tree. */
export function tablePath(code) {
  return path.join(root, 'src', 'i18n', `${code}.txt`);
}

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Writes the 'page.noscript' message of every language into the built
 * index.html's <noscript> (once per distinct text, English first), since
 * without JavaScript the page cannot pick one.
 */
export function stampNoscript(dir) {
  const file = path.join(dir, 'index.html');
  const html = fs.readFileSync(file, 'utf8');
  const seen = new Set();
  const lines = [];
  for (const code of LANGS) {
    const text = readTable(code).get('page.noscript');
    if (!text || seen.has(text)) continue;
    seen.add(text);
    lines.push(`<p lang="${code}">${escape(text)}</p>`);
  }
  const stamped = html.replace(/<noscript>[\s\S]*?<\/noscript>/, `<noscript>${lines.join('')}</noscript>`);
  if (stamped === html) throw new Error('index.html has no <noscript> to fill');
  fs.writeFileSync(file, stamped);
  return lines.length;
}
