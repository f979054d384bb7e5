import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clientConnectionFlags,
  featureGateFlags,
  flag,
  loggingFlags,
  type FlagSetSpec,
  type FlagSpec,
} from '@orch/component-base';
import { SIMULATED_EXIT_CODE_ANNOTATION } from '../runtime/podTimeline';

/** `--kubeconfig`, `--master` and `--orch-api-*` with the node agent's defaults (qps 50, burst 100). */
function nodeAgentClientFlags(): FlagSpec[] {
  return clientConnectionFlags('controller-manager').map((f) => {
    if (f.name === 'orch-api-qps') return { ...f, default: 50 };
    if (f.name === 'orch-api-burst') return { ...f, default: 100 };
    return f;
  });
}

function simulationFlags(): FlagSpec[] {
  return [
    flag({
      name: 'nodes',
      type: 'int32',
      default: 1,
      help: 'Number of simulated nodes this process runs.',
    }),
    flag({
      name: 'node-name-prefix',
      type: 'string',
      default: 'orch-node',
      help: 'Simulated nodes are named <prefix>-<i>, counting from 0.',
    }),
    flag({
      name: 'hostname-override',
      type: 'string',
      help: 'With --nodes=1, the name of the single node instead of <prefix>-0.',
    }),
    flag({
      name: 'node-labels',
      type: 'stringList',
      help: 'Labels to add when registering the nodes, as key=value pairs separated by commas.',
    }),
    flag({
      name: 'register-with-taints',
      type: 'stringList',
      help: 'Register the nodes with the given list of taints (comma separated "<key>=<value>:<effect>").',
    }),
    flag({
      name: 'cloud-provider',
      type: 'string',
      help:
        "The provider for cloud services: empty for none, or 'external' to register the nodes with the taint " +
        'node.cloudprovider.kubernetes.io/uninitialized=true:NoSchedule for a cloud controller manager to ' +
        'initialize, and leave the addresses it sets alone, as the kubelet does.',
    }),
    flag({ name: 'node-cpu', type: 'string', default: '4', help: 'CPU capacity of each node.' }),
    flag({ name: 'node-memory', type: 'string', default: '16Gi', help: 'Memory capacity of each node.' }),
    flag({ name: 'node-pods', type: 'int32', default: 110, help: 'Pod capacity of each node.' }),
    flag({
      name: 'node-ephemeral-storage',
      type: 'string',
      default: '100Gi',
      help: 'Ephemeral storage capacity of each node.',
    }),
    flag({
      name: 'node-reserved',
      type: 'stringList',
      help: 'Resources reserved for the system on each node, subtracted from capacity to give allocatable (e.g. cpu=100m,memory=512Mi).',
    }),
    flag({
      name: 'pod-start-latency',
      type: 'duration',
      default: 0,
      help: 'How long a pod stays ContainerCreating before its containers run.',
    }),
    flag({
      name: 'pod-run-duration',
      type: 'duration',
      default: 3000,
      help:
        'How long the containers of a pod with restartPolicy Never or OnFailure run before they exit. ' +
        `A pod annotated ${SIMULATED_EXIT_CODE_ANNOTATION}: "<n>" exits with code n instead of 0 (n != 0 fails it, ` +
        'and makes restartPolicy Always pods crash-loop).',
    }),
    flag({
      name: 'pod-runtime',
      type: 'string',
      default: 'simulated',
      help:
        "How the pods bound to the nodes run: 'simulated' (status follows --pod-start-latency and " +
        "--pod-run-duration; for many nodes) or 'process' (each container runs as a local process: " +
        'command and args with $(VAR) expansion, env, envFrom, workingDir, init containers, restartPolicy ' +
        'with crash back-off, probes on 127.0.0.1; stdout and stderr go to ' +
        '<root-dir>/pods/<namespace>_<name>_<uid>/<container>/<restartCount>.log; a container without workingDir ' +
        'runs in <container>/workdir there; the process finds the file for its termination message in ' +
        '$ORCH_TERMINATION_MESSAGE_PATH: <container>/termination-log there when terminationMessagePath is the ' +
        'default /dev/termination-log, else terminationMessagePath itself; a container with neither command nor ' +
        'args waits with reason CreateContainerConfigError).',
    }),
    flag({
      name: 'root-dir',
      type: 'string',
      default: join(tmpdir(), 'orch-node-agent'),
      help:
        "Directory of the agent's files: the process runtime's container logs, termination messages and " +
        'working directories, and the serving pair (see --cert-dir).',
    }),
    flag({
      name: 'node-writers',
      type: 'int32',
      default: 128,
      help: 'Most API writes (leases, node and pod status) in flight at once.',
    }),
  ];
}

function serverFlags(): FlagSpec[] {
  return [
    flag({
      name: 'port',
      type: 'int32',
      default: 0,
      help:
        'The port of the HTTPS server the nodes share (container logs at /containerLogs/<namespace>/<pod>/<container>; exec, attach and port forwarding at /exec, /attach and /portforward), ' +
        "reported as each node's kubelet endpoint; 0, the default, serves nothing (npm start serves it on the " +
        "kubelet's port, 10250), so that agents of several clusters may run on one machine.",
    }),
    flag({
      name: 'address',
      type: 'string',
      default: '0.0.0.0',
      help: 'The IP address the server listens on (0.0.0.0 or :: for all interfaces).',
    }),
    flag({
      name: 'node-ip',
      type: 'string',
      help:
        'The IP address every node reports as its InternalIP, where the apiserver reaches the server. With ' +
        '--pod-runtime=process the nodes also report the host name as their Hostname address, and the default is ' +
        "this host's first non-loopback IPv4 address, else 127.0.0.1; simulated nodes report simulated addresses " +
        '(172.18.0.1, 172.18.0.2, ...) unless it is given.',
    }),
    flag({
      name: 'client-ca-file',
      type: 'string',
      help:
        'Requests with a client certificate signed by an authority in this file are authenticated as its common ' +
        'name; every other request is refused (401).',
    }),
    flag({
      name: 'tls-cert-file',
      type: 'string',
      help: 'x509 certificate of the server; when neither it nor the key is given, the self-signed pair in --cert-dir is used.',
    }),
    flag({
      name: 'cert-dir',
      type: 'string',
      help:
        'Where the self-signed serving pair (kubelet.crt, kubelet.key) is kept when --tls-cert-file and ' +
        '--tls-private-key-file are not given: made on the first start, reused by the next (default <root-dir>/pki).',
    }),
    flag({ name: 'tls-private-key-file', type: 'string', help: 'The key of --tls-cert-file.' }),
  ];
}

function heartbeatFlags(): FlagSpec[] {
  return [
    flag({
      name: 'node-status-update-frequency',
      type: 'duration',
      default: 10_000,
      help: 'How often each node computes its status; it is posted when it changed or --node-status-report-frequency elapsed.',
    }),
    flag({
      name: 'node-status-report-frequency',
      type: 'duration',
      default: 300_000,
      help: 'How often each node posts its status when nothing changed.',
    }),
    flag({
      name: 'node-lease-duration-seconds',
      type: 'int32',
      default: 40,
      help: 'Duration of the node leases in seconds; each lease is renewed every quarter of it.',
    }),
  ];
}

function generalFlags(): FlagSpec[] {
  return [
    flag({ name: 'help', shorthand: 'h', type: 'bool', help: 'help for orch-node-agent' }),
    flag({ name: 'version', type: 'version', default: 'false', help: 'Print version information and quit' }),
  ];
}

/** Every flag orch-node-agent accepts, in Kubernetes-style help sections. */
export function nodeAgentFlagSets(): FlagSetSpec[] {
  return [
    { name: 'Simulation', flags: simulationFlags() },
    { name: 'Heartbeat', flags: heartbeatFlags() },
    { name: 'Server', flags: serverFlags() },
    { name: 'Client connection', flags: nodeAgentClientFlags() },
    { name: 'Feature gate', flags: featureGateFlags() },
    { name: 'Logs', flags: loggingFlags() },
    { name: 'Generic', flags: generalFlags() },
  ];
}
