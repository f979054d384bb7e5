import { SharedInformerFactory, type RestClient } from '@orch/client';
import { FlagError, MemoryEventRecorder } from '@orch/component-base';
import type { CloudProvider } from '../cloudprovider/CloudProvider';
import type { CloudControllerDescriptor } from '../controllers/CloudControllerContext';
import { TEST_CLOUD_OPTIONS } from '../testing/startCloudTestCluster';
import { CloudControllerManager, type CloudControllerManagerOptions } from './CloudControllerManager';

/** A cloud with no capabilities at all. */
const bareCloud: CloudProvider = {
  providerName: () => 'bare',
  instances: () => undefined,
  loadBalancer: () => undefined,
  routes: () => undefined,
  zones: () => undefined,
  hasClusterID: () => true,
  close: async () => undefined,
};

function manager(
  controllers: string[],
  overrides: Partial<CloudControllerManagerOptions> = {},
): { manager: CloudControllerManager; log: string[] } {
  const log: string[] = [];
  const informers = new SharedInformerFactory(undefined, {
    listerWatcherFor: () => {
      throw new Error('no informer expected');
    },
  });
  return {
    log,
    manager: new CloudControllerManager({
      controllers,
      cloud: bareCloud,
      options: TEST_CLOUD_OPTIONS,
      informers,
      clientFor: async () => ({}) as RestClient,
      recorderFor: () => new MemoryEventRecorder(),
      workers: (flag) => (flag === 'concurrent-service-syncs' ? 3 : undefined),
      logger: {
        info: (m) => log.push(`I ${m}`),
        warning: (m) => log.push(`W ${m}`),
        error: (m) => log.push(`E ${m}`),
      },
      ...overrides,
    }),
  };
}

describe('--controllers', () => {
  test('* enables all four; -name disables; an unknown name is an error naming it', () => {
    expect(CloudControllerManager.enabled(['*'])).toEqual([
      'cloud-node',
      'cloud-node-lifecycle',
      'route',
      'service',
    ]);
    expect(CloudControllerManager.enabled(['*', '-route', '-service'])).toEqual([
      'cloud-node',
      'cloud-node-lifecycle',
    ]);
    expect(CloudControllerManager.enabled(['service'])).toEqual(['service']);
    expect(() => CloudControllerManager.enabled(['*', 'nodeipam'])).toThrow(FlagError);
    expect(() => CloudControllerManager.enabled(['-nosuch'])).toThrow(
      '--controllers: "nosuch" is not in the list of known controllers',
    );
  });
});

describe('starting controllers', () => {
  test('controllers whose cloud capability is missing are skipped, as is route without CIDR allocation', async () => {
    const { manager: m, log } = manager(['*'], {
      options: { ...TEST_CLOUD_OPTIONS, allocateNodeCIDRs: false },
    });
    expect(await m.start()).toEqual([]);
    expect(log).toContain(
      'I Will not configure cloud provider routes, --configure-cloud-routes: true, --allocate-node-cidrs: false',
    );
    expect(log).toContain(
      'W service controller disabled: the cloud provider does not support load balancers',
    );
    expect(log).toContain('W Skipping "cloud-node"');
    await m.stop();
  });

  test('workers come from the concurrency flag; each controller gets the cloud and options', async () => {
    const seen: [string, number, string, string][] = [];
    const fake = (name: string, concurrencyFlag?: string): CloudControllerDescriptor => ({
      concurrencyFlag,
      start: (ctx) => {
        seen.push([name, ctx.workers, ctx.cloud.providerName(), ctx.options.clusterName]);
        return { stop: async () => undefined };
      },
    });
    const { manager: m, log } = manager(['*', '-cloud-node'], {
      registry: {
        'cloud-node': fake('cloud-node'),
        'cloud-node-lifecycle': fake('cloud-node-lifecycle'),
        route: fake('route'),
        service: fake('service', 'concurrent-service-syncs'),
      },
    });
    expect(await m.start()).toEqual(['cloud-node-lifecycle', 'route', 'service']);
    expect(seen).toEqual([
      ['cloud-node-lifecycle', 1, 'bare', 'orch'],
      ['route', 1, 'bare', 'orch'],
      ['service', 3, 'bare', 'orch'],
    ]);
    expect(log).toContain('I Started "service"');
    await m.stop();
  });
});
