// End to end: the harness itself. Every page of a browser from launch()
// records HTTP responses >= 400, console errors and page errors, also a
// page a test opens without openPage (as a second tab).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useApp, watch } from './harness.mjs';

const app = useApp();

test('every page records failed requests, console errors and page errors', async () => {
  const { page, errors, context } = await openPage(app.browser, app.server.url);
  await page.locator('[data-testid=card-ataxx]').waitFor();
  assert.deepEqual(errors, []);
  // A second tab, opened directly (not through openPage), is watched too.
  const tab = await context.newPage();
  await tab.goto(app.server.url);
  await tab.evaluate(async () => {
    await fetch('no-such-file.json');
    console.error('a console error');
    setTimeout(() => {
      throw new Error('an uncaught error');
    });
  });
  const seen = watch(tab);
  await new Promise((ok) => setTimeout(ok, 200));
  assert.deepEqual(seen.map((e) => e.replace(/http:\/\/127\.0\.0\.1:\d+/, '')).sort(), [
    'HTTP 404 for /no-such-file.json',
    'console error: Failed to load resource: the server responded with a status of 404 (Not Found)',
    'console error: a console error',
    'page error: an uncaught error',
  ].sort());
  assert.deepEqual(errors, [], 'the first page is not blamed');
  await context.close();
});
