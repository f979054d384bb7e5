// Runs a @kubernetes/client-node informer on the pods of `default` (the library is an ES module,
// so it runs in its own process) and reports what it sees as JSON lines on stdout. Commands on
// stdin, one per line: start, stop, cache, exit.
import { createInterface } from 'node:readline';
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';

const kc = new KubeConfig();
kc.loadFromFile(process.argv[2]);
const core = kc.makeApiClient(CoreV1Api);
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');

const informer = makeInformer(kc, '/api/v1/namespaces/default/pods', async () => {
  const list = await core.listNamespacedPod({ namespace: 'default' });
  out({ event: 'LIST', names: list.items.map((p) => p.metadata.name), rv: list.metadata?.resourceVersion });
  return list;
});
const report = (event) => (pod) =>
  out({
    event,
    name: pod.metadata.name,
    rv: pod.metadata.resourceVersion,
    labels: pod.metadata.labels ?? {},
  });
informer.on('add', report('ADD'));
informer.on('update', report('UPDATE'));
informer.on('delete', report('DELETE'));
informer.on('connect', () => out({ event: 'CONNECT' }));
informer.on('error', (e) =>
  out({ event: 'ERROR', message: String(e?.message ?? e), code: e?.statusCode ?? e?.code }),
);

createInterface({ input: process.stdin }).on('line', (line) => {
  switch (line.trim()) {
    case 'start':
      informer.start().then(
        () => out({ event: 'STARTED' }),
        (e) => out({ event: 'ERROR', message: String(e?.message ?? e) }),
      );
      break;
    case 'stop':
      informer.stop().then(() => out({ event: 'STOPPED', rv: informer.latestResourceVersion() }));
      break;
    case 'cache':
      out({
        event: 'CACHE',
        names: informer
          .list('default')
          .map((p) => p.metadata.name)
          .sort(),
      });
      break;
    case 'exit':
      process.exit(0);
  }
});
