// The floor of `cargo xtask bench download` (crates/e2e/src/bin/bench_download.rs): a
// service worker that fetches the files itself, 3 at a time, and answers one address
// with all their bytes as one stream, in the order they arrive. It is the zip's I/O
// (fetch, a stream the browser's download manager saves) with no md5, no CRC, no zip
// format and no second worker or port: the fastest a streamed download goes in this
// engine.
//
// The page registers it with the scope <base>bench-floor/, beside the app's own
// download worker (scope <base>download-zip/), and sends {id, urls, length} with a port; the worker
// answers "ready" on that port, and then answers <scope><id>/<name> with the stream.
// "ping" messages from the page keep it alive meanwhile, as the app's page keeps its
// download worker alive.
//
// The port floor: sent {id, length, viaPort: true} instead, it answers with the bytes a
// dedicated worker (bench-floor-fetcher.js) fetches and posts through the port: the
// zip's own path (a worker fetching, a port, this worker answering the download), in
// plain JS, with no md5, no CRC and no zip format.
//
// The hashing floor: registered as bench-floor-worker.js?hashing (with the scope
// <base>bench-floor-hashing/), it is the floor with each file's md5 and CRC worked out
// on this worker's thread as its chunks pass, by the app's own code (the bulk worker's
// wasm, which the zip's run uses, loaded here as the app's download worker loads it):
// the least a zip hashed where its bytes pass can take. The other floors load no wasm.

"use strict";

importScripts("bench-floor-lanes.js");
const HASHING = new URL(self.location.href).searchParams.has("hashing");
// The bulk worker's wasm: once loaded it calls bulkEngineLoaded (as in the app's
// download worker); its `Sums` is what the hashing floor hashes with.
let wasmLoaded = Promise.resolve();
if (HASHING) {
  wasmLoaded = new Promise((resolve) => (self.bulkEngineLoaded = resolve));
  importScripts("bulk-worker_loader.js");
}

const jobs = new Map();
// The most the hashing floor hashes at a time (the zip run's PIECE_BYTES).
const PIECE_BYTES = 1024 * 1024;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "ping") {
    event.waitUntil(new Promise((resolve) => setTimeout(resolve, 15000)));
    return;
  }
  jobs.set(String(message.id), {
    urls: message.urls,
    length: message.length,
    port: message.viaPort ? event.ports[0] : null,
    hashing: HASHING,
  });
  wasmLoaded.then(() => event.ports[0].postMessage("ready"));
});

self.addEventListener("fetch", (event) => {
  const scope = new URL(self.registration.scope);
  const url = new URL(event.request.url);
  const [id, name] = url.pathname.slice(scope.pathname.length).split("/");
  const job = jobs.get(id);
  if (!job) {
    return;
  }
  jobs.delete(id);
  if (job.port) {
    event.respondWith(viaPort(job, name, event));
    return;
  }
  let controller;
  // Lanes waiting for the download manager to take more (the stream is full).
  let waiting = [];
  const body = new ReadableStream(
    {
      start(c) {
        controller = c;
      },
      pull() {
        const wake = waiting;
        waiting = [];
        wake.forEach((resolve) => resolve());
      },
    },
    // As much as the app's download worker keeps queued.
    new ByteLengthQueuingStrategy({ highWaterMark: 4 * 1024 * 1024 }),
  );
  // Each file's sums, while it passes (the hashing floor).
  const sums = new Map();
  const take = async (chunk, index) => {
    if (!job.hashing) {
      controller.enqueue(chunk);
      await room();
      return;
    }
    if (!sums.has(index)) {
      sums.set(index, new wasm_bindgen.Sums());
    }
    // A megabyte at a time, as the zip's run hashes and hands on (WebKit hands over
    // 20 MB at once: hashed whole, the download waited for it at every step).
    for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
      const piece = chunk.subarray(at, at + PIECE_BYTES);
      sums.get(index).update(piece);
      controller.enqueue(piece);
      await room();
    }
  };
  const room = async () => {
    while (controller.desiredSize <= 0) {
      await new Promise((resolve) => waiting.push(resolve));
    }
  };
  const ended = (index) => {
    if (job.hashing) {
      sums.get(index)?.finish();
      sums.delete(index);
    }
  };
  event.waitUntil(
    fetchInLanes(job.urls, take, ended).then(
      () => controller.close(),
      (error) => controller.error(error),
    ),
  );
  event.respondWith(download(body, name, job.length));
});

function download(body, name, length) {
  return new Response(body, {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Content-Length": String(length),
    },
  });
}

// The port floor's answer: each chunk the fetcher posts, as it comes; a "pull" back for
// each one the download takes, so the fetcher keeps a few on their way and no more.
function viaPort(job, name, event) {
  let ended;
  event.waitUntil(new Promise((resolve) => (ended = resolve)));
  const body = new ReadableStream(
    {
      start(controller) {
        job.port.onmessage = ({ data }) => {
          if (data === "end") {
            controller.close();
            ended();
          } else {
            controller.enqueue(data);
          }
        };
        job.port.postMessage("go");
      },
      pull() {
        job.port.postMessage("pull");
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 4 * 1024 * 1024 }),
  );
  return download(body, name, job.length);
}
