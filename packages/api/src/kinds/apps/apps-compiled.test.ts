import { compileKind, errorMessage } from '../../validation';
import {
  DaemonSetKind,
  DeploymentKind,
  StatefulSetKind,
  type DaemonSet,
  type Deployment,
  type StatefulSet,
} from './index';

/** The declarations run through the compiled defaulting and validation, as the apiserver uses them. */

const podTemplate = (labels: Record<string, string>) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'web', image: 'nginx:1.19' }] },
});

describe('apps/v1 through the compiled kind', () => {
  it('defaults a minimal Deployment as Kubernetes 1.20 does', () => {
    const compiled = compileKind(DeploymentKind);
    const d: Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: podTemplate({ app: 'web' }) },
    };
    compiled.default(d);
    expect(d.spec).toMatchObject({
      replicas: 1,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    });
    expect(d.spec!.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
    expect(compiled.validate(d)).toEqual([]);
  });

  it('keeps explicit zeros and a Recreate strategy as given', () => {
    const compiled = compileKind(DeploymentKind);
    const d: Deployment = {
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 0,
        revisionHistoryLimit: 0,
        strategy: { type: 'Recreate' },
        selector: { matchLabels: { app: 'web' } },
        template: podTemplate({ app: 'web' }),
      },
    };
    compiled.default(d);
    expect(d.spec).toMatchObject({ replicas: 0, revisionHistoryLimit: 0, strategy: { type: 'Recreate' } });
    expect(d.spec!.strategy!.rollingUpdate).toBeUndefined();
  });

  it('reports the strategy and template rules once each', () => {
    const compiled = compileKind(DeploymentKind);
    const d: Deployment = {
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } },
        selector: { matchLabels: { app: 'web' } },
        template: podTemplate({ app: 'api' }),
      },
    };
    compiled.default(d);
    expect(compiled.validate(d).map(errorMessage)).toEqual([
      expect.stringMatching(
        /^spec.template.metadata.labels: Invalid value: .*: `selector` does not match template `labels`$/,
      ),
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ]);
  });

  it('refuses a selector change on update', () => {
    const compiled = compileKind(DeploymentKind);
    const old: Deployment = {
      metadata: { name: 'web', namespace: 'default', resourceVersion: '1' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: podTemplate({ app: 'web', v: '2' }) },
    };
    compiled.default(old);
    const next = structuredClone(old);
    next.spec!.selector = { matchLabels: { app: 'web', v: '2' } };
    expect(compiled.validateUpdate(next, old).map(errorMessage)).toEqual([
      expect.stringMatching(/^spec.selector: Invalid value: .*: field is immutable$/),
    ]);
  });

  it('defaults DaemonSet and StatefulSet strategies', () => {
    const ds: DaemonSet = {
      metadata: { name: 'agent', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: podTemplate({ app: 'agent' }) },
    };
    compileKind(DaemonSetKind).default(ds);
    expect(ds.spec).toMatchObject({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
    expect(compileKind(DaemonSetKind).validate(ds)).toEqual([]);

    const sts: StatefulSet = {
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: podTemplate({ app: 'db' }),
      },
    };
    compileKind(StatefulSetKind).default(sts);
    expect(sts.spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    expect(sts.spec!.updateStrategy!.rollingUpdate!.maxUnavailable).toBeUndefined();
    expect(sts.spec!.ordinals).toBeUndefined();
    expect(sts.spec!.minReadySeconds).toBeUndefined();
    expect(compileKind(StatefulSetKind).validate(sts)).toEqual([]);
  });

  it('accepts a surging DaemonSet update and reports its rolling update rules once', () => {
    const compiled = compileKind(DaemonSetKind);
    const ds = (rollingUpdate: object): DaemonSet => {
      const obj: DaemonSet = {
        metadata: { name: 'agent', namespace: 'default' },
        spec: {
          selector: { matchLabels: { app: 'agent' } },
          template: podTemplate({ app: 'agent' }),
          updateStrategy: { rollingUpdate },
        },
      };
      compiled.default(obj);
      return obj;
    };
    const surge = ds({ maxUnavailable: 0, maxSurge: '10%' });
    expect(surge.spec!.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 0, maxSurge: '10%' },
    });
    expect(compiled.validate(surge)).toEqual([]);
    // maxSurge alone meets maxUnavailable's default of 1.
    expect(compiled.validate(ds({ maxSurge: 1 })).map(errorMessage)).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero',
    ]);
    expect(compiled.validate(ds({ maxUnavailable: 0 })).map(errorMessage)).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    ]);
    // An OnDelete strategy carries no rolling update rules.
    const onDelete = ds({});
    onDelete.spec!.updateStrategy = { type: 'OnDelete', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } };
    expect(compiled.validate(onDelete)).toEqual([]);
  });

  it('validates the StatefulSet claim retention policy, ordinals and maxUnavailable', () => {
    const compiled = compileKind(StatefulSetKind);
    const sts: StatefulSet = {
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'db' } },
        template: podTemplate({ app: 'db' }),
        minReadySeconds: 5,
        ordinals: { start: 1 },
        persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' },
        updateStrategy: { rollingUpdate: { maxUnavailable: '50%' } },
      },
    };
    compiled.default(sts);
    expect(sts.spec).toMatchObject({
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: '50%' } },
      ordinals: { start: 1 },
      minReadySeconds: 5,
    });
    expect(compiled.validate(sts)).toEqual([]);
    const bad = structuredClone(sts);
    bad.spec!.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Orphan' };
    bad.spec!.updateStrategy!.rollingUpdate!.maxUnavailable = 0;
    bad.spec!.ordinals = { start: -1 };
    expect(compiled.validate(bad).map(errorMessage)).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: cannot be 0',
      'spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "Orphan": supported values: "Retain", "Delete"',
      'spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

describe('StatefulSet updates', () => {
  it('report a selector change once, with the statefulset rule', () => {
    const compiled = compileKind(StatefulSetKind);
    const old: StatefulSet = {
      metadata: { name: 'db', namespace: 'default', resourceVersion: '1' },
      spec: { selector: { matchLabels: { app: 'db' } }, template: podTemplate({ app: 'db', tier: 'x' }) },
    };
    compiled.default(old);
    const next = structuredClone(old);
    next.spec!.selector = { matchLabels: { app: 'db', tier: 'x' } };
    next.spec!.replicas = 3;
    expect(compiled.validateUpdate(next, old).map(errorMessage)).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });

  it('accept changes of minReadySeconds, ordinals and the claim retention policy', () => {
    const compiled = compileKind(StatefulSetKind);
    const old: StatefulSet = {
      metadata: { name: 'db', namespace: 'default', resourceVersion: '1' },
      spec: { selector: { matchLabels: { app: 'db' } }, template: podTemplate({ app: 'db' }) },
    };
    compiled.default(old);
    const next = structuredClone(old);
    next.spec!.minReadySeconds = 30;
    next.spec!.ordinals = { start: 5 };
    next.spec!.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Delete' };
    next.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 1, maxUnavailable: 2 } };
    expect(compiled.validateUpdate(next, old)).toEqual([]);
  });
});

describe('StatefulSet names', () => {
  it('must be RFC 1123 labels', () => {
    const compiled = compileKind(StatefulSetKind);
    const sts: StatefulSet = {
      metadata: { name: 'db.v2', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'db' } }, template: podTemplate({ app: 'db' }) },
    };
    compiled.default(sts);
    expect(compiled.validate(sts).map(errorMessage)).toEqual([
      'metadata.name: Invalid value: "db.v2": must not contain dots',
    ]);
  });
});
