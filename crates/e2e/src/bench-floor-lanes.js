// The floors' fetching, shared by bench-floor-worker.js and bench-floor-fetcher.js (each
// imports it): the files fetched 3 at a time, not through the HTTP cache, each chunk handed
// to `take` as the network hands it over; the next read waits for `take` to finish.

"use strict";

const LANES = 3;

async function fetchInLanes(urls, take) {
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
        await take(value);
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
}
