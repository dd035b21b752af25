// The port floor of `cargo xtask bench download` (see bench-floor-worker.js): a dedicated
// worker that fetches the files 3 at a time and posts each chunk, as the network hands it
// over, through the port to the service worker answering the download, keeping at most
// 8 chunks on their way (one more for each "pull").

"use strict";

importScripts("bench-floor-lanes.js");

const WINDOW = 8;

self.onmessage = ({ data: { urls, port } }) => {
  let credit = WINDOW;
  let waiting = [];
  port.onmessage = ({ data }) => {
    if (data === "go") {
      fetchInLanes(urls, send).then(() => port.postMessage("end"));
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
