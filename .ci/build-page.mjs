// Trunk pre-build hook: builds the page's wasm cut into chunks that load on
// demand (src/ui/lazy.rs), which Trunk 0.21 cannot do itself (the split must
// come between rustc and wasm-bindgen; trunk-rs/trunk#1022). Writes pkg/ into
// Trunk's staging directory:
//   stoneplay.js, stoneplay_bg.wasm  the page (wasm-bindgen's web target)
//   __wasm_split.js                  loads a chunk when its code is first called
//   split_*.wasm, chunk_*.wasm       the chunks (code shared by several
//                                    split points is a chunk of its own,
//                                    or in the main module if most need it)
// Steps: cargo (with --cfg stoneplay_split and the relocations the splitter
// reads), wasm-split-cli, wasm-bindgen on the main module, then wasm-opt -Oz
// on every module in a release build. index.html starts pkg/stoneplay.js.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';

const execFileAsync = promisify(execFile);
const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('TRUNK_STAGING_DIR is not set: run me from a Trunk hook');
const release = process.env.TRUNK_PROFILE === 'release';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });

// The page's own target directory: these flags differ from the wasm32 ones in
// .cargo/config.toml (which RUSTFLAGS replaces, so they are repeated here),
// and sharing target/ would rebuild everything each time either changes.
const targetDir = path.join(root, 'target', 'page');
const profile = release ? 'release-app' : 'dev';
run('cargo', ['build', '--target', 'wasm32-unknown-unknown', '--bin', 'stoneplay', '--profile', profile,
  '--target-dir', targetDir], {
  RUSTFLAGS: [
    '--cfg', 'getrandom_backend="wasm_js"', '--cfg', 'erase_components',
    '--cfg', 'stoneplay_split', '-C', 'link-arg=--emit-relocs',
  ].join(' '),
});
const input = path.join(targetDir, 'wasm32-unknown-unknown', release ? 'release-app' : 'debug', 'stoneplay.wasm');

const work = path.join(targetDir, 'split');
fs.rmSync(work, { recursive: true, force: true });
// Code needed by six or more of the ten split modules goes to the main
// module (our patch to the splitter, .ci/wasm-split-cli.patch): the
// splitter otherwise gives each set of split modules that share code a
// chunk of its own, and a first visit to a game fetched 48 files, 29 of
// them under 1 KB gzip. Measured over the thresholds (the figures in
// docs/architecture.md): with nine modules 5 gave the smallest largest
// first visit and the fewest files; the tenth (the community part, issue
// 37) put 6 KB more into the main module at 5, so a game's first visit
// grew, and 6 keeps it near what it was (Territory Duel 302.5 KB gzip,
// 310.0 at 5, 299.9 at 7, where an online room grows to 355 KB);
// WASM_SPLIT_MAIN_SHARED_BY in the environment overrides it, to measure.
run('wasm-split-cli', ['--out-name', 'stoneplay', input, work], { WASM_SPLIT_MAIN_SHARED_BY: process.env.WASM_SPLIT_MAIN_SHARED_BY ?? '6' });
const out = path.join(staging, 'pkg');
fs.mkdirSync(out, { recursive: true });
// --keep-lld-exports: the chunks call through the main module's function
// table, which wasm-bindgen would otherwise stop exporting.
run('wasm-bindgen', ['--target', 'web', '--no-typescript', '--keep-lld-exports', '--out-name', 'stoneplay', '--out-dir', out,
  path.join(work, 'stoneplay.wasm')]);
fs.copyFileSync(path.join(work, '__wasm_split.js'), path.join(out, '__wasm_split.js'));
const chunks = fs.readdirSync(work).filter((f) => f.endsWith('.wasm') && f !== 'stoneplay.wasm');
for (const f of chunks) fs.copyFileSync(path.join(work, f), path.join(out, f));
if (release) {
  // Two at a time (binaryen's wasm-opt runs on Node and starts slowly).
  // Quiet: it warns about the splitter's name subsections, which
  // --strip-debug drops anyway; a failure still throws with its output.
  const todo = ['stoneplay_bg.wasm', ...chunks].map((f) => path.join(out, f));
  const worker = async () => {
    for (let p = todo.pop(); p; p = todo.pop()) {
      await execFileAsync('wasm-opt', ['-Oz', '--strip-debug', '--strip-producers', p, '-o', p]);
    }
  };
  await Promise.all([worker(), worker()]);
}

// pkg/preload.js: the chunks each split point needs (read from the link
// module's loaders), and which one the page's link opens first (as
// src/ui/page.rs's page_for decides), fetched at once instead of after the
// main module has started.
const link = fs.readFileSync(path.join(work, '__wasm_split.js'), 'utf8');
const needs = {};
for (const [, names, file] of link.matchAll(/\/\* ([^*]*) \*\/\nconst __chunk_\d+ = makeLoad\(\(\) => \{\n\s*const src = fetch\(new URL\("\.\/([\w.]+)"/g)) {
  for (const name of names.split(',').map((n) => n.trim())) (needs[name] ??= []).push(file);
}
for (const f of chunks.filter((f) => f.startsWith('split_'))) (needs[f.slice(6, -5)] ??= []).push(f);
if (!needs.home || !needs.extras || !needs.online || !needs.community || !needs.game_ataxx) throw new Error(`unexpected split points: ${Object.keys(needs)}`);
fs.writeFileSync(path.join(out, 'preload.js'), `// Written by .ci/build-page.mjs.
const needs = ${JSON.stringify(needs)};
const q = new URLSearchParams(location.search);
const game = q.get('game');
const split = q.has('bench') ? 'extras'
  : q.has('online') || q.has('watch') || q.has('player') ? 'online'
  : game ? 'game_' + game
  : q.has('rules') ? 'game_' + q.get('rules')
  : 'home';
// The online lobby (?online with no room) and a player's page need the
// community part too: the setup form, the name card, the lobby, the
// player page and the leaderboards are in it.
const community = split === 'online' && !q.has('watch') && (q.get('online') === '' || q.has('player')) ? needs.community : [];
for (const f of new Set([...(needs[split] ?? []), ...community])) {
  const l = document.createElement('link');
  l.rel = 'preload'; l.as = 'fetch'; l.crossOrigin = 'anonymous'; l.type = 'application/wasm';
  l.href = new URL(f, import.meta.url).href;
  document.head.append(l);
}
`);
const size = (f) => fs.statSync(path.join(out, f)).size;
console.log(`pkg/: stoneplay_bg.wasm ${size('stoneplay_bg.wasm')} B and ${chunks.length} chunks ` +
  `(${chunks.reduce((s, f) => s + size(f), 0)} B)`);
