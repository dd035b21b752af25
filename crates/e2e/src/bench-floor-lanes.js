// The floors' fetching, shared by bench-floor-worker.js and bench-floor-fetcher.js (each
// imports it): the files fetched 3 at a time, not through the HTTP cache, each chunk handed
// to `take` (with the file's index) as the network hands it over; the next read waits for
// `take` to finish; `ended`, where given, is told each file's index at its end.

"use strict";

const LANES = 3;

async function fetchInLanes(urls, take, ended = () => {}) {
  let next = 0;
  const lane = async () => {
    while (next < urls.length) {
      const index = next++;
      const response = await fetch(urls[index], { cache: "no-store" });
      if (!response.ok) {
        throw new Error(`${response.status} for ${response.url}`);
      }
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          break;
        }
        await take(value, index);
      }
      ended(index);
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
}
