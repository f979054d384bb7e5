import type { DaemonSpec } from '@orch/component-base';
import { buildNodeAgentConfig, nodeAgentValidators, type NodeAgentConfiguration } from './nodeAgentConfig';
import { nodeAgentFlagSets } from './nodeAgentFlags';
import { runNodeAgent } from './runNodeAgent';

/** orch-node-agent as a daemon for runDaemon. */
export function nodeAgentDaemon(): DaemonSpec<NodeAgentConfiguration> {
  return {
    name: 'orch-node-agent',
    description:
      'The orch node agent runs simulated nodes: it registers a Node for each, renews their Leases in orch-node-lease, posts their status, and plays a container runtime for the pods bound to them: simulated, or local processes with --pod-runtime=process.',
    flagSets: nodeAgentFlagSets(),
    validators: nodeAgentValidators(),
    buildConfig: (flags) => buildNodeAgentConfig(flags),
    run: runNodeAgent,
  };
}
