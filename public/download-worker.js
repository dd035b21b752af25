// Download Explorer's download worker: it runs a zip's download (the bulk worker's wasm,
// crates/bulk-worker, which it loads) and answers the zip's address with the bytes the
// run writes, so the browser saves the zip with its own download manager while it is
// written, never holding it whole. The page (src/components/bulk_export/) registers it
// only when a zip download starts, and steers the run.
//
// The page sends {type: "engine"} with a message port: the run it steers through that
// port (the conversation of explorer_logic::bulk::worker). It sends {type: "zip", id,
// name, length} for each zip it opens; this worker answers "ready", and when the browser
// asks for <scope><id>/<name> it answers with a stream and says "started". The run then
// writes the zip into that stream (bulkZipStream below, called from the wasm: the bytes
// never leave this thread); "cancelled" tells the page the person stopped the download
// in the browser, and the run learns it at its next write. "ping" messages from the page
// keep this worker alive while a run lives (browsers stop an idle worker after about
// 30 s; a port's messages do not count); "abort" fails a zip the page gave up.

"use strict";

const PREFIX = "download-zip/";
const zips = new Map();
// The zips whose download the browser cancelled (the person, or the browser refusing to
// save it): a run that turns to one afterwards is told so, not that it never was.
const cancelledZips = new Set();
// How many bytes of a zip wait for the browser before the run is kept waiting.
const QUEUED_AT_MOST = 4 * 1024 * 1024;

// The bulk worker's wasm, loaded with this script (its loader lies beside it and names
// its files): once loaded, it calls bulkEngineLoaded with the function that serves a
// run over a port. The same wasm runs a folder's download in a dedicated worker.
const engine = new Promise((resolve) => (self.bulkEngineLoaded = resolve));
importScripts("bulk-worker_loader.js");

// Each run's page and what quits it: a run whose page is gone (closed, reloaded without
// quitting it) quits, as a dedicated worker ends with its page, rather than fetching on
// for nobody (a data package's run needs its page for every address).
const runs = new Set();
const PAGES_CHECKED_EVERY_MS = 2000;
let checking = null;

function checkPages() {
  if (checking) {
    return;
  }
  checking = setInterval(async () => {
    for (const run of runs) {
      if (!(await self.clients.get(run.page))) {
        runs.delete(run);
        run.quit();
      }
    }
    if (runs.size === 0) {
      clearInterval(checking);
      checking = null;
    }
  }, PAGES_CHECKED_EVERY_MS);
}

// The stream the browser saves zip `id` from, for the run to write into: write(chunk)
// answers a promise when the browser has enough queued (the run waits for it) and
// throws an AbortError once the browser cancelled the download; end() completes the
// zip, abort(reason) fails it. Throws when the zip is not open: an AbortError when the
// browser cancelled it (Chromium refusing a download does so as soon as it starts).
self.bulkZipStream = (id) => {
  if (cancelledZips.has(String(id))) {
    throw cancelledInBrowser();
  }
  const zip = zips.get(String(id));
  if (!zip || !zip.stream) {
    throw new Error("This zip was never opened, or is over.");
  }
  return {
    write(chunk) {
      if (cancelledZips.has(zip.id)) {
        throw cancelledInBrowser();
      }
      zip.stream.enqueue(chunk);
      if (zip.stream.desiredSize > 0) {
        return null;
      }
      return new Promise((resolve) => (zip.wake = resolve));
    },
    end() {
      zip.ended = true;
      closeOnceTaken(zip);
    },
    abort(reason) {
      fail(zip, reason);
    },
  };
};

function cancelledInBrowser() {
  return new DOMException("The browser cancelled the download.", "AbortError");
}

// Ends the zip once the browser has taken every byte of it: only then may this worker
// stop. Let go with bytes still queued, Firefox stopped it at once (when no event had
// come for its idle time) and saved the zip without its last megabytes, as if whole.
function closeOnceTaken(zip) {
  if (zip.ended && zip.stream.desiredSize >= QUEUED_AT_MOST) {
    zip.stream.close();
    over(zip);
  }
}

// The browser's download fails rather than looking whole.
function fail(zip, reason) {
  if (zip.stream) {
    zip.stream.error(new Error(String(reason)));
  }
  over(zip);
}

function over(zip) {
  if (zip.finished) {
    zip.finished();
  }
  if (zip.wake) {
    zip.wake();
  }
  zips.delete(zip.id);
}

function tell(zip, type) {
  zip.client.postMessage({ type, id: zip.id });
}

// Active at once, but never taking over pages: only the zip addresses need it (a
// navigation is answered by the worker of its scope whether the page is controlled
// or not). Its scope is <app>download-zip/ (the page registers it so), so it controls
// no page or worker of the app, and no other request passes through it.
self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("message", (event) => {
  const message = event.data || {};
  const zip = zips.get(String(message.id));
  if (message.type === "zip" && event.source) {
    const id = String(message.id);
    zips.set(id, { id, client: event.source, name: String(message.name), length: message.length });
    tell(zips.get(id), "ready");
  } else if (message.type === "engine" && event.ports.length === 1) {
    const [port, page] = [event.ports[0], event.source && event.source.id];
    event.waitUntil(engine.then((serve) => {
      runs.add({ page, quit: serve(port) });
      checkPages();
    }));
  } else if (message.type === "abort" && zip) {
    // The page gave the zip up.
    fail(zip, message.reason);
  } else if (message.type === "ping") {
    // Held open until the next ping is due, so the worker is never idle meanwhile.
    event.waitUntil(new Promise((resolve) => setTimeout(resolve, 15000)));
  }
});

self.addEventListener("fetch", (event) => {
  const scope = new URL(self.registration.scope);
  const url = new URL(event.request.url);
  // An older app registered this worker with the app's folder as its scope.
  const zips_at = scope.pathname.endsWith(PREFIX) ? scope.pathname : scope.pathname + PREFIX;
  if (url.origin !== scope.origin || !url.pathname.startsWith(zips_at)) {
    return;
  }
  const id = url.pathname.slice(zips_at.length).split("/")[0];
  const zip = zips.get(id);
  if (!zip || zip.answered) {
    event.respondWith(new Response("This download is over or was never started.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    }));
    return;
  }
  zip.answered = true;
  // The worker stays up while the stream is written.
  event.waitUntil(new Promise((resolve) => (zip.finished = resolve)));
  const body = new ReadableStream(
    {
      start(controller) {
        zip.stream = controller;
      },
      pull() {
        // Asked for as the browser takes bytes: the run may write more.
        if (zip.ended) {
          closeOnceTaken(zip);
        } else if (zip.wake) {
          const wake = zip.wake;
          zip.wake = null;
          wake();
        }
      },
      cancel() {
        cancelledZips.add(zip.id);
        tell(zip, "cancelled");
        over(zip);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: QUEUED_AT_MOST }),
  );
  const ascii = zip.name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const headers = {
    "Content-Type": "application/zip",
    "Content-Disposition":
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(zip.name)}`,
    "X-Content-Type-Options": "nosniff",
  };
  if (typeof zip.length === "number") {
    headers["Content-Length"] = String(zip.length);
  }
  event.respondWith(new Response(body, { headers }));
  tell(zip, "started");
});
