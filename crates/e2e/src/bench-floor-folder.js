// The folder's floors of `cargo xtask bench download` (crates/e2e/src/bin/bench_download.rs):
// the plain-JS page's folder code (`plain_js` there: 3 files at a time, each chunk written as
// the network hands it over) run in a dedicated worker, as the app's folder run is. Sent
// {urls, md5}, it writes the files into the browser's private folder and answers the
// milliseconds it took; with `md5` each file's md5 is also worked out as its chunks pass,
// by the folder run's own code (the bulk worker's wasm): the least a folder written beside
// the page and checked as the issue asks can take.
//
// It answers "ready" once the wasm is loaded, as the app's worker is loaded while the
// folder picker is open.

"use strict";

// Named, the function the bulk worker's wasm calls once loaded, rather than its serving
// a run over this worker's scope.
const loaded = new Promise((resolve) => (self.bulkEngineLoaded = resolve));
importScripts("bulk-worker_loader.js");
loaded.then(() => postMessage("ready"));

self.onmessage = async ({ data: { urls, md5 } }) => {
  const root = await navigator.storage.getDirectory();
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < urls.length) {
      const i = next++;
      const response = await fetch(urls[i], { cache: "no-store" });
      const handle = await root.getFileHandle("floor-" + i, { create: true });
      const writable = await handle.createWritable();
      const sum = md5 ? new wasm_bindgen.Md5() : null;
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        sum?.update(value);
        await writable.write(value);
      }
      await writable.close();
      sum?.finish();
    }
  };
  await Promise.all([lane(), lane(), lane()]);
  postMessage(performance.now() - started);
};
