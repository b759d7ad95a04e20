// Stoneplay's service worker. The build stamps VERSION and PRECACHE
// (.ci/stamp-sw.mjs, run by Trunk after every build): every file of the
// build is cached under a versioned cache, served cache-first, so the app
// works offline; a new build installs beside the old one and waits until
// the page accepts the update ("Update available — reload").
const VERSION = '__VERSION__';
const PRECACHE = __PRECACHE__;
const CACHE = `stoneplay-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE.map((f) => new Request(f, { cache: 'reload' })))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('stoneplay-') && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // Pages (any query: the game lives in the link) are the app's index.html.
    const key = request.mode === 'navigate' ? './' : request;
    const hit = await cache.match(key, { ignoreSearch: request.mode === 'navigate' });
    if (hit) return hit;
    return fetch(request);
  })());
});
