'use strict';
// Watch streams in a worker thread, so that reading them does not delay the requests the main
// thread sends (a real deployment's watchers run in other processes). Receive times are taken with
// process.hrtime.bigint(), which is the same clock in every thread of the process. One thread serves
// every round of a benchmark: its code is optimized by the unmeasured round, like the server's.
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const { join } = require('node:path');
const { ApiClient, eventTypeAndName } = require('./api-client');

/**
 * A worker thread for watches of one server. `watch(path, count)` opens `count` watches of `path`:
 * its `ready` resolves once every watch has its response headers; its `stop()` ends them and resolves
 * with the receive times of ADDED events by object name (one entry per watcher and event). One round
 * at a time; `close()` ends the thread.
 */
function startWatcherThread({ url, tls }) {
  const worker = new Worker(join(__dirname, 'watchers.js'), { workerData: { url, tls } });
  let round;
  worker.on('message', (m) => {
    if (m.type === 'ready') round?.resolveReady();
    else if (m.type === 'progress' && round) round.delivered = m.delivered;
    else if (m.type === 'result') round?.onResult(m.received);
  });
  worker.on('error', (e) => round?.rejectReady(e));
  return {
    watch(path, count) {
      const current = { delivered: 0 };
      round = current;
      const ready = new Promise((resolve, reject) => {
        current.resolveReady = resolve;
        current.rejectReady = reject;
      });
      worker.postMessage({ type: 'watch', path, count });
      return {
        ready,
        delivered: () => current.delivered,
        stop: () =>
          new Promise((resolve) => {
            current.onResult = resolve;
            worker.postMessage({ type: 'stop' });
          }),
      };
    },
    close: () => worker.terminate(),
  };
}

if (!isMainThread) {
  const { url, tls } = workerData;
  const client = new ApiClient(url, tls);
  /** [name, receivedAt] of every ADDED event of the current round. */
  let received = [];
  let stops = [];
  let progress;
  parentPort.on('message', (m) => {
    if (m.type === 'watch') {
      received = [];
      let open = 0;
      for (let w = 0; w < m.count; w++) {
        stops.push(
          client.watch(
            m.path,
            (ev, at) => {
              if (ev.type === 'ADDED') received.push([ev.object.metadata.name, at]);
            },
            eventTypeAndName,
            () => {
              if (++open === m.count) parentPort.postMessage({ type: 'ready' });
            },
          ),
        );
      }
      progress = setInterval(
        () => parentPort.postMessage({ type: 'progress', delivered: received.length }),
        20,
      );
    } else if (m.type === 'stop') {
      clearInterval(progress);
      for (const stop of stops) stop();
      stops = [];
      parentPort.postMessage({ type: 'result', received });
    }
  });
}

module.exports = { startWatcherThread };
