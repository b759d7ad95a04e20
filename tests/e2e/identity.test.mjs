// End to end (issue 37, point 2, the page's side): a name without an
// account, in headless Chromium against the REAL game server
// (target/release/server serving dist/). The first online visit asks for
// a name; a name the server refuses is worded in the player's language;
// a new name may be fixed once at once; the name comes back on a reload
// (the page identifies on every connection) with the wait before it may
// change again; a second device in
// Turkish is refused the same name in another case, takes the identity
// with the recovery code shown on the first, and forgetting it there is
// explained before it is done.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, startGameServer, tid, text } from './harness.mjs';

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

const kept = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('stoneplay.identity') ?? '[]'));

async function typeName(page, name) {
  await tid(page, 'name-input').fill(name);
  await tid(page, 'name-save').click();
}

test('a name on the first online visit, refusals in the player\'s language, the recovery code on another device, forgetting explained', async () => {
  const a = await openPage(browser, `${game.url}?online`);
  await tid(a.page, 'online-setup').waitFor();
  // The first visit asks for a name; rated games wait for one.
  await tid(a.page, 'name-form').waitFor();
  assert.match(await text(a.page, 'identity'), /Choose a name for online play/);
  assert.equal(await tid(a.page, 'online-rated').isDisabled(), true, 'rated needs a name');
  assert.deepEqual(await kept(a.page), []);

  // Refused by the server, in words, and nothing kept.
  await typeName(a.page, 'A');
  await tid(a.page, 'identity-problem').waitFor();
  assert.equal(await text(a.page, 'identity-problem'), 'A name needs at least 2 characters.');
  assert.deepEqual(await kept(a.page), []);

  await typeName(a.page, 'Ana Le');
  await tid(a.page, 'my-name').waitFor();
  assert.match(await text(a.page, 'my-name'), /You play as\s*Ana Le/);
  assert.equal(await tid(a.page, 'identity-problem').count(), 0);
  // A new name may be fixed once at once (the wait counts from a rename,
  // not from the first name).
  assert.equal(await tid(a.page, 'rename-wait').count(), 0);
  await tid(a.page, 'rename').click();
  await typeName(a.page, 'Ana Lee');
  await a.page.waitForFunction(() =>
    /You play as\s*Ana Lee/.test(document.querySelector('[data-testid=my-name]')?.textContent ?? ''));
  const [mine] = await kept(a.page);
  assert.match(mine.secret, /^[a-z2-7]{32}$/, 'the secret the server sent once is kept here');
  // The server lets a name change once a day: the wait is shown.
  assert.match(await text(a.page, 'rename-wait'), /You can change your name again in 2[34] h \d+ min\./);
  assert.equal(await tid(a.page, 'rename').isDisabled(), true);
  assert.equal(await tid(a.page, 'online-rated').isDisabled(), false, 'a named player may play rated');

  // A reload identifies again: the same name, without asking.
  await a.page.reload();
  await tid(a.page, 'my-name').waitFor();
  assert.match(await text(a.page, 'my-name'), /Ana Lee/);
  assert.equal(await tid(a.page, 'name-form').count(), 0);

  // The recovery code, on request, explained.
  await tid(a.page, 'show-code').click();
  assert.match(await text(a.page, 'recovery'), /Whoever has this code plays under your name/);
  const code = (await text(a.page, 'recovery-code')).trim();
  assert.match(code, /^([a-z2-7]{4}-){7}[a-z2-7]{4}$/);
  assert.equal(code.replaceAll('-', ''), mine.secret);

  // A second device, in Turkish: the same name in capitals is taken.
  const b = await openPage(browser, `${game.url}?online`, { width: 360, height: 740 }, 'tr-TR');
  await tid(b.page, 'name-form').waitFor();
  assert.match(await text(b.page, 'identity'), /Çevrimiçi oyun için bir ad seç/);
  await typeName(b.page, 'ANA LEE');
  await tid(b.page, 'identity-problem').waitFor();
  assert.equal(await text(b.page, 'identity-problem'),
    'Bu ad ya da ona benzeyen bir ad başka bir oyuncunun: başka bir ad seç.');
  // A typo in the code is caught here; the real code is this identity.
  await tid(b.page, 'recover').click();
  await tid(b.page, 'recover-input').fill('abcd-efgh');
  await tid(b.page, 'recover-use').click();
  await tid(b.page, 'recover-bad').waitFor();
  await tid(b.page, 'recover-input').fill(code.toUpperCase());
  await tid(b.page, 'recover-use').click();
  await tid(b.page, 'my-name').waitFor();
  assert.match(await text(b.page, 'my-name'), /Oynadığın ad:\s*Ana Lee/);
  assert.equal((await kept(b.page))[0].secret, mine.secret);

  // Forgetting is explained first, and "Keep it" keeps it.
  await tid(b.page, 'forget-identity').click();
  assert.match(await text(b.page, 'forget-confirm'), /yalnızca kurtarma kodu geri getirir/);
  await tid(b.page, 'forget-no').click();
  assert.equal((await kept(b.page)).length, 1);
  await tid(b.page, 'forget-identity').click();
  await tid(b.page, 'forget-yes').click();
  await tid(b.page, 'name-form').waitFor();
  assert.deepEqual(await kept(b.page), []);
  // The first device is still Ana Lee.
  await a.page.reload();
  await tid(a.page, 'my-name').waitFor();
  assert.match(await text(a.page, 'my-name'), /Ana Lee/);

  for (const p of [a, b]) assert.deepEqual(p.errors, []);
});
