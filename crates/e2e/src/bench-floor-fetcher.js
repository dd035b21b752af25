// The port floor of `cargo xtask bench download` (see bench-floor-worker.js): a dedicated
// worker that fetches the files 3 at a time and posts each chunk, as the network hands it
// over, through the port to the service worker answering the download, keeping at most
// 8 chunks on their way (one more for each "pull").

"use strict";

const LANES = 3;
const WINDOW = 8;

self.onmessage = ({ data: { urls, port } }) => {
  let credit = WINDOW;
  let waiting = [];
  port.onmessage = ({ data }) => {
    if (data === "go") {
      run(urls, port, send).then(() => port.postMessage("end"));
    } else if (data === "pull") {
      credit += 1;
      const wake = waiting;
      waiting = [];
      wake.forEach((resolve) => resolve());
    }
  };
  const send = async (chunk) => {
    while (credit <= 0) {
      await new Promise((resolve) => waiting.push(resolve));
    }
    credit -= 1;
    port.postMessage(chunk, [chunk.buffer]);
  };
};

async function run(urls, port, send) {
  let next = 0;
  const lane = async () => {
    while (next < urls.length) {
      const response = await fetch(urls[next++], { cache: "no-store" });
      if (!response.ok) {
        throw new Error(`${response.status} for ${response.url}`);
      }
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          break;
        }
        await send(value);
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
}
