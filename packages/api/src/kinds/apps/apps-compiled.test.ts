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
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
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
    });
    expect(compileKind(StatefulSetKind).validate(sts)).toEqual([]);
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
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'template', and 'updateStrategy' are forbidden",
    ]);
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
