import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeKind, ServiceKind, type Node, type Service } from '@orch/api';
import { startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import {
  clientFor,
  loadKubeconfigFile,
  restConfigFromKubeconfig,
  RestClient,
  SharedInformerFactory,
  type TypedClient,
} from '@orch/client';
import { MemoryEventRecorder, type FeatureGates } from '@orch/component-base';
import type { CloudControllerOptions } from '../controllers/CloudControllerContext';
import { CloudControllerManager } from '../manager/CloudControllerManager';
import { LocalCloud } from '../providers/local/LocalCloud';

/** A real apiserver, the local cloud over a config file and some cloud controllers in-process. */
export interface CloudTestCluster {
  api: TestAPIServer;
  rest: RestClient;
  nodes: TypedClient<Node>;
  services: TypedClient<Service>;
  cloud: LocalCloud;
  /** The cloud config file; rewrite it to change the inventory. */
  configFile: string;
  recorder: MemoryEventRecorder;
  close(): Promise<void>;
}

/** Options fast enough for tests. */
export const TEST_CLOUD_OPTIONS: CloudControllerOptions = {
  clusterName: 'orch',
  clusterCIDRs: ['10.244.0.0/16'],
  allocateNodeCIDRs: true,
  configureCloudRoutes: true,
  nodeMonitorPeriodMs: 100,
  nodeStatusUpdateFrequencyMs: 200,
  routeReconciliationPeriodMs: 100,
};

export async function startCloudTestCluster(
  controllers: string[],
  cloudConfig = '',
  options: Partial<CloudControllerOptions> = {},
  /** The feature gates of the apiserver and the controllers; their defaults unless given. */
  featureGates?: FeatureGates,
  /** Run against the apiserver before the controllers start (objects that are there at their start). */
  beforeStart?: (nodes: TypedClient<Node>) => Promise<void>,
): Promise<CloudTestCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-ccm-test-'));
  const configFile = join(dir, 'cloud.yaml');
  writeFileSync(configFile, cloudConfig);
  const api = await startTestAPIServer({ admissionPlugins: [], ...(featureGates ? { featureGates } : {}) });
  const rest = new RestClient({
    ...restConfigFromKubeconfig(loadKubeconfigFile(api.kubeconfig)).config,
    qps: -1,
  });
  const cloud = new LocalCloud(configFile);
  const recorder = new MemoryEventRecorder();
  const informers = new SharedInformerFactory(rest, {});
  const manager = new CloudControllerManager({
    controllers,
    cloud,
    options: { ...TEST_CLOUD_OPTIONS, ...options },
    informers,
    clientFor: async () => rest,
    recorderFor: () => recorder,
    workers: () => 2,
    featureGates,
    logger: {
      info: () => {},
      warning: () => {},
      error: (m) => (process.env.CCM_TEST_LOG ? process.stderr.write(m + '\n') : undefined),
    },
  });
  await beforeStart?.(clientFor(rest, NodeKind));
  await manager.start();
  return {
    api,
    rest,
    nodes: clientFor(rest, NodeKind),
    services: clientFor(rest, ServiceKind),
    cloud,
    configFile,
    recorder,
    async close() {
      await manager.stop();
      await cloud.close();
      rest.close();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
