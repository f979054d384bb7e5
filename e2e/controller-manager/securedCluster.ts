import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSecuredServer, type SecuredServer } from '@orch/apiserver';
import {
  loadKubeconfigFile,
  restConfigFromKubeconfig,
  RestClient,
  SharedInformerFactory,
} from '@orch/client';
import { MemoryEventRecorder } from '@orch/component-base';
import { ControllerManager } from '@orch/controller-manager';

const run = promisify(execFile);

/** An apiserver with RBAC (and its bootstrap policy) and some controllers of the manager, in-process. */
export interface SecuredCluster {
  api: SecuredServer;
  /** The admin's client (system:masters), which the controllers use too. */
  rest: RestClient;
  manager: ControllerManager;
  /** kubectl as the admin; `--as=<user>` and `--as-group=<group>` impersonate. */
  kubectl(...args: string[]): Promise<string>;
  /** Writes `manifest` (YAML or JSON) to a file of the server's directory and returns its path. */
  manifest(name: string, manifest: string): string;
  close(): Promise<void>;
}

export async function startSecuredCluster(controllers: string[]): Promise<SecuredCluster> {
  const api = await startSecuredServer({ authorizationMode: ['RBAC'] });
  const rest = new RestClient({
    ...restConfigFromKubeconfig(loadKubeconfigFile(api.kubeconfig)).config,
    qps: -1,
  });
  const informers = new SharedInformerFactory(rest, {});
  const manager = new ControllerManager({
    controllers,
    informers,
    clientFor: async () => rest,
    recorderFor: () => new MemoryEventRecorder(),
    workers: () => undefined,
    logger: {
      info: () => {},
      warning: () => {},
      error: (m) => (process.env.E2E_LOG ? process.stderr.write(m + '\n') : undefined),
    },
  });
  await manager.start();
  return {
    api,
    rest,
    manager,
    kubectl: async (...args) => {
      const { stdout } = await run('kubectl', ['--kubeconfig', api.kubeconfig, ...args], { timeout: 30_000 });
      return stdout;
    },
    manifest: (name, manifest) => {
      const file = join(api.dir, name);
      writeFileSync(file, manifest);
      return file;
    },
    close: async () => {
      await manager.stop();
      rest.close();
      await api.close();
    },
  };
}
