// End to end (issue 36): why a move is illegal and why a position cannot be
// read, as the player reads them in their own language: a press where the
// piece cannot go says why on the notice line, in Turkish, Uzbek and
// Afrikaans; a broken position in a link and in an imported game says what
// is wrong with it, in Turkish and Marathi, not just "could not be read".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, clickSq, clickPt } from './harness.mjs';

const app = useApp();

const notice = (page) => page.locator('[data-testid=notice]').textContent();

test('an illegal move says why in the player\'s language, the squares filled in', async () => {
  // Territory Duel in Turkish: a7 cannot reach d4 (three squares away).
  const tr = await openPage(app.browser, `${app.server.url}?game=ataxx`, undefined, 'tr-TR');
  await tr.page.locator('[data-square=a7] .piece').waitFor();
  await clickSq(tr.page, 'a7');
  await clickSq(tr.page, 'd4');
  assert.equal(await notice(tr.page), '1. hamle (a7d4) yasal değil: d4, a7 karesinden iki kareden daha uzakta');
  assert.equal(await tr.page.locator('.piece').count(), 4, 'nothing was played');
  // A clone onto the opponent's piece: occupied.
  await clickSq(tr.page, 'a7');
  await clickSq(tr.page, 'a1');
  assert.equal(await notice(tr.page), '1. hamle (a7a1) yasal değil: a1 dolu');
  assert.deepEqual(tr.errors, []);
  await tr.context.close();

  // Mill in Uzbek: Black places on the point White just took.
  const uz = await openPage(app.browser, `${app.server.url}?game=mill`, undefined, 'uz-UZ');
  await uz.page.locator('[data-point=d6]').waitFor();
  await clickPt(uz.page, 'd6');
  await uz.page.locator('[data-point=d6] .piece').waitFor();
  await clickPt(uz.page, 'd6');
  // Black's half of move 1, as the move list numbers it.
  assert.equal(await notice(uz.page), '1-yurish (d6) qoidaga zid: d6 nuqtasi band');
  assert.equal(await uz.page.locator('.movelist .mv').count(), 1, 'nothing was played');
  assert.deepEqual(uz.errors, []);
  await uz.context.close();

  // Stones! in Afrikaans: a stone cannot go straight ahead.
  const af = await openPage(app.browser, `${app.server.url}?game=stones`, undefined, 'af-ZA');
  await af.page.locator('[data-square=c1] .piece').waitFor();
  await clickSq(af.page, 'c1');
  await clickSq(af.page, 'c3');
  assert.equal(await notice(af.page), 'skuif 1 (c1-c3) is nie wettig nie: die klip op c1 kan nie c3 in een skuif bereik nie');
  assert.deepEqual(af.errors, []);
  await af.context.close();
});

test('a position that cannot be read says what is wrong with it, in a link and in an import', async () => {
  // A link with six ranks instead of seven, in Turkish.
  const pos = encodeURIComponent('x5o/7/7/7/7/o5x x 0 1');
  const tr = await openPage(app.browser, `${app.server.url}?game=ataxx&pos=${pos}`, undefined, 'tr-TR');
  await tr.page.locator('[data-testid=link-error]').waitFor();
  assert.match(await tr.page.locator('[data-testid=link-error]').textContent(),
    /‘x5o\/7\/7\/7\/7\/o5x x 0 1’ konumu okunamadı: tahta bölümü bu oyunun tahtasının biçiminde değil/);
  assert.deepEqual(tr.errors, []);
  await tr.context.close();

  // An imported Stones! game whose start lists a1 twice, in Marathi.
  const mr = await openPage(app.browser, `${app.server.url}?game=stones`, undefined, 'mr-IN');
  await mr.page.locator('[data-square=a1] .piece').waitFor();
  await mr.page.locator('.game-text summary').click();
  await mr.page.locator('[data-testid=game-text]').fill('[Game "stones"]\n[Start "W:a1,a1 B:a8 w"]\n');
  await mr.page.locator('[data-testid=import]').click();
  assert.match(await notice(mr.page), /a1 दोनदा लिहिले आहे किंवा त्यावर दोन गोष्टी आहेत/);
  assert.equal(await mr.page.locator('.piece').count(), 16, 'the game is unchanged');
  assert.deepEqual(mr.errors, []);
  await mr.context.close();
});
