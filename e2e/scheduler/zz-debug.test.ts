import { PodKind } from '@orch/api';
import { startTestAPIServer } from '@orch/apiserver';
import { buildConfigFromFlags, clientFor, RestClient } from '@orch/client';

it('binds', async () => {
  const api = await startTestAPIServer({ admissionPlugins: [] });
  const rest = new RestClient(buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config);
  const pods = clientFor(rest, PodKind, { namespace: 'default' });
  const p = await pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', namespace: 'default' }, spec: { containers: [{ name: 'a', image: 'b' }] } } as never);
  console.log('created', p.metadata?.uid);
  const t = Date.now();
  const r = await Promise.race([pods.bind(p, 'node-1').then((x) => ['ok', x]).catch((e) => ['err', String(e)]), new Promise((res) => setTimeout(() => res('timeout'), 5000))]);
  console.log(r, Date.now() - t, (await pods.get('x')).spec?.nodeName);
  rest.close();
  await api.close();
});
