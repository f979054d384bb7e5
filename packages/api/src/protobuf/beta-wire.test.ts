import { CronJobKind, JobKind } from '../kinds/batch';
import { PodKind } from '../kinds/core/pod';
import { EndpointSliceKind } from '../kinds/discovery';
import { PodDisruptionBudgetKind } from '../kinds/policy';
import { protobufPrefix } from './envelope';
import { ProtobufCodec } from './protobuf-codec';
import { bytes, int, str } from '../testing/proto-wire';

/**
 * Kinds served at a beta version carry the fields of that version's Kubernetes message, and repeated
 * integers travel as Go writes them: bytes laid out by hand from the field numbers of
 * k8s.io/api/<group>/<version>/generated.proto.
 */
const envelope = (apiVersion: string, kind: string, raw: number[]): Uint8Array => {
  const typeMeta = [...str(1, apiVersion), ...str(2, kind)];
  return Uint8Array.from([...protobufPrefix, ...bytes(1, typeMeta), ...bytes(2, raw)]);
};
// meta/v1 Time: seconds 1
const time = (field: number, iso: string): number[] => bytes(field, int(1, Date.parse(iso) / 1000));
// LabelSelector matchLabels 1 (map entry key 1, value 2)
const selector = (app: string): number[] => bytes(1, [...str(1, 'app'), ...str(2, app)]);

describe('beta versions and repeated integers on the wire', () => {
  const codec = new ProtobufCodec([
    PodKind,
    JobKind,
    CronJobKind,
    PodDisruptionBudgetKind,
    EndpointSliceKind,
  ]);

  it('reads a batch/v1beta1 CronJob with the numbers of its CronJobSpec and JobTemplateSpec', () => {
    // PodSpec containers 2 (name 1, image 2), restartPolicy 3; JobSpec template 6 (PodTemplateSpec spec 2),
    // backoffLimit 7; JobTemplateSpec metadata 1 (labels 11), spec 2
    const jobSpec = [
      ...bytes(
        6,
        bytes(2, [...bytes(2, [...str(1, 'report'), ...str(2, 'report:1')]), ...str(3, 'OnFailure')]),
      ),
      ...int(7, 2),
    ];
    const jobTemplate = [
      ...bytes(1, bytes(11, [...str(1, 'app'), ...str(2, 'report')])),
      ...bytes(2, jobSpec),
    ];
    // CronJobSpec: schedule 1, startingDeadlineSeconds 2 (int64), concurrencyPolicy 3, suspend 4,
    // jobTemplate 5, successfulJobsHistoryLimit 6, failedJobsHistoryLimit 7, timeZone 8
    const spec = [
      ...str(1, '0 3 * * *'),
      ...int(2, 200),
      ...str(3, 'Forbid'),
      ...int(4, 1),
      ...bytes(5, jobTemplate),
      ...int(6, 5),
      ...int(7, 2),
      ...str(8, 'Etc/UTC'),
    ];
    // CronJobStatus: active 1 (ObjectReference kind 1, name 3), lastScheduleTime 4, lastSuccessfulTime 5
    const status = [
      ...bytes(1, [...str(1, 'Job'), ...str(3, 'report-1')]),
      ...time(4, '2026-11-22T03:00:00Z'),
      ...time(5, '2026-11-21T03:00:00Z'),
    ];
    const raw = [...bytes(1, str(1, 'report')), ...bytes(2, spec), ...bytes(3, status)];
    const json = {
      apiVersion: 'batch/v1beta1',
      kind: 'CronJob',
      metadata: { name: 'report' },
      spec: {
        schedule: '0 3 * * *',
        startingDeadlineSeconds: 200,
        concurrencyPolicy: 'Forbid',
        suspend: true,
        jobTemplate: {
          metadata: { labels: { app: 'report' } },
          spec: {
            template: {
              spec: { containers: [{ name: 'report', image: 'report:1' }], restartPolicy: 'OnFailure' },
            },
            backoffLimit: 2,
          },
        },
        successfulJobsHistoryLimit: 5,
        failedJobsHistoryLimit: 2,
        timeZone: 'Etc/UTC',
      },
      status: {
        active: [{ kind: 'Job', name: 'report-1' }],
        lastScheduleTime: '2026-11-22T03:00:00Z',
        lastSuccessfulTime: '2026-11-21T03:00:00Z',
      },
    };
    expect(codec.decode(envelope('batch/v1beta1', 'CronJob', raw))).toEqual(json);
    expect(codec.decode(codec.encode(json))).toEqual(json);
  });

  it('reads a policy/v1beta1 PodDisruptionBudget with its status map of times', () => {
    // PodDisruptionBudgetSpec: minAvailable 1 (IntOrString type 1, strVal 3), selector 2,
    // unhealthyPodEvictionPolicy 4
    const spec = [
      ...bytes(1, [...int(1, 1), ...str(3, '50%')]),
      ...bytes(2, selector('web')),
      ...str(4, 'AlwaysAllow'),
    ];
    // PodDisruptionBudgetStatus: observedGeneration 1, disruptedPods 2 (map<string, Time>),
    // disruptionsAllowed 3, currentHealthy 4, desiredHealthy 5, expectedPods 6
    const status = [
      ...int(1, 4),
      ...bytes(2, [...str(1, 'web-0'), ...time(2, '2026-11-22T21:00:00Z')]),
      ...int(3, 1),
      ...int(4, 3),
      ...int(5, 2),
      ...int(6, 3),
    ];
    const raw = [...bytes(1, str(1, 'web')), ...bytes(2, spec), ...bytes(3, status)];
    const json = {
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web' },
      spec: {
        minAvailable: '50%',
        selector: { matchLabels: { app: 'web' } },
        unhealthyPodEvictionPolicy: 'AlwaysAllow',
      },
      status: {
        observedGeneration: 4,
        disruptedPods: { 'web-0': '2026-11-22T21:00:00Z' },
        disruptionsAllowed: 1,
        currentHealthy: 3,
        desiredHealthy: 2,
        expectedPods: 3,
      },
    };
    expect(codec.decode(envelope('policy/v1beta1', 'PodDisruptionBudget', raw))).toEqual(json);
    expect(codec.decode(codec.encode(json))).toEqual(json);
  });

  it('reads a discovery.k8s.io/v1beta1 EndpointSlice with topology 5, nodeName 6 and hints 7', () => {
    // Endpoint: addresses 1, conditions 2 (ready 1, serving 2), hostname 3, targetRef 4, topology 5,
    // nodeName 6, hints 7 (forZones 1: name 1)
    const endpoint = [
      ...str(1, '10.244.0.5'),
      ...bytes(2, [...int(1, 1), ...int(2, 1)]),
      ...bytes(4, [...str(1, 'Pod'), ...str(2, 'default'), ...str(3, 'web-0')]),
      ...bytes(5, [...str(1, 'topology.kubernetes.io/zone'), ...str(2, 'zone-a')]),
      ...str(6, 'node-1'),
      ...bytes(7, bytes(1, str(1, 'zone-a'))),
    ];
    // EndpointSlice: addressType 4, endpoints 2, ports 3 (EndpointPort name 1, protocol 2, port 3)
    const port = [...str(1, 'http'), ...str(2, 'TCP'), ...int(3, 80)];
    const raw = [...bytes(1, str(1, 'web-abc')), ...bytes(2, endpoint), ...bytes(3, port), ...str(4, 'IPv4')];
    const json = {
      apiVersion: 'discovery.k8s.io/v1beta1',
      kind: 'EndpointSlice',
      metadata: { name: 'web-abc' },
      endpoints: [
        {
          addresses: ['10.244.0.5'],
          conditions: { ready: true, serving: true },
          targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0' },
          topology: { 'topology.kubernetes.io/zone': 'zone-a' },
          nodeName: 'node-1',
          hints: { forZones: [{ name: 'zone-a' }] },
        },
      ],
      ports: [{ name: 'http', protocol: 'TCP', port: 80 }],
      addressType: 'IPv4',
    };
    expect(codec.decode(envelope('discovery.k8s.io/v1beta1', 'EndpointSlice', raw))).toEqual(json);
    expect(codec.decode(codec.encode(json))).toEqual(json);
  });

  // proto2 repeated integers are not packed: Go writes one varint field per element
  it('writes repeated int64 and int32 fields one element per field, as Go does', () => {
    // PodSpec securityContext 14: PodSecurityContext supplementalGroups 4 (repeated int64)
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      spec: { securityContext: { supplementalGroups: [1000, 2000] } },
    };
    const podRaw = bytes(2, bytes(14, [...int(4, 1000), ...int(4, 2000)]));
    expect([...codec.encodeRaw(pod)]).toEqual(podRaw);
    expect(codec.decode(envelope('v1', 'Pod', podRaw))).toEqual(pod);

    // JobSpec podFailurePolicy 11: rules 1 (action 1, onExitCodes 2: operator 2, values 3 repeated int32)
    const rule = [...str(1, 'FailJob'), ...bytes(2, [...str(2, 'In'), ...int(3, 42), ...int(3, 43)])];
    const jobRaw = bytes(2, bytes(11, bytes(1, rule)));
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      spec: {
        podFailurePolicy: {
          rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42, 43] } }],
        },
      },
    };
    expect([...codec.encodeRaw(job)]).toEqual(jobRaw);
    expect(codec.decode(envelope('batch/v1', 'Job', jobRaw))).toEqual(job);
  });
});
