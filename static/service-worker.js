// Over HTTPS only (browsers allow a service worker nowhere else): the pages a phone will need
// while the network is down. Every page still comes from the server while it answers; each
// page the phone is given is kept, and so are the pages its page names as needed next (a
// table's other boards of the round, its next round): a page is kept only as the server drew
// it for this phone, so nothing it may not see is ever kept. With the network down, the kept
// page is shown, and the forms sent from it wait on the phone (static/scorekeeper.js).
"use strict";

const PAGES = "scorekeeper-pages-1";
const FILES = "scorekeeper-files-1";
const MOST_PAGES = 80;
const ANSWER_WITHIN = 6000; // ms a page waits for the server before the kept one is shown
const NOT_ANSWERED = [502, 503, 504]; // the proxy's word that the app did not answer
const KEPT_AT = "Scorekeeper-Kept-At"; // when this phone kept the copy, by its own clock

const NOT_KEPT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not on this phone · Scorekeeper</title></head>
<body style="font: 1.1rem/1.5 system-ui, sans-serif; margin: 1rem; max-width: 36rem">
<h1>The network is down</h1>
<p>This page is not kept on this phone. Go back: what you enter there is kept and sent once
the network is back.</p>
<p lang="fr">Le réseau est coupé. Cette page n’est pas gardée sur ce téléphone. Revenez en
arrière : ce que vous y saisissez est gardé et envoyé au retour du réseau.</p>
</body></html>`;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => ![PAGES, FILES].includes(name))
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

// Only the pages the server marks for it (a table's own pages): every other page is sent
// "no-store", for a shared phone's next user.
const isPage = (response) => response.ok && response.type === "basic"
  && response.headers.get("Scorekeeper-Offline") === "keep";

// The app's answer says whether its copy stays: a page to keep is kept as given; the app's
// word that it is no longer the phone's (403, 404, 410: the link no longer the table's) or a
// page of its own not to keep lets the copy go. Any other answer says nothing of the page and
// its copy stays: an error (5xx), a redirect (seen here only as opaque), a proxy's "too many".
const GONE = [403, 404, 410];
const letsGo = (response) => response.type === "basic"
  && (GONE.includes(response.status) || (response.ok && !isPage(response)));

async function answered(url, response) {
  if (isPage(response)) await keep(url, response);
  else if (letsGo(response)) await (await caches.open(PAGES)).delete(url);
}

async function keep(url, response) {
  const headers = new Headers(response.headers);
  headers.set(KEPT_AT, String(Date.now()));
  // The body is kept as read, and may be changed when shown: its length and coding are not.
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  const copy = new Response(await response.blob(), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
  const pages = await caches.open(PAGES);
  await pages.delete(url); // to the end of the list: the oldest go first
  await pages.put(url, copy);
  const urls = await pages.keys();
  await Promise.all(urls.slice(0, Math.max(0, urls.length - MOST_PAGES))
    .map((old) => pages.delete(old)));
}

// The kept copy, marked as such for the page's script (it then waits for the network rather
// than reloading a page the server has changed since: see followGame).
async function keptCopy(url) {
  const kept = await caches.match(url, { cacheName: PAGES });
  if (!kept) return null;
  const text = (await kept.text()).replace("<body", "<body data-kept-copy");
  const headers = new Headers(kept.headers);
  headers.delete("Content-Length");
  return new Response(text, { status: kept.status, headers });
}

async function page(event) {
  const { request } = event;
  const asked = fetch(request);
  asked.catch(() => {}); // given up below: its failure is nobody's
  const taken = (response) => {
    if (!NOT_ANSWERED.includes(response.status)) {
      event.waitUntil(answered(request.url, response.clone()).catch(() => {}));
    }
    return response;
  };
  // A slow answer is waited for where nothing is kept; where a copy is, it is shown after a
  // while (a network that hangs rather than fails).
  let timer = null;
  const slow = new Promise((resolve) => { timer = setTimeout(resolve, ANSWER_WITHIN, "slow"); });
  let response = null;
  try {
    response = await Promise.race([asked, slow]);
  } catch (error) {
    response = null;
  }
  clearTimeout(timer);
  if (response === "slow") {
    const copy = await keptCopy(request.url);
    if (copy) {
      // The answer that comes after all is the copy's next time.
      event.waitUntil(asked.then(taken, () => {}));
      return copy;
    }
    try {
      response = await asked;
    } catch (error) {
      response = null;
    }
  }
  if (response && !NOT_ANSWERED.includes(response.status)) return taken(response);
  return (await keptCopy(request.url)) || response || new Response(NOT_KEPT, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}

// The app's own files, named by their content: kept once, for good, the copies of earlier
// versions let go.
async function file(request) {
  const files = await caches.open(FILES);
  const kept = await files.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  const url = new URL(request.url);
  if (response.status === 200 && url.searchParams.has("v")) {
    const earlier = (await files.keys()).filter((old) => new URL(old.url).pathname === url.pathname);
    await Promise.all(earlier.map((old) => files.delete(old)));
    await files.put(request, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(event));
  // A part of a file (a video's range) is the browser's own business.
  else if (url.pathname.startsWith("/static/") && !request.headers.has("Range")) {
    event.respondWith(file(request));
  }
});

// A page names the pages its phone will need next: those not kept yet, or kept a while ago
// (the director may have moved a table since), are asked for now.
const FRESH_FOR = 60000; // ms

async function keptLately(pages, url) {
  const kept = await pages.match(url);
  const keptAt = kept && Number(kept.headers.get(KEPT_AT));
  return Boolean(keptAt) && Math.abs(Date.now() - keptAt) < FRESH_FOR;
}

self.addEventListener("message", (event) => {
  const wanted = (event.data && event.data.keep) || [];
  event.waitUntil((async () => {
    const pages = await caches.open(PAGES);
    for (const address of wanted) {
      const url = new URL(address, self.location.origin);
      if (url.origin !== self.location.origin || await keptLately(pages, url.href)) continue;
      try {
        const response = await fetch(url.href, { credentials: "same-origin" });
        if (!NOT_ANSWERED.includes(response.status)) await answered(url.href, response);
      } catch (error) {
        return; // the network is down already: what is kept stays
      }
    }
  })());
});
