// The floor of `cargo xtask bench download` (crates/e2e/src/bin/bench_download.rs): a
// service worker that fetches the files itself, 3 at a time, and answers one address
// with all their bytes as one stream, in the order they arrive. It is the zip's I/O
// (fetch, a stream the browser's download manager saves) with no md5, no CRC, no zip
// format and no second worker or port: the fastest a streamed download goes in this
// engine.
//
// The page registers it with the scope <base>bench-floor/, beside the app's own
// download worker (scope <base>), and sends {id, urls, length} with a port; the worker
// answers "ready" on that port, and then answers <scope><id>/<name> with the stream.
// "ping" messages from the page keep it alive meanwhile, as the app's page keeps its
// download worker alive.
//
// The port floor: sent {id, length, viaPort: true} instead, it answers with the bytes a
// dedicated worker (bench-floor-fetcher.js) fetches and posts through the port: the
// zip's own path (a worker fetching, a port, this worker answering the download), in
// plain JS, with no md5, no CRC and no zip format.

"use strict";

importScripts("bench-floor-lanes.js");

const jobs = new Map();

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
  });
  event.ports[0].postMessage("ready");
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
  const take = async (chunk) => {
    controller.enqueue(chunk);
    while (controller.desiredSize <= 0) {
      await new Promise((resolve) => waiting.push(resolve));
    }
  };
  event.waitUntil(
    fetchInLanes(job.urls, take).then(
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
