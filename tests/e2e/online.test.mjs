// End to end: online play through the REAL game server (target/release/server,
// serving dist/ and /ws on a free port with a fresh data directory), with
// pages in separate browser contexts as two devices: invite, play with
// clicks, spectate, reload and reconnect, pause, draw offer, resign,
// rematch, quick match, bad links, a static host with a configured server,
// and the online screens at phone sizes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, serve, startGameServer, clickSq, clickPt, move, axe, watch as watchPage, tid, text, moves, waitMoves } from './harness.mjs';

let game;
let browser;
before(async () => {
  game = await startGameServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await game?.stop();
});

const pieces = (page, cls) => page.locator(`.piece.${cls}`).count();

/** Page A creates a Territory Duel game as X; returns A and the invite link. */
async function createGame(url = `${game.url}?online`, side = 'first', clock) {
  const a = await openPage(browser, url);
  await tid(a.page, 'online-setup').waitFor();
  await tid(a.page, 'online-game-ataxx').check();
  await tid(a.page, 'online-side').selectOption(side);
  if (clock) await tid(a.page, 'online-clock').selectOption(clock);
  await tid(a.page, 'create-game').click();
  await tid(a.page, 'online-waiting').waitFor();
  await a.page.waitForFunction(() => document.querySelector('[data-testid=invite-link]').value.includes('key='));
  const invite = await tid(a.page, 'invite-link').inputValue();
  const watch = await tid(a.page, 'watch-link').inputValue();
  return { a, invite, watch };
}

test('invite a friend, play with clicks, watch, reload, pause, draw offer, resign and rematch', async () => {
  const { a, invite, watch } = await createGame();
  assert.match(invite, /^http:\/\/127\.0\.0\.1:\d+\/\?online=[a-z2-7]{16}&key=[a-z2-7]{16}$/);
  assert.match(watch, /^http:\/\/127\.0\.0\.1:\d+\/\?watch=[a-z2-7]{16}$/);
  assert.match(await text(a.page, 'online-waiting'), /Waiting for your friend/);
  assert.match(a.page.url(), /\?online=[a-z2-7]{16}$/, 'the creator\'s page reopens the game');

  // The friend opens the invite: the game starts on both pages.
  const b = await openPage(browser, invite);
  await b.page.locator('[data-square]').first().waitFor();
  await a.page.locator('[data-square]').first().waitFor();
  assert.match(await text(a.page, 'online-role'), /you play X/);
  assert.match(await text(b.page, 'online-role'), /you play O/);
  assert.match(await text(a.page, 'turn'), /Your turn/);
  assert.match(await text(b.page, 'turn'), /opponent's turn/);
  assert.match(b.page.url(), /\?online=[a-z2-7]{16}$/, 'the key leaves the address bar');
  // Each side sees its own pieces at the bottom: a7 (X) is low on A's board, high on B's.
  const ya = (await a.page.locator('[data-square=a7] rect').boundingBox()).y;
  const yb = (await b.page.locator('[data-square=a7] rect').boundingBox()).y;
  assert.ok(ya < yb, 'O sees the board turned round');

  // A spectator.
  const c = await openPage(browser, watch);
  await c.page.locator('[data-square]').first().waitFor();
  assert.equal(await text(c.page, 'online-role'), 'Watching');

  // B cannot move out of turn: its pieces do not even select.
  await move(b.page, 'a1', 'b2');
  assert.equal(await b.page.locator('.selected').count(), 0);
  assert.equal(await pieces(b.page, 'po'), 2);

  // X clones a7 → b6; O and the spectator see it.
  await move(a.page, 'a7', 'b6');
  await waitMoves(b.page, ['b6']);
  await waitMoves(c.page, ['b6']);
  assert.equal(await pieces(b.page, 'px'), 3);
  assert.match(await text(b.page, 'turn'), /Your turn/);
  // Now A is the one waiting.
  await move(a.page, 'b6', 'c5');
  assert.equal(await pieces(a.page, 'px'), 3);

  // O answers; X sees it; the spectator cannot move.
  await move(b.page, 'a1', 'b2');
  await waitMoves(a.page, ['b6', 'b2']);
  await move(c.page, 'b6', 'c5');
  assert.equal(await c.page.locator('.selected').count(), 0);
  assert.equal(await tid(c.page, 'resign').count(), 0, 'spectators have no game controls');
  await move(a.page, 'a7', 'a5');
  await waitMoves(b.page, ['b6', 'b2', 'a7a5']);
  await waitMoves(c.page, ['b6', 'b2', 'a7a5']);

  // B reloads: it reconnects to its seat and the game goes on.
  await b.page.reload();
  await waitMoves(b.page, ['b6', 'b2', 'a7a5']);
  assert.match(await text(b.page, 'online-role'), /you play O/);
  assert.match(await text(b.page, 'turn'), /Your turn/);
  await move(b.page, 'b2', 'a3');
  await waitMoves(a.page, ['b6', 'b2', 'a7a5', 'a3']);
  await waitMoves(c.page, ['b6', 'b2', 'a7a5', 'a3']);

  // A pauses: both see it, the board takes no move, only A can resume.
  await tid(a.page, 'online-pause').click();
  await tid(b.page, 'paused').waitFor();
  assert.match(await text(b.page, 'paused'), /Your opponent paused the game.*resumes by itself in \d:\d\d/);
  assert.match(await text(a.page, 'paused'), /You paused the game/);
  assert.match(await text(a.page, 'pauses'), /you 2, your opponent 3/);
  const frozen = await text(a.page, 'clock');
  await a.page.waitForTimeout(1200);
  assert.equal(await text(a.page, 'clock'), frozen, 'the clock stands while paused');
  assert.equal(await tid(b.page, 'resume').count(), 0);
  await tid(a.page, 'resume').click();
  await tid(b.page, 'paused').waitFor({ state: 'detached' });

  // B offers a draw; A sees the offer and declines; B's offer button shows it was sent.
  await tid(b.page, 'offer-draw').click();
  await tid(a.page, 'draw-offer').waitFor();
  assert.match(await text(a.page, 'draw-offer'), /Your opponent offers a draw/);
  assert.match(await text(b.page, 'offer-draw'), /Draw offered/);
  assert.match(await text(b.page, 'draw-offer-sent'), /waiting for the answer/);
  await tid(a.page, 'decline-draw').click();
  await tid(a.page, 'draw-offer').waitFor({ state: 'detached' });
  await b.page.waitForFunction(() => /draw offer was declined/.test(document.querySelector('[data-testid=notice]').textContent));

  // A resigns, after confirming.
  await tid(a.page, 'resign').click();
  await tid(a.page, 'resign-confirm').waitFor();
  await tid(a.page, 'resign-no').click();
  assert.equal(await tid(a.page, 'result').count(), 0, 'no resignation without confirming');
  await tid(a.page, 'resign').click();
  await tid(a.page, 'resign-yes').click();
  await tid(a.page, 'result').waitFor();
  await tid(b.page, 'result').waitFor();
  await tid(c.page, 'result').waitFor();
  assert.match(await text(a.page, 'result'), /You lost\..*X resigned — O wins\./);
  assert.match(await text(b.page, 'result'), /You won!/);
  assert.match(await text(c.page, 'result'), /O won\./);
  assert.match(await text(a.page, 'status'), /X resigned — O wins\./);
  // After the end the clock says so on every page, not the time left.
  for (const x of [a, b, c]) assert.equal(await text(x.page, 'clock'), 'game over');

  // Rematch: sides swap.
  await tid(a.page, 'online-rematch').click();
  await b.page.waitForFunction(() => /Accept rematch/.test(document.querySelector('[data-testid=online-rematch]')?.textContent));
  assert.match(await text(b.page, 'rematch-note'), /wants a rematch/);
  await tid(b.page, 'online-rematch').click();
  await a.page.waitForFunction(() => /you play O/.test(document.querySelector('[data-testid=online-role]')?.textContent));
  await b.page.waitForFunction(() => /you play X/.test(document.querySelector('[data-testid=online-role]')?.textContent));
  assert.deepEqual(await moves(a.page), []);
  assert.match(await text(b.page, 'turn'), /Your turn/);
  await move(b.page, 'a7', 'b6');
  await waitMoves(a.page, ['b6']);
  await waitMoves(c.page, ['b6']);

  for (const p of [a, b, c]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('Mill online: a mill and its removal reach the other device; each player has their own hand at the bottom', async () => {
  const a = await openPage(browser, `${game.url}?online`);
  await tid(a.page, 'online-game-mill').check();
  // The New game dialog has its own (hidden) Mill rules select.
  await a.page.locator('[data-testid=online-setup] [data-testid=mill-preset]').selectOption('nine');
  await tid(a.page, 'online-side').selectOption('first');
  await tid(a.page, 'create-game').click();
  await a.page.waitForFunction(() => document.querySelector('[data-testid=invite-link]')?.value.includes('key='));
  const b = await openPage(browser, 'about:blank');
  const fetched = [];
  b.page.on('request', (r) => fetched.push(r.url().split('/').pop()));
  await b.page.goto(await tid(a.page, 'invite-link').inputValue());
  await b.page.locator('[data-point]').first().waitFor();
  await a.page.locator('[data-point]').first().waitFor();
  // A room's link fetches the online part and Mill's online screen, not
  // the setup form (home's part) or the local game screens.
  assert.deepEqual(fetched.filter((f) => f.startsWith('split_')).sort(), ['split_online.wasm', 'split_online_mill.wasm']);
  const handY = async (page, cls) => (await page.locator(`circle.hand.${cls}`).first().boundingBox()).y;
  assert.ok(await handY(a.page, 'pw') > await handY(a.page, 'pb'), 'White\'s hand at the bottom for White');
  assert.ok(await handY(b.page, 'pb') > await handY(b.page, 'pw'), 'Black\'s hand at the bottom for Black');
  const played = [];
  for (const [p, pt] of [[a, 'a7'], [b, 'a1'], [a, 'd7'], [b, 'd1'], [a, 'g7']]) {
    await clickPt(p.page, pt);
    played.push(pt);
    await waitMoves(a.page === p.page ? b.page : a.page, played.slice());
  }
  assert.match(await text(a.page, 'status'), /White closed a mill: remove a Black piece/);
  assert.match(await text(a.page, 'turn'), /Your turn/);
  assert.match(await text(b.page, 'turn'), /opponent's turn/);
  await clickPt(a.page, 'a1');
  await waitMoves(b.page, ['a7', 'a1', 'd7', 'd1', 'g7xa1']);
  assert.match(await text(b.page, 'status'), /Black: place a piece/);
  assert.match(await text(b.page, 'notice'), /White removes the piece on a1/);
  for (const x of [a, b]) {
    assert.deepEqual(x.errors, []);
    await x.context.close();
  }
});

test('the server\'s clock decides: 10 s per move run out and both pages show the timeout', async () => {
  const a = await openPage(browser, `${game.url}?online`);
  await tid(a.page, 'online-game-ataxx').check();
  await tid(a.page, 'online-clock').selectOption('10');
  await tid(a.page, 'online-side').selectOption('first');
  await tid(a.page, 'create-game').click();
  await a.page.waitForFunction(() => document.querySelector('[data-testid=invite-link]')?.value.includes('key='));
  const b = await openPage(browser, await tid(a.page, 'invite-link').inputValue());
  await b.page.locator('[data-square]').first().waitFor();
  await a.page.locator('[data-square]').first().waitFor();
  assert.match(await text(a.page, 'clock'), /^0:(10|09)$/);
  await a.page.waitForTimeout(1500);
  assert.match(await text(b.page, 'clock'), /^0:0[89]$/, 'the clock counts down on both pages');
  await tid(a.page, 'result').waitFor({ timeout: 15000 });
  await tid(b.page, 'result').waitFor({ timeout: 5000 });
  assert.match(await text(a.page, 'result'), /You lost\..*X ran out of time — O wins\./);
  assert.match(await text(b.page, 'result'), /You won!/);
  for (const x of [a, b]) {
    assert.deepEqual(x.errors, []);
    await x.context.close();
  }
});

test('quick match pairs two players asking for the same game and clock', async () => {
  const ask = async () => {
    const p = await openPage(browser, `${game.url}?online`);
    await tid(p.page, 'online-game-stones').check();
    await tid(p.page, 'online-clock').selectOption('60');
    await tid(p.page, 'quick-match').click();
    return p;
  };
  const a = await ask();
  await a.page.waitForFunction(() => /Looking for an opponent/.test(document.querySelector('[data-testid=online-matching]')?.textContent));
  assert.match(await text(a.page, 'online-matching'), /Stones!, 1 min per move/);
  // Cancel, then ask again: the queue forgets a cancelled player.
  await tid(a.page, 'cancel-match').click();
  await tid(a.page, 'online-setup').waitFor();
  await tid(a.page, 'quick-match').click();
  await a.page.waitForFunction(() => /Looking for an opponent/.test(document.querySelector('[data-testid=online-matching]')?.textContent));
  const b = await ask();
  for (const p of [a, b]) await p.page.locator('[data-square]').first().waitFor();
  const roles = [await text(a.page, 'online-role'), await text(b.page, 'online-role')].sort();
  assert.deepEqual(roles, ['Online · you play Black', 'Online · you play White']);
  assert.match(await text(a.page, 'clock'), /^(1:00|0:5\d)$/);
  // White moves; Black sees it.
  const [white, black] = roles[1] === (await text(a.page, 'online-role')) ? [a, b] : [b, a];
  assert.match(await text(white.page, 'turn'), /Your turn/);
  const before = await black.page.locator('.piece').count();
  assert.ok(before > 0);
  // The first legal slide: select a white stone that shows targets.
  const stones = await white.page.locator('[data-square]:has(.piece.pw)').evaluateAll((els) => els.map((e) => e.dataset.square));
  let moved = false;
  for (const sq of stones) {
    await clickSq(white.page, sq);
    const target = white.page.locator('[data-square]:has(.hint)').first();
    if (await target.count()) {
      const to = await target.getAttribute('data-square');
      await clickSq(white.page, to);
      moved = true;
      break;
    }
  }
  assert.ok(moved, 'White found a move');
  await black.page.waitForFunction(() => document.querySelectorAll('.movelist .mv').length === 1);
  for (const p of [a, b]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('two tabs of one browser play each other, and each reload keeps its own side', async () => {
  const a = await openPage(browser, `${game.url}?online`);
  await tid(a.page, 'online-game-ataxx').check();
  await tid(a.page, 'online-side').selectOption('second');
  await tid(a.page, 'create-game').click();
  await a.page.waitForFunction(() => document.querySelector('[data-testid=invite-link]')?.value.includes('key='));
  const invite = await tid(a.page, 'invite-link').inputValue();
  const tab = await a.context.newPage();
  const errors = watchPage(tab);
  await tab.goto(invite);
  await tab.locator('[data-square]').first().waitFor();
  assert.match(await tab.locator('[data-testid=online-role]').textContent(), /you play X/);
  await a.page.locator('[data-square]').first().waitFor();
  assert.match(await text(a.page, 'online-role'), /you play O/);
  await move(tab, 'a7', 'b6');
  await waitMoves(a.page, ['b6']);
  await a.page.reload();
  await tab.reload();
  await waitMoves(a.page, ['b6']);
  await waitMoves(tab, ['b6']);
  assert.match(await text(a.page, 'online-role'), /you play O/);
  assert.match(await tab.locator('[data-testid=online-role]').textContent(), /you play X/);
  // The home screen lists the unfinished games with Resume.
  await a.page.goto(`${game.url}?`);
  await tid(a.page, 'online-active').first().waitFor();
  assert.match(await a.page.locator('[data-testid=online-active]').first().textContent(), /Territory Duel · you play (X|O) · 1 move(?!s)/);
  assert.deepEqual(a.errors, []);
  assert.deepEqual(errors, []);
  await a.context.close();
});

test('malformed and unknown links say what is wrong and change nothing', async () => {
  const p = await openPage(browser, `${game.url}?online=abc`);
  await tid(p.page, 'link-error').waitFor();
  assert.match(await text(p.page, 'link-error'), /'abc' is not a game code/);
  await tid(p.page, 'card-ataxx').waitFor(); // the home screen
  await p.page.goto(`${game.url}?online=aaaaaaaaaaaaaaaa&key=bad!`);
  assert.match(await text(p.page, 'link-error'), /invite key 'bad!' is malformed/);
  await p.page.goto(`${game.url}?watch=aaaaaaaaaaaaaaaa`);
  await tid(p.page, 'online-problem').waitFor();
  assert.match(await text(p.page, 'online-problem'), /no game with this code/);
  await p.page.goto(`${game.url}?online=aaaaaaaaaaaaaaaa&key=bbbbbbbbbbbbbbbb`);
  await tid(p.page, 'online-problem').waitFor();
  assert.match(await text(p.page, 'online-problem'), /no game with this code/);
  await p.page.goto(`${game.url}?watch=aaaaaaaaaaaaaaaa&server=https://example.org`);
  assert.match(await text(p.page, 'link-error'), /not an online server address/);
  // A full room: the third person is offered to watch.
  const { a, invite } = await createGame();
  const b = await openPage(browser, invite);
  await b.page.locator('[data-square]').first().waitFor();
  await p.page.goto(invite);
  await tid(p.page, 'online-problem').waitFor();
  assert.match(await text(p.page, 'online-problem'), /already has two players/);
  await tid(p.page, 'watch-instead').click();
  await p.page.locator('[data-square]').first().waitFor();
  assert.equal(await text(p.page, 'online-role'), 'Watching');
  for (const x of [p, a, b]) {
    assert.deepEqual(x.errors, []);
    await x.context.close();
  }
});

test('a static host: the server is set in the link or in the settings; an unreachable one is named', async () => {
  const host = await serve(); // dist/ on another port, no /ws there
  // The server is told the static host's origin, as docs/operations.md says
  // an operator must (--allow-origin): pages of other origins get 403.
  const server = await startGameServer(undefined, ['--allow-origin', new URL(host.url).origin]);
  const ws = server.url.replace(/^http/, 'ws') + 'ws';
  try {
    // The link names the server; the invite carries it to the friend.
    const { a, invite } = await createGame(`${host.url}?online&server=${encodeURIComponent(ws)}`);
    assert.ok(invite.startsWith(host.url), invite);
    assert.ok(invite.includes(`&server=${encodeURIComponent(ws)}`), invite);
    const b = await openPage(browser, invite);
    await b.page.locator('[data-square]').first().waitFor();
    await move(a.page, 'a7', 'b6');
    await waitMoves(b.page, ['b6']);
    for (const x of [a, b]) {
      assert.deepEqual(x.errors, []);
      await x.context.close();
    }

    // No server at the page's own host: a clear message, retrying.
    const c = await openPage(browser, `${host.url}?online`);
    await tid(c.page, 'create-game').click();
    await c.page.waitForFunction(() => /Can't reach the online server at ws:\/\/127\.0\.0\.1:\d+\/ws/.test(document.querySelector('[data-testid=connection]')?.textContent));
    await tid(c.page, 'cancel-connect').waitFor();
    // The settings: a bad address is refused, a good one is used.
    await tid(c.page, 'settings').click();
    await tid(c.page, 'set-server').fill('http://nowhere');
    await tid(c.page, 'set-server').press('Enter');
    await tid(c.page, 'set-server').blur();
    assert.match(await text(c.page, 'server-message'), /not a server address/);
    await tid(c.page, 'set-server').fill(ws);
    await tid(c.page, 'set-server').blur();
    assert.match(await text(c.page, 'server-message'), /Saved/);
    await tid(c.page, 'close-settings').click();
    await c.page.goto(`${host.url}?online`);
    assert.equal(await text(c.page, 'online-server'), `Server: ${ws}`);
    await tid(c.page, 'create-game').click();
    await tid(c.page, 'online-waiting').waitFor();
    // The browser's own log line for the refused connection is the only error.
    assert.deepEqual(c.errors.filter((e) => !/WebSocket connection to .* failed/.test(e)), []);
    await c.context.close();
  } finally {
    await host.close();
    await server.stop();
  }
});

test('a server restart: both pages say they are reconnecting, then the game goes on', async () => {
  const own = await startGameServer();
  const { port, data } = own;
  let restarted;
  try {
    const { a, invite } = await createGame(`${own.url}?online`);
    const b = await openPage(browser, invite);
    await b.page.locator('[data-square]').first().waitFor();
    await move(a.page, 'a7', 'b6');
    await waitMoves(b.page, ['b6']);
    await own.stop({ keepData: true });
    for (const p of [a, b]) {
      await p.page.waitForFunction(() => /Reconnecting/.test(document.querySelector('[data-testid=connection]')?.textContent));
    }
    // While it is away the board takes no move.
    await move(b.page, 'a1', 'b2');
    assert.equal(await b.page.locator('.selected').count(), 0);
    restarted = await startGameServer(undefined, [], { port, data });
    for (const p of [a, b]) await tid(p.page, 'connection').waitFor({ state: 'detached', timeout: 15000 });
    assert.match(await text(b.page, 'online-role'), /you play O/);
    await move(b.page, 'a1', 'b2');
    await waitMoves(a.page, ['b6', 'b2']);
    // The browser logs refused connections itself; the page logs nothing.
    for (const p of [a, b]) {
      assert.deepEqual(p.errors.filter((e) => !/WebSocket connection to .* failed/.test(e)), []);
      await p.context.close();
    }
  } finally {
    await restarted?.stop();
    await own.stop();
  }
});

test('heartbeat: a ping after 8 s of silence, a new connection after 20 s, back at once when online', async () => {
  // Two minutes a move: the silences below outlast the default 30 s.
  const { a, invite } = await createGame(undefined, 'first', '120');
  // B's page, with every WebSocket frame it sends and receives, timed.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  const errors = watchPage(page);
  const frames = [];
  let sockets = 0;
  page.on('websocket', (ws) => {
    sockets += 1;
    ws.on('framesent', (f) => frames.push({ out: true, at: Date.now(), text: String(f.payload) }));
    ws.on('framereceived', (f) => frames.push({ out: false, at: Date.now(), text: String(f.payload) }));
  });
  await page.goto(invite);
  await page.locator('[data-square]').first().waitFor();
  const lastHeard = (before = Infinity) => Math.max(...frames.filter((f) => !f.out && f.at < before).map((f) => f.at));

  // Nobody moves: after 8 s without a message the page pings (its `t` is
  // the silence in ms; the heartbeat looks every 2 s), and the pong keeps
  // the connection.
  const isPing = (f) => f.out && /"type":"ping"/.test(f.text);
  const deadline = Date.now() + 14000;
  while (!frames.some(isPing) && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 100));
  const ping = frames.find(isPing);
  assert.ok(ping, 'no ping within 14 s of silence');
  const { t } = JSON.parse(ping.text);
  assert.ok(t >= 8000 && t < 10500, `pinged after ${t} ms of silence`);
  assert.ok(ping.at - lastHeard(ping.at) >= 7900, `pinged ${ping.at - lastHeard(ping.at)} ms after the last message`);
  while (!frames.some((f) => !f.out && f.at >= ping.at && /"type":"pong"/.test(f.text))) {
    assert.ok(Date.now() < ping.at + 5000, 'no pong');
    await new Promise((ok) => setTimeout(ok, 100));
  }
  assert.equal(sockets, 1, 'the answered ping kept the connection');
  assert.equal(await tid(page, 'connection').count(), 0);

  // Offline emulation leaves the socket open but silent: only the
  // heartbeat sees it, 20 s after the last message (not before).
  await context.setOffline(true);
  const silentFrom = lastHeard();
  await tid(page, 'connection').waitFor({ timeout: 30000 });
  const noticed = Date.now() - silentFrom;
  assert.ok(noticed >= 19500 && noticed <= 23500, `a new connection after ${noticed} ms of silence`);
  assert.match(await text(page, 'connection'), /Reconnecting/);
  await move(a.page, 'a7', 'b6');
  await context.setOffline(false);
  await tid(page, 'connection').waitFor({ state: 'detached', timeout: 5000 });
  await waitMoves(page, ['b6']);
  assert.deepEqual(a.errors, []);
  assert.deepEqual(errors.filter((e) => !/WebSocket connection to .* failed/.test(e)), []);
  await a.context.close();
  await context.close();
});

test('the online screens fit 320 px phones with 44 px touch targets', async () => {
  const check = async (page, what, width) => {
    await page.waitForTimeout(150);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${what} at ${width}px is ${overflow}px too wide`);
    const small = await page.evaluate(() => [...document.querySelectorAll('button, select, input, a[href]')]
      .filter((el) => el.offsetParent !== null)
      .map((el) => [(el.closest('label') ?? el).getBoundingClientRect(), el.getAttribute('aria-label') || el.textContent.trim() || el.id])
      .filter(([r]) => r.height < 44 || r.width < 24)
      .map(([r, name]) => `${name} ${Math.round(r.width)}×${Math.round(r.height)}`));
    assert.deepEqual(small, [], `${what} at ${width}px`);
  };
  for (const viewport of [{ width: 320, height: 640 }, { width: 740, height: 360 }]) {
    const a = await openPage(browser, `${game.url}?online`, viewport);
    await tid(a.page, 'online-setup').waitFor();
    await tid(a.page, 'online-game-mill').check();
    await check(a.page, 'setup (Mill)', viewport.width);
    await tid(a.page, 'online-game-ataxx').check();
    await tid(a.page, 'online-side').selectOption('first');
    await tid(a.page, 'create-game').click();
    await tid(a.page, 'online-waiting').waitFor();
    await a.page.waitForFunction(() => document.querySelector('[data-testid=invite-link]')?.value.includes('key='));
    await check(a.page, 'waiting', viewport.width);
    const invite = await tid(a.page, 'invite-link').inputValue();
    const b = await openPage(browser, invite, viewport);
    await b.page.locator('[data-square]').first().waitFor();
    await a.page.locator('[data-square]').first().waitFor();
    await tid(b.page, 'offer-draw').click();
    await tid(a.page, 'draw-offer').waitFor();
    await check(a.page, 'game with a draw offer', viewport.width);
    await tid(a.page, 'resign').click();
    await check(a.page, 'resign confirmation', viewport.width);
    await tid(a.page, 'resign-yes').click();
    await tid(b.page, 'result').waitFor();
    await check(b.page, 'result', viewport.width);
    for (const x of [a, b]) {
      assert.deepEqual(x.errors, []);
      await x.context.close();
    }
  }
});

test('the online screens pass axe-core in light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const open = async (url) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
      const page = await context.newPage();
      const errors = watchPage(page);
      await page.goto(url);
      return { page, context, errors };
    };
    const a = await open(`${game.url}?online`);
    await tid(a.page, 'online-setup').waitFor();
    assert.deepEqual(await axe(a.page), [], `setup, ${colorScheme}`);
    await tid(a.page, 'online-game-ataxx').check();
    await tid(a.page, 'create-game').click();
    await a.page.waitForFunction(() => document.querySelector('[data-testid=invite-link]')?.value.includes('key='));
    assert.deepEqual(await axe(a.page), [], `waiting, ${colorScheme}`);
    const b = await open(await tid(a.page, 'invite-link').inputValue());
    await b.page.locator('[data-square]').first().waitFor();
    await a.page.locator('[data-square]').first().waitFor();
    await tid(b.page, 'offer-draw').click();
    await tid(a.page, 'draw-offer').waitFor();
    assert.deepEqual(await axe(a.page), [], `game with a draw offer, ${colorScheme}`);
    await tid(a.page, 'online-pause').click();
    await tid(b.page, 'paused').waitFor();
    assert.deepEqual(await axe(b.page), [], `paused, ${colorScheme}`);
    await tid(b.page, 'resign').click();
    await tid(b.page, 'resign-yes').click();
    await tid(a.page, 'result').waitFor();
    await a.page.waitForTimeout(400); // the result fades in
    assert.deepEqual(await axe(a.page), [], `result, ${colorScheme}`);
    for (const x of [a, b]) {
      assert.deepEqual(x.errors, []);
      await x.context.close();
    }
  }
});
