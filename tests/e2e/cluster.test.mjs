// End to end (issue 37, "the same flow with the players on different
// cluster nodes"): PostgreSQL and Redis started for this file (.ci/cluster
// services, free ports), two REAL server nodes on them (target/release/server
// --database … --bus …, each serving dist/), and headless Chromium. Two named
// players, each on their own node, are paired by a rated quick match, play,
// and both see the new ratings; a lobby challenge posted on one node is
// taken on the other and both are seated. Everything stops at the end, the
// nodes cleanly first (also when a test fails: the after hook).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, named, startClusterServices, startGameServer, tid, text, move } from './harness.mjs';

let services;
const nodes = [];
let browser;
before(async () => {
  services = await startClusterServices();
  // One after the other: the first node makes the tables.
  for (let i = 0; i < 2; i++) {
    nodes.push(await startGameServer(undefined, ['--rooms-per-address', '0'], {
      database: services.database,
      bus: services.bus,
    }));
  }
  browser = await launch();
});
after(async () => {
  await browser?.close();
  for (const node of nodes) await node.stop();
  await services?.stop();
});

const chips = async (page) => `${await text(page, 'score-first')} | ${await text(page, 'score-second')}`;
const kept = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('stoneplay.identity') ?? '[]'));

/** Each page talks to its own node (the setup card names the server). */
async function onNode(page, node) {
  assert.match(await text(page, 'online-server'), new RegExp(`127\\.0\\.0\\.1:${node.port}\\b`));
}

test('a rated quick match between players on two nodes: paired, played, both see the new ratings', async () => {
  const [one, two] = nodes;
  const a = await named(browser, one.url, 'Ana');
  const b = await named(browser, two.url, 'Bob');
  await onNode(a.page, one);
  await onNode(b.page, two);
  for (const p of [a.page, b.page]) {
    await tid(p, 'online-game-ataxx').check();
    await tid(p, 'online-clock').selectOption('60');
    await tid(p, 'online-rated').check();
  }
  await tid(a.page, 'quick-match').click();
  await tid(b.page, 'quick-match').click();
  for (const p of [a.page, b.page]) await p.locator('[data-square]').first().waitFor({ timeout: 15000 });
  for (const [p, me, them] of [[a.page, 'Ana', 'Bob'], [b.page, 'Bob', 'Ana']]) {
    assert.match(await text(p, 'rated-line'), /Rated/);
    const both = await chips(p);
    assert.match(both, new RegExp(`${me} 1500\\? · you`));
    assert.match(both, new RegExp(`${them} 1500\\? · opponent`));
  }
  // A move each (a game is rated once both sides have moved), through
  // the bus between the nodes, then the first mover resigns.
  const first = (await text(a.page, 'score-first')).includes('you') ? a.page : b.page;
  const second = first === a.page ? b.page : a.page;
  await move(first, 'a7', 'b6');
  await second.waitForFunction(() => document.querySelectorAll('.movelist .mv').length === 1);
  await move(second, 'a1', 'b2');
  await first.waitForFunction(() => document.querySelectorAll('.movelist .mv').length === 2);
  await tid(first, 'resign').click();
  await tid(first, 'resign-yes').click();
  const [loser, winner] = first === a.page ? ['Ana', 'Bob'] : ['Bob', 'Ana'];
  for (const p of [a.page, b.page]) {
    await tid(p, 'result').waitFor();
    await p.waitForFunction(() => /→/.test(document.querySelector('[data-testid=score-first]')?.textContent ?? ''));
    const both = await chips(p);
    assert.match(both, new RegExp(`${loser} 1500 → 1338 −162`));
    assert.match(both, new RegExp(`${winner} 1500 → 1662 \\+162`));
  }
  // Each player's page, read on the OTHER node: the new rating, still
  // provisional, from the one database.
  for (const [p, other, name] of [[a.page, two, 'Ana'], [b.page, one, 'Bob']]) {
    const id = (await kept(p))[0].id;
    await p.goto(`${other.url}?player=${id}`);
    await tid(p, 'player-page').waitFor();
    assert.equal(await text(p, 'player-name'), name);
    assert.match(await text(p, 'player-ratings'), name === winner ? /1662\?/ : /1338\?/);
  }
  for (const p of [a, b]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('a lobby challenge posted on one node is taken on the other: both seated, each sees the other', async () => {
  const [one, two] = nodes;
  const a = await named(browser, one.url, 'Cleo');
  const c = await named(browser, two.url, 'Dan');
  await onNode(a.page, one);
  await onNode(c.page, two);
  await tid(a.page, 'online-game-ataxx').check();
  await tid(a.page, 'post-challenge').click();
  await tid(a.page, 'cancel-challenge').waitFor();
  // Listed on node 2 through the bus, and taken there.
  const offered = tid(c.page, 'challenge').filter({ hasText: 'Cleo' });
  await offered.waitFor();
  await offered.locator('[data-testid=take-challenge]').click();
  for (const p of [a.page, c.page]) await p.locator('[data-square]').first().waitFor({ timeout: 15000 });
  for (const [p, me, them] of [[a.page, 'Cleo', 'Dan'], [c.page, 'Dan', 'Cleo']]) {
    const both = await chips(p);
    assert.match(both, new RegExp(`${me}\\b[^|]*· you`));
    assert.match(both, new RegExp(`${them}\\b[^|]*· opponent`));
  }
  // Seated, not watching: the first mover's move reaches the other node.
  const first = (await text(a.page, 'score-first')).includes('you') ? a.page : c.page;
  const second = first === a.page ? c.page : a.page;
  await move(first, 'a7', 'b6');
  await second.waitForFunction(() => document.querySelectorAll('.movelist .mv').length === 1);
  for (const p of [a, c]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('the nodes stop cleanly', async () => {
  for (const node of nodes) {
    assert.equal(await node.stop(), 0, node.output());
    assert.match(node.output(), /shutting down: saving clocks/);
  }
});
