// Download Explorer's folder worker: a dedicated worker that runs a "Download to a folder"
// (the bulk worker's wasm, crates/bulk-worker, which it loads) beside the page. The wasm
// keeps the queue, asks for each file and hashes it; this script writes a file's answer
// into the folder (bulkWriteFile below, called from the wasm), so a file's read and write
// steps are awaited here, not each one across into the wasm and back: a folder of small
// files awaits about ten browser promises a file.

"use strict";

// How many bytes are gathered before they are handed to the browser. Each write is a
// round trip to the browser's file process: a network chunk (tens of kB) a write held a
// 1 GB download to a seventh of what curl reaches.
const WRITE_BATCH = 4 * 1024 * 1024;

// Writes `body` (a ReadableStream, or null for nothing) into `folder` as `name` from byte
// `at` on, keeping the bytes before it; `expected` is how many bytes are to come, when
// known (a smaller file gets a batch its own size). `passed(chunk)`, when given, is told
// each chunk as it passes (the wasm hashes and counts it).
//
// Bytes are gathered into batches, and a batch is written while the next is gathered.
// The file is closed on failure too, so what arrived is kept for resuming. Answers null
// once the file is saved, or [step, message] where it failed: "read" (the answer broke
// off or was stopped; the wasm knows which), "write" or "save".
self.bulkWriteFile = async (folder, name, at, expected, body, passed) => {
  let writable;
  try {
    const handle = await folder.getFileHandle(name, { create: true });
    writable = await handle.createWritable({ keepExistingData: at > 0 });
    if (at > 0) {
      await writable.seek(at);
      await writable.truncate(at);
    }
  } catch (error) {
    body?.cancel().catch(() => {});
    return ["write", said(error)];
  }
  const capacity = Math.min(Math.max(expected ?? WRITE_BATCH, 1), WRITE_BATCH);
  let batch = null;
  let spare = null;
  let filled = 0;
  // The write in flight; its failure is read when it is awaited.
  let pending = null;
  const send = async (bytes) => {
    await pending;
    pending = writable.write(bytes);
    pending.catch(() => {});
  };
  const flush = async () => {
    if (filled > 0) {
      const gathered = batch.subarray(0, filled);
      filled = 0;
      await send(gathered);
      [batch, spare] = [spare, batch];
    }
  };
  let failed = null;
  const reader = body?.getReader();
  while (reader && !failed) {
    let next;
    try {
      next = await reader.read();
    } catch (error) {
      failed = ["read", said(error)];
      break;
    }
    if (next.done) break;
    const chunk = next.value;
    passed?.(chunk);
    try {
      if (filled + chunk.length > (batch?.length ?? 0)) await flush();
      if (chunk.length >= capacity) {
        // The network's own buffer: never reused, so it is written as it is.
        await send(chunk);
        continue;
      }
      batch ??= new Uint8Array(capacity);
      batch.set(chunk, filled);
      filled += chunk.length;
    } catch (error) {
      reader.cancel().catch(() => {});
      failed = ["write", said(error)];
    }
  }
  try {
    await flush();
    await pending;
  } catch (error) {
    failed ??= ["write", said(error)];
  }
  try {
    await writable.close();
  } catch (error) {
    failed ??= ["save", said(error)];
  }
  return failed;
};

// What a failed browser call threw, as the browser says it.
function said(error) {
  return String(error?.message ?? error ?? "");
}

importScripts("bulk-worker_loader.js");
