// Download Explorer's download worker: it answers the address of a zip the page is
// writing (src/components/bulk_export/zip_saver.rs) with the bytes the page hands it,
// so the browser saves the zip with its own download manager while it is written,
// never holding it whole. The page registers it only when a zip download starts.
//
// The page sends {type: "zip", id, name, length}; this worker answers "ready", and when
// the browser asks for <scope>download-zip/<id>/<name> it answers with a stream the
// page feeds: each "pull" asks the page for more, "chunk" and "end" feed the stream,
// "abort" fails it, and "cancelled" tells the page the person stopped the download.
// "ping" messages keep this worker alive while a zip runs (browsers stop an idle
// worker after about 30 s).

"use strict";

const PREFIX = "download-zip/";
const zips = new Map();

// Active at once, but never taking over pages: only the zip addresses need it (a
// navigation is answered by the worker of its scope whether the page is controlled
// or not).
self.addEventListener("install", () => self.skipWaiting());

function tell(zip, type) {
  zip.client.postMessage({ type, id: zip.id });
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  const zip = zips.get(String(message.id));
  if (message.type === "zip" && event.source) {
    const id = String(message.id);
    zips.set(id, { id, client: event.source, name: String(message.name), length: message.length });
    tell(zips.get(id), "ready");
  } else if (message.type === "chunk" && zip && zip.stream) {
    // A copy of the page's bytes (a transfer list measured no faster here, and its
    // extra binding grew the app's first load); taken as it comes.
    const chunk = message.chunk;
    zip.stream.enqueue(chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk));
  } else if (message.type === "end" && zip && zip.stream) {
    zip.stream.close();
    zip.finished();
    zips.delete(zip.id);
  } else if (message.type === "abort" && zip) {
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
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname + PREFIX)) {
    return;
  }
  const id = url.pathname.slice(scope.pathname.length + PREFIX.length).split("/")[0];
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
        tell(zip, "pull");
      },
      cancel() {
        tell(zip, "cancelled");
        zip.finished();
        zips.delete(zip.id);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 4 * 1024 * 1024 }),
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
