// Shared end-to-end harness: serves the release build in dist/ on a free
// localhost port and drives Debian's Chromium through playwright-core.
// Every page of a browser from launch() records its uncaught errors, console
// errors and HTTP responses >= 400 (watch(page) gives the list); any of them
// fails the test that opened the page.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { before, after } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..', '..');
const require = createRequire(path.join(root, '.tools', 'package.json'));
const { chromium } = require('playwright-core');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves `dir` on 127.0.0.1 under `prefix` (e.g. "/" or "/games/stoneplay/").
 * `overrides` maps a file name to a function returning other content for it
 * (to simulate a new deployment); `log` collects the paths requested.
 */
export async function serve(dir = path.join(root, 'dist'), prefix = '/', overrides = {}, log = []) {
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${dir}/index.html is missing: run 'make dist' first`);
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || 'index.html';
    log.push(rel);
    if (overrides[rel]) {
      res.writeHead(200, { 'content-type': TYPES[path.extname(rel)] ?? 'application/octet-stream' });
      res.end(overrides[rel](fs.readFileSync(path.join(dir, rel), 'utf8')));
      return;
    }
    const file = path.join(dir, rel);
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((ok) => server.close(ok));
    },
  };
}

const watched = new WeakMap();

/**
 * The problems `page` has had: uncaught page errors, console errors and
 * HTTP responses >= 400 (any request of the page, its workers included).
 * Recording starts at the first call; launch() makes it start when each
 * page opens, so calling this later returns everything since then.
 */
export function watch(page) {
  let errors = watched.get(page);
  if (errors) return errors;
  errors = [];
  watched.set(page, errors);
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()} for ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console error: ${m.text()}`);
  });
  return errors;
}

/**
 * Headless Chromium as this machine runs it: as root, offline. Every page
 * of every context it makes is watched from the start (see watch).
 */
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
      '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...options) => {
    const context = await newContext(...options);
    context.on('page', (page) => watch(page));
    return context;
  };
  return browser;
}

/**
 * A new page that records page errors, console errors and HTTP responses
 * >= 400 in `errors` (see watch). The browser's language is English unless
 * `locale` says otherwise, so tests that read the UI's words read the
 * English table (src/i18n/en.txt).
 */
export async function openPage(browser, url, viewport = { width: 1280, height: 800 }, locale = 'en-US') {
  const context = await browser.newContext({ viewport, locale });
  const page = await context.newPage();
  const errors = watch(page);
  await page.goto(url);
  return { page, errors, context };
}

/**
 * For a test file: serves dist/ and launches Chromium before its tests and
 * closes both after them. The returned object holds `server` and `browser`.
 */
export function useApp() {
  const app = {};
  before(async () => {
    app.server = await serve();
    app.browser = await launch();
  });
  after(async () => {
    await app.browser?.close();
    await app.server?.close();
  });
  return app;
}

/** Helpers for pages of the app. */
export const status = (page) => page.locator('[data-testid=status]').textContent();
/** The element with `data-testid=id`, and its text. */
export const tid = (page, id) => page.locator(`[data-testid=${id}]`);
export const text = (page, id) => tid(page, id).textContent();
/** The move list's entries as shown. */
export const moves = (page) => page.locator('.movelist .mv').allTextContents();

/** Waits until the move list of `page` reads `list`. */
export async function waitMoves(page, list) {
  await page.waitForFunction(
    (want) => JSON.stringify([...document.querySelectorAll('.movelist .mv')].map((e) => e.textContent)) === want,
    JSON.stringify(list),
  );
}
export const clickSq = (page, sq) => page.locator(`[data-square=${sq}] rect`).click();
export const clickPt = (page, pt) => page.locator(`[data-point=${pt}] rect`).click();

/** A move on a grid board: a click on `from`, then on `to`. */
export async function move(page, from, to) {
  await clickSq(page, from);
  await clickSq(page, to);
}

/** axe-core's serious and critical violations on the page, one line each. */
export async function axe(page) {
  // Evaluated through the DevTools protocol, not added as a <script>: the
  // real server's Content-Security-Policy refuses inline scripts it does
  // not know, as it should.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.evaluate(fs.readFileSync(path.join(root, '.tools/node_modules/axe-core/axe.min.js'), 'utf8'));
  }
  // Colours are checked at rest: a card that is still fading in has every
  // colour at part opacity, and axe would measure that frame.
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => {}))));
  const result = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * Starts the real online server (target/release/server, built by `make
 * server-bin`) on a free port with a fresh data directory, serving `dir`.
 * Resolves once it listens. `extra` adds command-line options (e.g.
 * ['--auto-resume-ms', '3000']); `port` and `data` restart a server where
 * a stopped one was. With `database` (and `bus`: see startClusterServices)
 * it keeps its games in PostgreSQL instead of a data directory and is one
 * node of a cluster.
 */
export async function startGameServer(dir = path.join(root, 'dist'), extra = [], { port = 0, data, database, bus } = {}) {
  const { spawn } = await import('node:child_process');
  const os = await import('node:os');
  const bin = path.join(root, 'target', 'release', 'server');
  if (!fs.existsSync(bin)) {
    throw new Error(`${bin} is missing: run 'make server-bin' first`);
  }
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${dir}/index.html is missing: run 'make dist' first`);
  }
  const store = database
    ? ['--database', database, ...(bus ? ['--bus', bus] : [])]
    : ['--data', (data ??= fs.mkdtempSync(path.join(os.tmpdir(), 'stoneplay-e2e-')))];
  const child = spawn(bin, ['--addr', `127.0.0.1:${port}`, ...store, '--static', dir, ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start:\n${output}`)), 15000);
    const read = (chunk) => {
      output += chunk;
      const m = output.match(/listening on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the server exited (${code}):\n${output}`));
    });
  });
  return {
    url,
    data,
    port: Number(new URL(url).port),
    output: () => output,
    /**
     * Stops the server (SIGTERM: it saves every clock); `keepData` keeps
     * its directory. Resolves to its exit code (0: stopped cleanly), or
     * the signal that ended it.
     */
    stop: async ({ keepData = false } = {}) => {
      const running = () => child.exitCode === null && child.signalCode === null;
      if (running()) {
        const exited = new Promise((ok) => child.once('exit', ok));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((ok) => setTimeout(ok, 5000))]);
        if (running()) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      if (!keepData && data) fs.rmSync(data, { recursive: true, force: true });
      return child.exitCode ?? child.signalCode;
    },
  };
}

/** A free loopback port (bound, then released). */
export async function freePort() {
  const net = await import('node:net');
  const probe = net.createServer();
  await new Promise((ok, fail) => probe.once('error', fail).listen(0, '127.0.0.1', ok));
  const { port } = probe.address();
  await new Promise((ok) => probe.close(ok));
  return port;
}

/**
 * PostgreSQL and Redis for a cluster of game servers, started by
 * `.ci/cluster services` in a fresh directory on free ports (never a
 * developer's `make cluster` ports). Resolves to `{ database, bus, stop }`:
 * the two URLs for startGameServer, and `stop()`, which stops both
 * (`.ci/cluster stop`) and removes the directory; stop the nodes first.
 * Rejects, with the script's own words, when either is missing: CI
 * installs both (.ci/setup), so a test that needs them fails, not skips.
 */
export async function startClusterServices() {
  const { execFile, execFileSync } = await import('node:child_process');
  const os = await import('node:os');
  const script = path.join(root, '.ci', 'cluster');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stoneplay-e2e-cluster-'));
  // As root, PostgreSQL runs as `nobody`, who must reach its directory.
  fs.chmodSync(dir, 0o755);
  const env = { ...process.env, PG_PORT: String(await freePort()), REDIS_PORT: String(await freePort()) };
  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    try {
      execFileSync(script, ['stop', dir], { env, stdio: 'ignore', timeout: 30000 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  // A test process that ends without its after hooks (killed, or an
  // error outside a test) still leaves no PostgreSQL or Redis behind.
  process.once('exit', stopNow);
  const urls = await new Promise((ok, fail) => {
    execFile(script, ['services', dir], { env, timeout: 60000 }, (error, stdout, stderr) => {
      if (error) {
        fail(new Error(`PostgreSQL and Redis did not start (.ci/cluster services; .ci/setup installs both):\n${stderr}${stdout}`));
      } else {
        ok(stdout.trim().split('\n'));
      }
    });
  }).catch((e) => {
    stopNow();
    throw e;
  });
  const [database, bus] = urls;
  if (!/^postgres:/.test(database ?? '') || !/^redis:/.test(bus ?? '')) {
    stopNow();
    throw new Error(`.ci/cluster services printed no URLs: ${urls.join(' ')}`);
  }
  return {
    database,
    bus,
    stop: async () => {
      process.removeListener('exit', stopNow);
      stopNow();
    },
  };
}

/**
 * A new page of `url` (with `?online` added) whose player has chosen the
 * name `name`: resolves once the page shows it (as openPage, with `page`,
 * `errors` and `context`).
 */
export async function named(browser, url, name) {
  const p = await openPage(browser, `${url}?online`);
  await tid(p.page, 'name-input').fill(name);
  await tid(p.page, 'name-save').click();
  await tid(p.page, 'my-name').waitFor();
  return p;
}
