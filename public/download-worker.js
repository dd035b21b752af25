// Download Explorer's download worker: it answers the address of a zip the bulk worker
// is writing (crates/bulk-worker, started by src/components/bulk_export/) with the
// bytes it hands over, so the browser saves the zip with its own download manager while
// it is written, never holding it whole. The page registers it only when a zip
// download starts.
//
// The page sends {type: "zip", id, name, length} with a message port whose other end
// the bulk worker holds; this worker answers "ready", and when the browser asks for
// <scope><id>/<name> it answers with a stream the port feeds: each "pull"
// asks the bulk worker for more, "chunk" and "end" feed the stream, "abort" fails it,
// and "cancelled" tells both the page and the bulk worker the person stopped the
// download. "ping" messages from the page keep this worker alive while a zip runs
// (browsers stop an idle worker after about 30 s).

"use strict";

const PREFIX = "download-zip/";
const zips = new Map();
// How many bytes of a zip wait for the browser before the bulk worker is asked for more.
const QUEUED_AT_MOST = 4 * 1024 * 1024;

// Active at once, but never taking over pages: only the zip addresses need it (a
// navigation is answered by the worker of its scope whether the page is controlled
// or not). Its scope is <app>download-zip/ (the page registers it so), so it controls
// no page or worker of the app, and no other request passes through it.
self.addEventListener("install", () => self.skipWaiting());

function tell(zip, type) {
  zip.client.postMessage({ type, id: zip.id });
}

// What the bulk worker sends through the zip's port.
function fed(zip, message) {
  if (!zip.stream) {
    return;
  }
  if (message.type === "chunk") {
    // The bulk worker transferred the buffer: taken as it comes.
    zip.stream.enqueue(message.chunk);
  } else if (message.type === "end") {
    zip.ended = true;
    closeOnceTaken(zip);
  } else if (message.type === "abort") {
    zip.stream.error(new Error(String(message.reason)));
    zip.finished();
    zips.delete(zip.id);
  }
}

// Ends the zip once the browser has taken every byte of it: only then may this worker
// stop. Let go with bytes still queued, Firefox stopped it at once (when no event had
// come for its idle time) and saved the zip without its last megabytes, as if whole.
function closeOnceTaken(zip) {
  if (zip.ended && zip.stream.desiredSize >= QUEUED_AT_MOST) {
    zip.stream.close();
    zip.finished();
    zips.delete(zip.id);
  }
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  const zip = zips.get(String(message.id));
  if (message.type === "zip" && event.source && event.ports.length === 1) {
    const id = String(message.id);
    const port = event.ports[0];
    const fresh = { id, client: event.source, port, name: String(message.name), length: message.length };
    port.onmessage = (feeding) => fed(fresh, feeding.data || {});
    zips.set(id, fresh);
    tell(fresh, "ready");
  } else if (message.type === "abort" && zip) {
    // The page gave the zip up: the browser's download fails rather than looking whole.
    if (zip.stream) {
      zip.stream.error(new Error(String(message.reason)));
      zip.finished();
    }
    zips.delete(zip.id);
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
        // Asked for after each chunk the browser takes.
        if (zip.ended) {
          closeOnceTaken(zip);
        } else {
          zip.port.postMessage({ type: "pull" });
        }
      },
      cancel() {
        zip.port.postMessage({ type: "cancelled" });
        tell(zip, "cancelled");
        zip.finished();
        zips.delete(zip.id);
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
