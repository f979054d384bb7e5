import { EventEmitter } from 'node:events';
import { startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import { buildConfigFromFlags, RestClient } from '@orch/client';
import { runDaemon } from '@orch/component-base';
import { nodeAgentDaemon } from '@orch/node-agent';

/** A real apiserver and orch-node-agent run in-process against it. */
export interface AgentCluster {
  api: TestAPIServer;
  rest: RestClient;
  /** What the agent wrote to standard error so far. */
  stderr: string[];
  /** SIGTERM to the agent (once); resolves with its exit code. */
  stop(): Promise<number>;
  /** Stops the agent and the apiserver. */
  close(): Promise<void>;
}

/** Starts an apiserver and a node agent given `argv` (besides its kubeconfig and a high API rate). */
export async function startAgentCluster(argv: string[]): Promise<AgentCluster> {
  const api = await startTestAPIServer({ admissionPlugins: [] });
  const rest = new RestClient(buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config);
  const signals = new EventEmitter();
  const stderr: string[] = [];
  const exited = runDaemon(nodeAgentDaemon(), {
    argv: [`--kubeconfig=${api.kubeconfig}`, '--orch-api-qps=500', '--orch-api-burst=500', ...argv],
    stdout: { write: () => true },
    stderr: { write: (t: string) => stderr.push(t) },
    exit: () => undefined,
    signals,
  });
  let stopped: Promise<number> | undefined;
  const stop = (): Promise<number> => {
    if (!stopped) {
      signals.emit('SIGTERM');
      stopped = exited;
    }
    return stopped;
  };
  return {
    api,
    rest,
    stderr,
    stop,
    async close() {
      await stop();
      rest.close();
      await api.close();
    },
  };
}
