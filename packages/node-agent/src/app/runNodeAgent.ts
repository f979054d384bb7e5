import { buildConfigFromFlags, RestClient } from '@orch/client';
import { version, type DaemonContext, type DaemonHandle } from '@orch/component-base';
import type { NodeAgentConfiguration } from './nodeAgentConfig';
import { NodeServer } from '../server/NodeServer';
import { NodeAgent } from './NodeAgent';

/** The API client from --kubeconfig/--master and the --orch-api-* flags. */
export function nodeAgentRestClient(cfg: NodeAgentConfiguration, component: string): RestClient {
  const { kubeconfig, master, qps, burst, contentType } = cfg.clientConnection;
  const { config } = buildConfigFromFlags({
    ...(kubeconfig ? { kubeconfig } : {}),
    ...(master ? { master } : {}),
  });
  return new RestClient({
    ...config,
    qps,
    burst,
    contentType,
    userAgent: `${component}/${version.gitVersion}`,
  });
}

/** orch-node-agent's main: runs the simulated nodes until SIGTERM, then stops their heartbeats. */
export async function runNodeAgent(ctx: DaemonContext<NodeAgentConfiguration>): Promise<DaemonHandle> {
  const rest = nodeAgentRestClient(ctx.config, ctx.name);
  const agent = new NodeAgent({ rest, config: ctx.config, logger: ctx.logger, version: version.gitVersion });
  ctx.health.add(
    {
      name: 'nodes-registered',
      check: () => {
        if (!agent.heartbeats.allRegistered()) throw new Error('not every node is registered yet');
      },
    },
    ['readyz'],
  );
  const { server: serving } = ctx.config;
  const server =
    serving.port > 0
      ? new NodeServer({
          ...serving,
          runtime: agent.runtime,
          stats: agent.stats,
          pods: () => agent.pods(),
          logger: ctx.logger,
        })
      : undefined;
  try {
    await server?.start();
    await agent.start();
  } catch (err) {
    await server?.close();
    await agent.stop();
    rest.close();
    throw err;
  }
  return {
    stop: async () => {
      await server?.close();
      await agent.stop();
      rest.close();
    },
  };
}
