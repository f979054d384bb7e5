import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import { errorMessage, type FieldError } from '../../validation/field-error';
import {
  ControllerRevisionKind,
  ControllerRevisionSchema,
  DaemonSetKind,
  DaemonSetSpecSchema,
  DaemonSetStatusSchema,
  DaemonSetUpdateStrategySchema,
  DeploymentConditionSchema,
  DeploymentKind,
  DeploymentSpecSchema,
  DeploymentStatusSchema,
  DeploymentStrategySchema,
  ReplicaSetKind,
  ReplicaSetSpecSchema,
  ReplicaSetStatusSchema,
  RollingUpdateDaemonSetSchema,
  RollingUpdateDeploymentSchema,
  RollingUpdateStatefulSetStrategySchema,
  StatefulSetKind,
  StatefulSetOrdinalsSchema,
  StatefulSetPersistentVolumeClaimRetentionPolicySchema,
  StatefulSetSpecSchema,
  StatefulSetStatusSchema,
  StatefulSetUpdateStrategySchema,
  appsKinds,
  type DaemonSet,
  type Deployment,
  type ReplicaSet,
  type StatefulSet,
} from './index';
import { selectorStringCell, validateWorkloadTemplate } from './index';

const node = (schema: TSchema, name: string) =>
  (schema as unknown as { properties: Record<string, Record<string, unknown>> }).properties[name]!;
const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );
const run = (schema: TSchema, value: unknown, path: string): string[] =>
  (structHooks(schema)!.validate!(value, path, { root: value }) as FieldError[]).map(errorMessage);
const defaulted = <T>(schema: TSchema, value: T): T => {
  // Constant defaults of the struct's own fields first, then its hook, as the defaulting engine does.
  for (const [name, field] of Object.entries(
    (schema as unknown as { properties: Record<string, { default?: unknown }> }).properties,
  )) {
    const v = value as Record<string, unknown>;
    if (v[name] === undefined && field.default !== undefined) v[name] = structuredClone(field.default);
  }
  structHooks(schema)?.defaults?.(value);
  return value;
};

const template = (labels: Record<string, string>, restartPolicy = 'Always') => ({
  metadata: { labels },
  spec: {
    restartPolicy,
    containers: [
      { name: 'web', image: 'nginx:1.19' },
      { name: 'log', image: 'busybox' },
    ],
  },
});
const now = new Date('2021-01-01T00:02:00Z');
const meta = (name: string) => ({ name, namespace: 'default', creationTimestamp: '2021-01-01T00:00:00Z' });

describe('apps/v1 declarations', () => {
  it('declares the five kinds with short names, categories and subresources', () => {
    expect(appsKinds.map((k) => [k.kind, k.plural, k.shortNames, k.categories])).toEqual([
      ['Deployment', 'deployments', ['deploy'], ['all']],
      ['ReplicaSet', 'replicasets', ['rs'], ['all']],
      ['DaemonSet', 'daemonsets', ['ds'], ['all']],
      ['StatefulSet', 'statefulsets', ['sts'], ['all']],
      ['ControllerRevision', 'controllerrevisions', undefined, undefined],
    ]);
    const scale = {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    };
    expect(DeploymentKind.subresources).toEqual({ status: true, scale });
    expect(ReplicaSetKind.subresources).toEqual({ status: true, scale });
    expect(StatefulSetKind.subresources).toEqual({ status: true, scale });
    expect(DaemonSetKind.subresources).toEqual({ status: true });
    expect(
      ReplicaSetKind.selectableFields!['status.replicas']!({ status: { replicas: 3 } } as ReplicaSet),
    ).toBe('3');
  });

  it('uses Kubernetes protobuf numbers', () => {
    expect(protos(DeploymentSpecSchema)).toEqual({
      replicas: 1,
      selector: 2,
      template: 3,
      strategy: 4,
      minReadySeconds: 5,
      revisionHistoryLimit: 6,
      paused: 7,
      progressDeadlineSeconds: 9,
    });
    expect(protos(DeploymentStatusSchema)).toEqual({
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 3,
      readyReplicas: 7,
      availableReplicas: 4,
      unavailableReplicas: 5,
      conditions: 6,
      collisionCount: 8,
    });
    expect(protos(DeploymentConditionSchema)).toEqual({
      type: 1,
      status: 2,
      lastUpdateTime: 6,
      lastTransitionTime: 7,
      reason: 4,
      message: 5,
    });
    expect(protos(DeploymentStrategySchema)).toEqual({ type: 1, rollingUpdate: 2 });
    expect(protos(RollingUpdateDeploymentSchema)).toEqual({ maxUnavailable: 1, maxSurge: 2 });
    expect(protos(ReplicaSetSpecSchema)).toEqual({
      replicas: 1,
      minReadySeconds: 4,
      selector: 2,
      template: 3,
    });
    expect(protos(ReplicaSetStatusSchema)).toEqual({
      replicas: 1,
      fullyLabeledReplicas: 2,
      readyReplicas: 4,
      availableReplicas: 5,
      observedGeneration: 3,
      conditions: 6,
    });
    expect(protos(DaemonSetSpecSchema)).toEqual({
      selector: 1,
      template: 2,
      updateStrategy: 3,
      minReadySeconds: 4,
      revisionHistoryLimit: 6,
    });
    expect(protos(DaemonSetStatusSchema)).toEqual({
      currentNumberScheduled: 1,
      numberMisscheduled: 2,
      desiredNumberScheduled: 3,
      numberReady: 4,
      observedGeneration: 5,
      updatedNumberScheduled: 6,
      numberAvailable: 7,
      numberUnavailable: 8,
      collisionCount: 9,
      conditions: 10,
    });
    expect(protos(StatefulSetSpecSchema)).toEqual({
      replicas: 1,
      selector: 2,
      template: 3,
      volumeClaimTemplates: 4,
      serviceName: 5,
      podManagementPolicy: 6,
      updateStrategy: 7,
      revisionHistoryLimit: 8,
      minReadySeconds: 9,
      persistentVolumeClaimRetentionPolicy: 10,
      ordinals: 11,
    });
    expect(protos(RollingUpdateStatefulSetStrategySchema)).toEqual({ partition: 1, maxUnavailable: 2 });
    expect(protos(StatefulSetPersistentVolumeClaimRetentionPolicySchema)).toEqual({
      whenDeleted: 1,
      whenScaled: 2,
    });
    expect(protos(StatefulSetOrdinalsSchema)).toEqual({ start: 1 });
    expect(protos(RollingUpdateDaemonSetSchema)).toEqual({ maxUnavailable: 1, maxSurge: 2 });
    expect(protos(StatefulSetStatusSchema)).toEqual({
      observedGeneration: 1,
      replicas: 2,
      readyReplicas: 3,
      currentReplicas: 4,
      updatedReplicas: 5,
      currentRevision: 6,
      updateRevision: 7,
      collisionCount: 9,
      conditions: 10,
      availableReplicas: 11,
    });
    expect(protos(ControllerRevisionSchema)).toMatchObject({ metadata: 1, data: 2, revision: 3 });
    expect(node(ControllerRevisionSchema, 'revision')[OrchKeyword.protoType]).toBe('int64');
  });

  it('carries Kubernetes merge metadata', () => {
    expect(
      (DeploymentStrategySchema as unknown as Record<string, unknown>)['x-kubernetes-patch-strategy'],
    ).toBe('retainKeys');
    expect(node(DeploymentSpecSchema, 'strategy')['x-kubernetes-patch-strategy']).toBe('retainKeys');
    for (const status of [
      DeploymentStatusSchema,
      ReplicaSetStatusSchema,
      DaemonSetStatusSchema,
      StatefulSetStatusSchema,
    ]) {
      expect(node(status, 'conditions')['x-kubernetes-patch-merge-key']).toBe('type');
      expect(node(status, 'conditions')['x-kubernetes-patch-strategy']).toBe('merge');
    }
    for (const spec of [DeploymentSpecSchema, ReplicaSetSpecSchema, DaemonSetSpecSchema]) {
      expect(node(spec, 'selector')[OrchKeyword.immutable]).toBe(true);
    }
    // A StatefulSet's selector is covered by its broader update rule (one error, as Kubernetes reports).
    expect(node(StatefulSetSpecSchema, 'selector')[OrchKeyword.immutable]).toBeUndefined();
  });
});

describe('Deployment', () => {
  it('defaults replicas, strategy, history and progress deadline with pointer semantics', () => {
    const spec = defaulted(DeploymentSpecSchema, { replicas: 0 } as Record<string, unknown>);
    expect(spec).toMatchObject({
      replicas: 0,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: {},
    });
    const strategy = defaulted(DeploymentStrategySchema, {} as Record<string, unknown>);
    expect(strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    });
    expect(defaulted(DeploymentStrategySchema, { rollingUpdate: { maxSurge: 0 } })).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: 0 },
    });
    expect(defaulted(DeploymentStrategySchema, { type: 'Recreate' })).toEqual({ type: 'Recreate' });
    expect(defaulted(DeploymentSpecSchema, {} as Record<string, unknown>).replicas).toBe(1);
  });

  it('defaults an absent selector to the template labels, and keeps a given one', () => {
    const spec: Record<string, unknown> = { template: template({ app: 'web', tier: 'fe' }) };
    defaulted(DeploymentSpecSchema, spec);
    expect(spec.selector).toEqual({ matchLabels: { app: 'web', tier: 'fe' } });
    expect(run(DeploymentSpecSchema, spec, 'spec')).toEqual([]);
    const given = defaulted(DeploymentSpecSchema, {
      selector: { matchLabels: { app: 'web' } },
      template: template({ app: 'web', tier: 'fe' }),
    });
    expect(given.selector).toEqual({ matchLabels: { app: 'web' } });
    // no labels to default from: the selector stays missing, and the spec is invalid
    const bare: Record<string, unknown> = { template: template({}) };
    defaulted(DeploymentSpecSchema, bare);
    expect(bare.selector).toBeUndefined();
    expect(run(DeploymentSpecSchema, bare, 'spec')).not.toEqual([]);
  });

  it('validates the spec with Kubernetes messages', () => {
    const ok = {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: template({ app: 'web', tier: 'fe' }),
      progressDeadlineSeconds: 600,
    };
    expect(run(DeploymentSpecSchema, ok, 'spec')).toEqual([]);
    expect(run(DeploymentSpecSchema, { ...ok, template: template({ app: 'api' }) }, 'spec')).toEqual([
      expect.stringMatching(
        /^spec.template.metadata.labels: Invalid value: .*: `selector` does not match template `labels`$/,
      ),
    ]);
    expect(run(DeploymentSpecSchema, { ...ok, selector: {} }, 'spec')).toEqual([
      expect.stringMatching(/^spec.selector: Invalid value: .*: empty selector is invalid for deployment$/),
    ]);
    expect(run(DeploymentSpecSchema, { ...ok, template: template({ app: 'web' }, 'Never') }, 'spec')).toEqual(
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    );
    expect(run(DeploymentSpecSchema, { ...ok, replicas: -1, minReadySeconds: 700 }, 'spec')).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds',
    ]);
  });

  it('validates the strategy with Kubernetes messages', () => {
    expect(
      run(
        DeploymentStrategySchema,
        { type: 'Recreate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } },
        'spec.strategy',
      ),
    ).toEqual([
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ]);
    expect(run(DeploymentStrategySchema, { type: 'BlueGreen' }, 'spec.strategy')).toEqual([
      expect.stringMatching(
        /^spec.strategy: Unsupported value: .*BlueGreen.*: supported values: "Recreate", "RollingUpdate"$/,
      ),
    ]);
    const ru = (value: object) =>
      run(DeploymentStrategySchema, { type: 'RollingUpdate', rollingUpdate: value }, 'spec.strategy');
    expect(ru({ maxUnavailable: 0, maxSurge: '0%' })).toEqual([
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
    ]);
    expect(ru({ maxUnavailable: '110%', maxSurge: '200%' })).toEqual([
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}: must not be greater than 100%',
    ]);
    expect(ru({ maxUnavailable: -1, maxSurge: 'x' })[0]).toBe(
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(ru({ maxUnavailable: -1, maxSurge: 'x' })[1]).toMatch(
      /^spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x"}: a valid percent string must be/,
    );
    expect(ru({ maxUnavailable: '25%', maxSurge: '25%' })).toEqual([]);
  });

  it('prints NAME READY UP-TO-DATE AVAILABLE AGE and the wide columns', () => {
    const d: Deployment = {
      metadata: meta('web'),
      spec: {
        replicas: 3,
        selector: {
          matchLabels: { app: 'web' },
          matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe', 'be'] }],
        },
        template: template({ app: 'web', tier: 'fe' }),
      },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    expect(DeploymentKind.columns!.map((c) => [c.name, c.priority ?? 0, c.cell(d, now)])).toEqual([
      ['Name', 0, 'web'],
      ['Ready', 0, '2/3'],
      ['Up-to-date', 0, 3],
      ['Available', 0, 2],
      ['Age', 0, '2m'],
      ['Containers', 1, 'web,log'],
      ['Images', 1, 'nginx:1.19,busybox'],
      ['Selector', 1, 'app=web,tier in (be,fe)'],
    ]);
    // numbers in columns Kubernetes declares as strings
    expect(DeploymentKind.columns!.slice(2, 4).map((c) => [c.name, c.type])).toEqual([
      ['Up-to-date', 'string'],
      ['Available', 'string'],
    ]);
    const invalid = {
      ...d,
      spec: { ...d.spec!, selector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } },
    };
    expect(DeploymentKind.columns![7]!.cell(invalid, now)).toBe('<invalid>');
  });
});

describe('ReplicaSet', () => {
  it('defaults replicas to 1, validates and prints', () => {
    expect(node(ReplicaSetSpecSchema, 'replicas').default).toBe(1);
    expect(
      run(
        ReplicaSetSpecSchema,
        {
          selector: { matchLabels: { a: 'b' } },
          template: { ...template({ a: 'b' }), spec: { activeDeadlineSeconds: 5, containers: [] } },
        },
        'spec',
      ),
    ).toEqual([
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
    ]);
    const rs: ReplicaSet = {
      metadata: meta('web-5d4f'),
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) },
      status: { replicas: 3, readyReplicas: 1 },
    };
    expect(ReplicaSetKind.columns!.map((c) => [c.name, c.cell(rs, now)])).toEqual([
      ['Name', 'web-5d4f'],
      ['Desired', 3],
      ['Current', 3],
      ['Ready', 1],
      ['Age', '2m'],
      ['Containers', 'web,log'],
      ['Images', 'nginx:1.19,busybox'],
      ['Selector', 'app=web'],
    ]);
  });
});

describe('DaemonSet', () => {
  it('defaults a rolling update with maxUnavailable 1, maxSurge 0 and history 10', () => {
    expect(node(DaemonSetSpecSchema, 'revisionHistoryLimit').default).toBe(10);
    expect(node(DaemonSetSpecSchema, 'updateStrategy').default).toEqual({});
    expect(defaulted(DaemonSetUpdateStrategySchema, {})).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
    // Each value is defaulted alone (pointer semantics): an explicit 0 or percentage is kept.
    expect(defaulted(DaemonSetUpdateStrategySchema, { rollingUpdate: { maxUnavailable: 0 } })).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 0, maxSurge: 0 },
    });
    expect(defaulted(DaemonSetUpdateStrategySchema, { rollingUpdate: { maxSurge: '10%' } })).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: '10%' },
    });
    expect(defaulted(DaemonSetUpdateStrategySchema, { type: 'OnDelete' })).toEqual({ type: 'OnDelete' });
  });

  it('validates the rolling update with Kubernetes messages: exactly one of maxUnavailable and maxSurge', () => {
    const ru = (value: object) =>
      run(
        DaemonSetUpdateStrategySchema,
        { type: 'RollingUpdate', rollingUpdate: value },
        'spec.updateStrategy',
      );
    expect(ru({ maxUnavailable: 1, maxSurge: 0 })).toEqual([]);
    expect(ru({ maxUnavailable: 0, maxSurge: 1 })).toEqual([]);
    expect(ru({ maxUnavailable: '0%', maxSurge: '20%' })).toEqual([]);
    expect(ru({ maxUnavailable: '100%', maxSurge: 0 })).toEqual([]);
    expect(ru({ maxUnavailable: 0, maxSurge: 0 })).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    ]);
    expect(ru({ maxUnavailable: '0%', maxSurge: '0%' })).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    ]);
    expect(ru({ maxUnavailable: 1, maxSurge: '10%' })).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"10%"}: may not be set when maxUnavailable is non-zero',
    ]);
    expect(ru({ maxUnavailable: 0, maxSurge: '110%' })).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}: must not be greater than 100%',
    ]);
    expect(ru({ maxUnavailable: 0, maxSurge: -1 })).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0',
    ]);
    expect(ru({ maxUnavailable: -1, maxSurge: 1 })).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero',
    ]);
    // A string that is not a percentage counts as its integer value only when it is one (Go's Atoi).
    expect(ru({ maxUnavailable: '5x', maxSurge: 0 })).toEqual([
      expect.stringMatching(
        /^spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"5x"}: a valid percent string must be/,
      ),
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    ]);
    // Without a rolling update strategy the values are not checked.
    expect(
      run(
        DaemonSetUpdateStrategySchema,
        { type: 'OnDelete', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } },
        'spec.updateStrategy',
      ),
    ).toEqual([]);
    expect(structHooks(RollingUpdateDaemonSetSchema)).toBeUndefined();
  });

  it('validates the spec with Kubernetes messages', () => {
    const spec = {
      selector: { matchLabels: { app: 'agent' } },
      template: { ...template({ app: 'agent' }), spec: { activeDeadlineSeconds: 3, containers: [] } },
    };
    expect(run(DaemonSetSpecSchema, spec, 'spec')).toEqual([
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
    ]);
    expect(run(DaemonSetUpdateStrategySchema, { type: 'RollingUpdate' }, 'spec.updateStrategy')).toEqual([
      'spec.updateStrategy.rollingUpdate: Required value',
    ]);
  });

  it('prints the daemon set columns', () => {
    const ds: DaemonSet = {
      metadata: meta('agent'),
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          ...template({ app: 'agent' }),
          spec: {
            containers: [{ name: 'a', image: 'agent:1' }],
            nodeSelector: { 'kubernetes.io/os': 'linux', disk: 'ssd' },
          },
        },
      },
      status: {
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        numberReady: 2,
        numberMisscheduled: 0,
        updatedNumberScheduled: 3,
        numberAvailable: 2,
      },
    };
    expect(DaemonSetKind.columns!.map((c) => [c.name, c.cell(ds, now)])).toEqual([
      ['Name', 'agent'],
      ['Desired', 3],
      ['Current', 3],
      ['Ready', 2],
      ['Up-to-date', 3],
      ['Available', 2],
      ['Node Selector', 'disk=ssd,kubernetes.io/os=linux'],
      ['Age', '2m'],
      ['Containers', 'a'],
      ['Images', 'agent:1'],
      ['Selector', 'app=agent'],
    ]);
  });
});

describe('StatefulSet', () => {
  it('defaults OrderedReady, a rolling update with partition 0, one replica and history 10', () => {
    expect(node(StatefulSetSpecSchema, 'podManagementPolicy').default).toBe('OrderedReady');
    expect(node(StatefulSetSpecSchema, 'replicas').default).toBe(1);
    expect(node(StatefulSetSpecSchema, 'revisionHistoryLimit').default).toBe(10);
    expect(defaulted(StatefulSetUpdateStrategySchema, {})).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0 },
    });
    expect(defaulted(StatefulSetUpdateStrategySchema, { type: 'RollingUpdate' })).toEqual({
      type: 'RollingUpdate',
    });
    expect(defaulted(StatefulSetUpdateStrategySchema, { type: 'RollingUpdate', rollingUpdate: {} })).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0 },
    });
  });

  it('validates the spec and restricts updates', () => {
    const spec = {
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: template({ app: 'db' }),
      podManagementPolicy: 'Sometimes',
      updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } },
    };
    expect(
      run(StatefulSetSpecSchema, spec, 'spec').map((m) =>
        m.replace(/Invalid value: .*?: (only|must)/, 'Invalid value: X: $1'),
      ),
    ).toEqual([
      "spec.podManagementPolicy: Invalid value: X: must be 'OrderedReady' or 'Parallel'",
      "spec.updateStrategy.rollingUpdate: Invalid value: X: only allowed for updateStrategy 'RollingUpdate'",
    ]);
    const old: StatefulSet = {
      metadata: meta('db'),
      spec: { ...spec, podManagementPolicy: 'OrderedReady', replicas: 1 },
    };
    expect(StatefulSetKind.validateUpdate!({ ...old, spec: { ...old.spec!, replicas: 5 } }, old)).toEqual([]);
    expect(
      StatefulSetKind.validateUpdate!(
        {
          ...old,
          spec: {
            ...old.spec!,
            minReadySeconds: 10,
            ordinals: { start: 3 },
            persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
          },
        },
        old,
      ),
    ).toEqual([]);
    const forbidden =
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
    for (const change of [
      { serviceName: 'other' },
      { revisionHistoryLimit: 3 },
      { podManagementPolicy: 'Parallel' },
    ]) {
      expect(
        StatefulSetKind.validateUpdate!({ ...old, spec: { ...old.spec!, ...change } }, old).map((e) =>
          errorMessage(e as FieldError),
        ),
      ).toEqual([forbidden]);
    }
  });

  it('lets the template mount the volumes of its claim templates, and only those besides its own', () => {
    const { PodSpecSchema } = jest.requireActual<typeof import('../core/pod-spec')>('../core/pod-spec');
    const podSpec = {
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      containers: [
        {
          name: 'db',
          image: 'db',
          volumeMounts: [
            { name: 'data', mountPath: '/data' },
            { name: 'logs', mountPath: '/logs' },
          ],
        },
      ],
    };
    const root = {
      spec: { volumeClaimTemplates: [{ metadata: { name: 'data' } }], template: { spec: podSpec } },
    };
    const errors = (
      structHooks(PodSpecSchema)!.validate!(podSpec, 'spec.template.spec', { root }) as FieldError[]
    ).map(errorMessage);
    expect(errors).toEqual(['spec.template.spec.containers[0].volumeMounts[1].name: Not found: "logs"']);
  });

  it('defaults the claim retention policy to Retain and leaves ordinals and maxUnavailable unset', () => {
    expect(node(StatefulSetSpecSchema, 'persistentVolumeClaimRetentionPolicy').default).toEqual({});
    expect(node(StatefulSetSpecSchema, 'ordinals').default).toBeUndefined();
    expect(node(StatefulSetSpecSchema, 'minReadySeconds').default).toBeUndefined();
    expect(defaulted(StatefulSetPersistentVolumeClaimRetentionPolicySchema, {})).toEqual({
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
    expect(
      defaulted(StatefulSetPersistentVolumeClaimRetentionPolicySchema, {
        whenDeleted: 'Delete',
        whenScaled: '',
      }),
    ).toEqual({ whenDeleted: 'Delete', whenScaled: 'Retain' });
    // maxUnavailable's default of 1 belongs to the MaxUnavailableStatefulSet feature, off in 1.29.
    expect(
      defaulted(StatefulSetUpdateStrategySchema, {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: 2 },
      }),
    ).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } });
    // A rolling update given without a type is kept.
    expect(defaulted(StatefulSetUpdateStrategySchema, { rollingUpdate: { partition: 2 } })).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 2 },
    });
  });

  it('validates the new spec fields with Kubernetes messages', () => {
    const spec = {
      serviceName: 'db',
      replicas: 3,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
      selector: { matchLabels: { app: 'db' } },
      template: template({ app: 'db' }),
    };
    expect(run(StatefulSetSpecSchema, spec, 'spec')).toEqual([]);
    expect(
      run(
        StatefulSetSpecSchema,
        {
          ...spec,
          minReadySeconds: -1,
          ordinals: { start: -2 },
          persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep', whenScaled: 'Delete' },
        },
        'spec',
      ),
    ).toEqual([
      'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.ordinals.start: Invalid value: -2: must be greater than or equal to 0',
    ]);
    const ru = (rollingUpdate: object) =>
      run(
        StatefulSetSpecSchema,
        { ...spec, updateStrategy: { type: 'RollingUpdate', rollingUpdate } },
        'spec',
      );
    expect(ru({ partition: 0, maxUnavailable: 2 })).toEqual([]);
    expect(ru({ partition: 0, maxUnavailable: '50%' })).toEqual([]);
    expect(ru({ partition: 0, maxUnavailable: 0 })).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: cannot be 0',
    ]);
    expect(ru({ partition: -1, maxUnavailable: '120%' })).toEqual([
      'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0',
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%',
    ]);
    expect(ru({ maxUnavailable: -1 })).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
    ]);
    expect(ru({ maxUnavailable: 'half' })).toEqual([
      expect.stringMatching(
        /^spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: a valid percent string must be/,
      ),
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: cannot be 0',
    ]);
  });

  it('prints NAME READY AGE and the wide columns', () => {
    const sts: StatefulSet = {
      metadata: meta('db'),
      spec: { replicas: 3, selector: { matchLabels: { app: 'db' } }, template: template({ app: 'db' }) },
      status: { replicas: 3, readyReplicas: 3 },
    };
    expect(StatefulSetKind.columns!.map((c) => [c.name, c.cell(sts, now)])).toEqual([
      ['Name', 'db'],
      ['Ready', '3/3'],
      ['Age', '2m'],
      ['Containers', 'web,log'],
      ['Images', 'nginx:1.19,busybox'],
    ]);
  });
});

describe('ControllerRevision', () => {
  it('validates and prints the controller as kind.group/name', () => {
    expect(run(ControllerRevisionSchema, { revision: -1 }, '')).toEqual([
      'data: Required value: data is mandatory',
      'revision: Invalid value: -1: must be greater than or equal to 0',
    ]);
    const rev = {
      metadata: {
        ...meta('agent-6c9f'),
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'u1', controller: true },
        ],
      },
      data: { spec: {} },
      revision: 2,
    };
    expect(ControllerRevisionKind.columns!.map((c) => [c.name, c.cell(rev, now)])).toEqual([
      ['Name', 'agent-6c9f'],
      ['Controller', 'daemonset.apps/agent'],
      ['Revision', 2],
      ['Age', '2m'],
    ]);
    // a number in a column Kubernetes declares as a string
    expect(ControllerRevisionKind.columns![2]!.type).toBe('string');
    expect(ControllerRevisionKind.columns![1]!.cell({ ...rev, metadata: meta('x') }, now)).toBe('<none>');
  });
});

describe('workload selectors', () => {
  const selector = {
    matchLabels: { app: 'web' },
    matchExpressions: [
      { key: 'env', operator: 'NotIn', values: ['prod'] },
      { key: 'canary', operator: 'DoesNotExist' },
      { key: 'tier', operator: 'Exists' },
    ],
  };
  const spec = (labels: Record<string, string>, sel: object | undefined = selector) => ({
    selector: sel as never,
    template: { metadata: { labels } },
  });

  it('prints the selector string form', () => {
    expect(selectorStringCell(selector)).toBe('app=web,!canary,env notin (prod),tier');
    expect(selectorStringCell({})).toBe('');
    // the Deployment printer says <invalid> where FormatLabelSelector says <error>
    expect(selectorStringCell({ matchExpressions: [{ key: 'a', operator: 'Near' }] })).toBe('<invalid>');
  });

  it('match template labels with set-based requirements', () => {
    expect(validateWorkloadTemplate(spec({ app: 'web', tier: 'x' }), 'spec', 'ReplicaSet')).toEqual([]);
    expect(
      validateWorkloadTemplate(spec({ app: 'web', tier: 'x', env: 'prod' }), 'spec', 'ReplicaSet'),
    ).toHaveLength(1);
    expect(
      validateWorkloadTemplate(spec({ app: 'web', tier: 'x', canary: '1' }), 'spec', 'ReplicaSet'),
    ).toHaveLength(1);
    // An absent selector selects nothing; an empty one is skipped except by daemon sets (it matches anyway).
    expect(validateWorkloadTemplate(spec({ a: 'b' }, undefined), 'spec', 'ReplicaSet')).toHaveLength(1);
    expect(validateWorkloadTemplate(spec({ a: 'b' }, {}), 'spec', 'DaemonSet')).toEqual([]);
  });

  it('reports a selector that cannot be converted as each kind does', () => {
    const bad = spec({ a: 'b' }, { matchExpressions: [{ key: 'a', operator: 'Near' }] });
    expect(validateWorkloadTemplate(bad, 'spec', 'ReplicaSet').map(errorMessage)).toEqual([
      expect.stringMatching(/^spec.selector: Invalid value: .*: invalid label selector$/),
    ]);
    expect(validateWorkloadTemplate(bad, 'spec', 'DaemonSet')).toEqual([]);
  });
});
