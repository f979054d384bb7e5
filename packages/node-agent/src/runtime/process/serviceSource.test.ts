import type { Service } from '@orch/api';
import { SharedIndexInformer, type KubeList, type ListerWatcher } from '@orch/client';
import { ContainerConfigError } from './buildEnv';
import { lazyServices, SERVICES_NOT_SYNCED } from './serviceSource';

/** Lists `items` (or never answers), and watches without events until stopped. */
function listerWatcher(items: Service[] | undefined, calls: string[]): ListerWatcher<Service> {
  const pending = (signal?: AbortSignal) =>
    new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(new Error('stopped'))));
  return {
    list: (_opts, signal) => {
      calls.push('list');
      return items
        ? Promise.resolve({ metadata: { resourceVersion: '7' }, items } as KubeList<Service>)
        : pending(signal);
    },
    watch: (_opts, signal) => pending(signal),
  };
}

const db = { metadata: { namespace: 'ns1', name: 'db' }, spec: { clusterIP: '10.96.0.7' } } as Service;

describe('lazyServices', () => {
  const informers: SharedIndexInformer<Service>[] = [];
  afterEach(async () => {
    await Promise.all(informers.map((i) => i.stop()));
    informers.length = 0;
  });

  it('starts its informer on the first call only, then lists from its cache', async () => {
    const calls: string[] = [];
    let made = 0;
    const services = lazyServices(() => {
      made++;
      const i = new SharedIndexInformer<Service>(listerWatcher([db], calls));
      informers.push(i);
      return i;
    });
    expect(made).toBe(0);
    expect(await services()).toEqual([
      expect.objectContaining({ metadata: expect.objectContaining({ name: 'db' }) }),
    ]);
    expect(await services()).toHaveLength(1);
    expect(made).toBe(1);
    expect(calls).toEqual(['list']);
  });

  it('fails as the kubelet does while the services have not been listed', async () => {
    const services = lazyServices(() => {
      const i = new SharedIndexInformer<Service>(listerWatcher(undefined, []));
      informers.push(i);
      return i;
    }, 200);
    const err = await services().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContainerConfigError);
    expect((err as Error).message).toBe(SERVICES_NOT_SYNCED);
  });
});
