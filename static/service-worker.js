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

async function keep(url, response) {
  const pages = await caches.open(PAGES);
  await pages.delete(url); // to the end of the list: the oldest go first
  await pages.put(url, response);
  const urls = await pages.keys();
  await Promise.all(urls.slice(0, Math.max(0, urls.length - MOST_PAGES))
    .map((old) => pages.delete(old)));
}

function withinAWhile(request) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer")), ANSWER_WITHIN);
    fetch(request).then((response) => {
      clearTimeout(timer);
      resolve(response);
    }, (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

async function page(request) {
  let response = null;
  try {
    response = await withinAWhile(request);
  } catch (error) {
    response = null;
  }
  if (response && !NOT_ANSWERED.includes(response.status)) {
    if (isPage(response)) await keep(request.url, response.clone());
    return response;
  }
  const kept = await caches.match(request.url, { cacheName: PAGES });
  return kept || response || new Response(NOT_KEPT, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}

// The app's own files, named by their content: kept once, for good.
async function file(request) {
  const files = await caches.open(FILES);
  const kept = await files.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && new URL(request.url).searchParams.has("v")) {
    await files.put(request, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith("/static/")) event.respondWith(file(request));
});

// A page names the pages its phone will need next: those not kept yet are asked for now.
self.addEventListener("message", (event) => {
  const wanted = (event.data && event.data.keep) || [];
  event.waitUntil((async () => {
    const pages = await caches.open(PAGES);
    for (const address of wanted) {
      const url = new URL(address, self.location.origin);
      if (url.origin !== self.location.origin || await pages.match(url.href)) continue;
      try {
        const response = await fetch(url.href, { credentials: "same-origin" });
        if (isPage(response)) await keep(url.href, response);
      } catch (error) {
        return; // the network is down already: what is kept stays
      }
    }
  })());
});
