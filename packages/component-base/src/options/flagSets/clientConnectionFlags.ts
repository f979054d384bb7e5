import { PROTOBUF_CONTENT_TYPE, type DaemonKind } from '../daemonKind';
import { flag, type FlagSpec } from '../flagSpec';

/** `--kubeconfig`, `--master` and the `--orch-api-*` flags with each daemon's defaults. */
export function clientConnectionFlags(daemon: DaemonKind): FlagSpec[] {
  const scheduler = daemon === 'scheduler';
  const viaConfig = scheduler ? { deprecated: 'use the --config file instead.' } : {};
  return [
    flag({
      name: 'kubeconfig',
      type: 'string',
      help: 'Path to a kubeconfig file with authorization and master location information.',
      configKey: 'clientConnection.kubeconfig',
      ...viaConfig,
    }),
    flag({
      name: 'master',
      type: 'string',
      help: 'The address of the API server (overrides any value in kubeconfig).',
    }),
    flag({
      name: 'orch-api-burst',
      type: 'int32',
      default: scheduler ? 100 : 30,
      help: 'Burst to use while talking with the API server.',
      configKey: 'clientConnection.burst',
      ...viaConfig,
    }),
    flag({
      name: 'orch-api-content-type',
      type: 'string',
      default: PROTOBUF_CONTENT_TYPE,
      help: 'Content type of requests sent to the API server.',
      configKey: 'clientConnection.contentType',
      ...viaConfig,
    }),
    flag({
      name: 'orch-api-qps',
      type: 'float32',
      default: scheduler ? 50 : 20,
      help: 'QPS to use while talking with the API server.',
      configKey: 'clientConnection.qps',
      ...viaConfig,
    }),
  ];
}
