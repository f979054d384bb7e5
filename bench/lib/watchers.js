'use strict';
// Watch streams in a worker thread, so that reading them does not delay the requests the main
// thread sends (a real deployment's watchers run in other processes). Receive times are taken with
// process.hrtime.bigint(), which is the same clock in every thread of the process.
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const { join } = require('node:path');
const { ApiClient, eventTypeAndName } = require('./api-client');

/**
 * Opens `count` watches of `path` in a worker thread. `ready` resolves once every watch has its
 * response headers; `stop()` ends them and resolves with the receive times of ADDED events by
 * object name (one entry per watcher and event).
 */
function startWatchers({ url, tls, path, count }) {
  const worker = new Worker(join(__dirname, 'watchers.js'), { workerData: { url, tls, path, count } });
  let resolveReady;
  const ready = new Promise((resolve, reject) => {
    resolveReady = resolve;
    worker.once('error', reject);
  });
  let delivered = 0;
  let onResult;
  worker.on('message', (m) => {
    if (m.type === 'ready') resolveReady();
    else if (m.type === 'progress') delivered = m.delivered;
    else if (m.type === 'result') onResult(m.received);
  });
  return {
    ready,
    delivered: () => delivered,
    stop: () =>
      new Promise((resolve) => {
        onResult = (received) => {
          void worker.terminate();
          resolve(received);
        };
        worker.postMessage('stop');
      }),
  };
}

if (!isMainThread) {
  const { url, tls, path, count } = workerData;
  const client = new ApiClient(url, tls);
  /** [name, receivedAt] of every ADDED event. */
  const received = [];
  const stops = [];
  let open = 0;
  for (let w = 0; w < count; w++) {
    stops.push(
      client.watch(
        path,
        (ev, at) => {
          if (ev.type === 'ADDED') received.push([ev.object.metadata.name, at]);
        },
        eventTypeAndName,
        () => {
          if (++open === count) parentPort.postMessage({ type: 'ready' });
        },
      ),
    );
  }
  const progress = setInterval(
    () => parentPort.postMessage({ type: 'progress', delivered: received.length }),
    20,
  );
  parentPort.on('message', () => {
    clearInterval(progress);
    for (const stop of stops) stop();
    parentPort.postMessage({ type: 'result', received });
  });
}

module.exports = { startWatchers };
