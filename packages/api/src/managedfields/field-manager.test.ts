import { DeploymentSchema } from '../kinds/apps/deployment';
import { Type } from '@sinclair/typebox';
import { ConfigMapSchema } from '../kinds/core/configmap';
import { ObjectMetaSchema } from '../meta/object-meta';
import { field, str, struct } from '../schema/fields';
import { ApplyConflictError } from './apply-conflict-error';
import { FieldManager, ApplyRequestError, type ManagedObject } from './field-manager';
import { FieldPathSet } from './field-set';

const t0 = new Date('2024-05-01T10:00:00.123Z');
const t1 = new Date('2024-05-01T10:05:00.000Z');
const deployments = new FieldManager(DeploymentSchema, { statusSubresource: true });
const configMaps = new FieldManager(ConfigMapSchema);

function deployment(spec: Record<string, unknown> = {}, labels: Record<string, string> = { app: 'web' }) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] },
      },
      ...spec,
    },
  } as ManagedObject;
}

function entries(obj: ManagedObject): Record<string, unknown>[] {
  return (obj.metadata?.managedFields ?? []) as Record<string, unknown>[];
}

function spec(obj: ManagedObject): any {
  return obj.spec as any;
}

describe('managedFields shape', () => {
  it('records an Apply entry with the exact FieldsV1 kubectl gets for a Deployment', () => {
    const out = deployments.apply(undefined, deployment(), 'kubectl', 'apps/v1', false, '', t0);
    expect(entries(out)).toEqual([
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: '2024-05-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"nginx"}': {
                    '.': {},
                    'f:image': {},
                    'f:name': {},
                    'f:ports': {
                      'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
                    },
                  },
                },
              },
            },
          },
        },
      },
    ]);
    expect(JSON.stringify(entries(out)[0]!.fieldsV1)).toBe(
      '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}}}}}}',
    );
  });

  it('records an Update entry for a create: new maps and list items carry "."', () => {
    const obj = deployment();
    deployments.update(undefined, obj, 'kubectl-create', 'apps/v1', '', t0);
    const [entry] = entries(obj);
    expect(entry).toMatchObject({
      manager: 'kubectl-create',
      operation: 'Update',
      time: '2024-05-01T10:00:00Z',
    });
    expect(Object.keys(entry!)).toEqual([
      'manager',
      'operation',
      'apiVersion',
      'time',
      'fieldsType',
      'fieldsV1',
    ]);
    const f = entry!.fieldsV1 as any;
    expect(f['f:metadata']).toEqual({ 'f:labels': { '.': {}, 'f:app': {} } });
    expect(f['f:spec']['.']).toBeUndefined();
    // containers is required (present in Go's zero value): no "." of its own; optional ports has one
    expect(Object.keys(f['f:spec']['f:template']['f:spec']['f:containers'])).toEqual(['k:{"name":"nginx"}']);
    expect(f['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"nginx"}']).toEqual({
      '.': {},
      'f:image': {},
      'f:name': {},
      'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
    });
  });

  it('orders entries Apply first, then by time and manager; subresource entries name it', () => {
    const obj = deployments.apply(undefined, deployment(), 'zeta', 'apps/v1', false, '', t1);
    const edited = structuredClone(obj);
    spec(edited).paused = true;
    deployments.update(obj, edited, 'alpha', 'apps/v1', '', t0);
    const withStatus = structuredClone(edited);
    withStatus.status = { replicas: 2 };
    deployments.update(edited, withStatus, 'controller', 'apps/v1', 'status', t0);
    expect(entries(withStatus).map((e) => [e.manager, e.operation, e.subresource])).toEqual([
      ['zeta', 'Apply', undefined],
      ['alpha', 'Update', undefined],
      ['controller', 'Update', 'status'],
    ]);
    expect(entries(withStatus)[2]!.fieldsV1).toEqual({ 'f:status': { 'f:replicas': {} } });
  });

  it('keeps at most ten Update entries, folding the oldest into ancient-changes', () => {
    let live = structuredClone(deployment());
    deployments.update(undefined, live, 'm0', 'apps/v1', '', new Date(Date.UTC(2024, 0, 1, 0, 0, 0)));
    for (let i = 1; i <= 11; i++) {
      const next = structuredClone(live);
      (next.metadata as any).labels[`l${i}`] = 'x';
      deployments.update(live, next, `m${i}`, 'apps/v1', '', new Date(Date.UTC(2024, 0, 1, 0, 0, i)));
      live = next;
    }
    const managers = entries(live).map((e) => e.manager);
    expect(managers).toHaveLength(10);
    expect(managers[0]).toBe('ancient-changes');
    expect(managers).not.toContain('m0');
    expect(managers).not.toContain('m1');
    expect(managers).not.toContain('m2');
    const ancient = entries(live)[0]!;
    expect(ancient.time).toBe('2024-01-01T00:00:02Z');
    expect((ancient.fieldsV1 as any)['f:metadata']['f:labels']).toMatchObject({ 'f:l1': {}, 'f:l2': {} });
  });

  it('reads and writes FieldsV1 round trip', () => {
    const json = { 'f:a': { '.': {}, 'f:b': {} }, 'f:c': {}, 'k:{"name":"x"}': { 'f:d': {} } };
    expect(FieldPathSet.fromFieldsV1(json).toFieldsV1()).toEqual(json);
    expect(() => FieldPathSet.fromFieldsV1({ nope: {} })).toThrow('unexpected path element');
  });

  it('writes back the entries a write does not change as they were stored, others encoded anew', () => {
    const created = deployments.apply(undefined, deployment(), 'kubectl', 'apps/v1', false, '', t0);
    const live = structuredClone(created);
    // a stored entry spelled differently from how Kubernetes writes it (`.` on a leaf, keys unsorted)
    live.metadata!.managedFields = [
      ...entries(created),
      {
        manager: 'scaler',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: '2024-05-01T09:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:paused': { '.': {} }, 'f:minReadySeconds': {} } },
      },
    ];
    const stored = entries(live).map((e) => e.fieldsV1);
    const edited = structuredClone(live);
    delete edited.metadata!.managedFields;
    edited.metadata!.labels = { app: 'web', tier: 'front' };
    deployments.update(live, edited, 'labeler', 'apps/v1', '', t1);
    const after = entries(edited);
    expect(after.map((e) => e.manager)).toEqual(['kubectl', 'scaler', 'labeler']);
    expect(after[0]!.fieldsV1).toBe(stored[0]);
    expect(after[1]!.fieldsV1).toEqual({ 'f:spec': { 'f:minReadySeconds': {}, 'f:paused': {} } });
    expect(after[2]!.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:tier': {} } } });

    // an apply of the same fields with another value keeps its entry as stored, with a new time
    const changed = deployment({ replicas: 5 });
    const applied = deployments.apply(edited, changed, 'kubectl', 'apps/v1', false, '', t1);
    const kubectl = entries(applied)[0]!;
    expect(kubectl.fieldsV1).toBe(stored[0]);
    expect(kubectl.time).toBe('2024-05-01T10:05:00Z');
    expect(spec(applied).replicas).toBe(5);
  });
});

describe('server-side apply rules (doc 1)', () => {
  it('rule 1: an apply creates the object, or merges into the live one', () => {
    const created = deployments.apply(undefined, deployment(), 'kubectl', 'apps/v1', false, '', t0);
    expect(spec(created).replicas).toBe(2);
    const live = structuredClone(created);
    spec(live).revisionHistoryLimit = 10;
    const merged = deployments.apply(
      live,
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { paused: true } },
      'other',
      'apps/v1',
      false,
      '',
      t1,
    );
    expect(spec(merged)).toMatchObject({ replicas: 2, revisionHistoryLimit: 10, paused: true });
  });

  it('rule 2: the applied body must not carry managedFields, and must be in the request version', () => {
    const body = deployment();
    body.metadata!.managedFields = [];
    expect(() => deployments.apply(undefined, body, 'kubectl', 'apps/v1', false)).toThrow(
      new ApplyRequestError('metadata.managedFields must be nil'),
    );
    expect(() =>
      deployments.apply(
        undefined,
        { ...deployment(), apiVersion: 'apps/v1beta1' },
        'kubectl',
        'apps/v1',
        false,
      ),
    ).toThrow(
      'Incorrect version specified in apply patch. Specified patch version: apps/v1beta1, expected: apps/v1',
    );
  });

  it('rule 3: ownership moves to whoever changes a value; co-owners share unchanged values', () => {
    const applied = deployments.apply(undefined, deployment(), 'kubectl', 'apps/v1', false, '', t0);
    const coApplied = deployments.apply(
      applied,
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2 } },
      'hpa',
      'apps/v1',
      false,
      '',
      t0,
    );
    const owners = (path: string) =>
      entries(coApplied)
        .filter((e) => JSON.stringify(e.fieldsV1).includes(path))
        .map((e) => e.manager);
    expect(owners('"f:replicas"')).toEqual(['hpa', 'kubectl']);
    const updated = structuredClone(coApplied);
    spec(updated).replicas = 5;
    deployments.update(coApplied, updated, 'kubectl-scale', 'apps/v1', '', t1);
    const after = entries(updated);
    expect(after.map((e) => e.manager)).toEqual(['kubectl', 'kubectl-scale']);
    expect(after.find((e) => e.manager === 'kubectl-scale')!.fieldsV1).toEqual({
      'f:spec': { 'f:replicas': {} },
    });
    expect(JSON.stringify(after.find((e) => e.manager === 'kubectl')!.fieldsV1)).not.toContain('f:replicas');
    // hpa owned nothing but replicas: its entry is gone
    expect(after.find((e) => e.manager === 'hpa')).toBeUndefined();
  });

  it('rule 4: only apply conflicts; the 409 names field and manager; force takes ownership', () => {
    const created = structuredClone(deployment());
    deployments.update(undefined, created, 'kubectl-client-side-apply', 'apps/v1', '', t0);
    const change = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 3 },
    };
    let error: unknown;
    try {
      deployments.apply(created, change, 'kubectl', 'apps/v1', false, '', t1);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApplyConflictError);
    const conflict = error as ApplyConflictError;
    expect(conflict.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
    expect(conflict.causes).toEqual([
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "kubectl-client-side-apply" using apps/v1',
        field: '.spec.replicas',
      },
    ]);
    // the same value is no conflict
    expect(() =>
      deployments.apply(created, { ...change, spec: { replicas: 2 } }, 'kubectl', 'apps/v1', false, '', t1),
    ).not.toThrow();
    const forced = deployments.apply(created, change, 'kubectl', 'apps/v1', true, '', t1);
    expect(spec(forced).replicas).toBe(3);
    const csa = entries(forced).find((e) => e.manager === 'kubectl-client-side-apply')!;
    expect(JSON.stringify(csa.fieldsV1)).not.toContain('f:replicas');
    // an update over an applied field never conflicts
    const edited = structuredClone(forced);
    spec(edited).replicas = 7;
    expect(() => deployments.update(forced, edited, 'kubectl-edit', 'apps/v1', '', t1)).not.toThrow();
  });

  it('rule 4: kubectl moving from client-side apply takes over the fields it applied before', () => {
    const lastApplied = deployment();
    const live = structuredClone(deployment());
    live.metadata!.annotations = {
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(lastApplied),
    };
    deployments.update(undefined, live, 'kubectl-client-side-apply', 'apps/v1', '', t0);
    const out = deployments.apply(live, deployment({ replicas: 3 }), 'kubectl', 'apps/v1', false, '', t1);
    expect(spec(out).replicas).toBe(3);
    // another manager, or a field changed since, still conflicts
    expect(() => deployments.apply(live, deployment({ replicas: 3 }), 'other', 'apps/v1', false)).toThrow(
      ApplyConflictError,
    );
    const edited = structuredClone(live);
    spec(edited).replicas = 5;
    deployments.update(live, edited, 'kubectl-edit', 'apps/v1', '', t1);
    expect(() => deployments.apply(edited, deployment({ replicas: 3 }), 'kubectl', 'apps/v1', false)).toThrow(
      'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas',
    );
  });

  it('rule 4: several conflicts are listed per manager, conflicts with appliers name no version', () => {
    const a = deployments.apply(undefined, deployment(), 'first', 'apps/v1', false, '', t0);
    let error: ApplyConflictError | undefined;
    try {
      deployments.apply(
        a,
        deployment({
          replicas: 4,
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'nginx', image: 'nginx:2' }] },
          },
        }),
        'second',
        'apps/v1',
        false,
      );
    } catch (e) {
      error = e as ApplyConflictError;
    }
    expect(error!.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "first":\n- .spec.replicas\n- .spec.template.spec.containers[name="nginx"].image',
    );
    expect(error!.causes.map((c) => c.field)).toEqual([
      '.spec.replicas',
      '.spec.template.spec.containers[name="nginx"].image',
    ]);
  });

  it('rule 5: omitted scalars stay, omitted list items and map entries go unless co-owned', () => {
    const first = deployment({
      minReadySeconds: 5,
      template: {
        metadata: { labels: { app: 'web', tier: 'front' } },
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:1.25' },
            { name: 'sidecar', image: 'busybox' },
          ],
        },
      },
    });
    const live = deployments.apply(undefined, first, 'kubectl', 'apps/v1', false, '', t0);
    const second = deployment({
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
      },
    });
    const out = deployments.apply(live, second, 'kubectl', 'apps/v1', false, '', t1);
    expect(spec(out).minReadySeconds).toBe(5);
    expect(spec(out).template.metadata.labels).toEqual({ app: 'web' });
    expect(spec(out).template.spec.containers.map((c: any) => c.name)).toEqual(['nginx']);

    // a sidecar another manager also owns survives its removal from kubectl's configuration
    const shared = deployments.apply(
      live,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox' }] } } },
      },
      'injector',
      'apps/v1',
      false,
      '',
      t0,
    );
    const kept = deployments.apply(shared, second, 'kubectl', 'apps/v1', false, '', t1);
    expect(spec(kept).template.spec.containers.map((c: any) => c.name)).toEqual(['nginx', 'sidecar']);

    // items the applier never owned are left alone
    const updated = structuredClone(live);
    spec(updated).template.spec.containers.push({ name: 'debug', image: 'busybox' });
    deployments.update(live, updated, 'kubectl-edit', 'apps/v1', '', t0);
    const third = deployments.apply(updated, second, 'kubectl', 'apps/v1', false, '', t1);
    expect(spec(third).template.spec.containers.map((c: any) => c.name)).toEqual(['nginx', 'debug']);
  });

  it('rule 5: sets (finalizers) and granular maps prune by value and key', () => {
    const cm = (finalizers: string[], data: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', finalizers },
      data,
    });
    const live = configMaps.apply(
      undefined,
      cm(['a.io/x', 'b.io/y'], { k1: 'v', k2: 'v' }),
      'm',
      'v1',
      false,
      '',
      t0,
    );
    expect(entries(live)[0]!.fieldsV1).toEqual({
      'f:data': { 'f:k1': {}, 'f:k2': {} },
      'f:metadata': { 'f:finalizers': { 'v:"a.io/x"': {}, 'v:"b.io/y"': {} } },
    });
    const out = configMaps.apply(live, cm(['b.io/y'], { k1: 'v' }), 'm', 'v1', false, '', t1);
    expect((out.metadata as any).finalizers).toEqual(['b.io/y']);
    expect(out.data).toEqual({ k1: 'v' });
  });

  it('atomic fields: a label selector is replaced whole and owned as one leaf', () => {
    const live = deployments.apply(undefined, deployment(), 'kubectl', 'apps/v1', false, '', t0);
    const out = deployments.apply(
      live,
      deployment({ selector: { matchLabels: { tier: 'x' } } }),
      'kubectl',
      'apps/v1',
      false,
      '',
      t1,
    );
    expect(spec(out).selector).toEqual({ matchLabels: { tier: 'x' } });
    expect((entries(out)[0]!.fieldsV1 as any)['f:spec']['f:selector']).toEqual({});
  });

  it('rule 6: undeclared (unstructured) values merge keys as struct fields, lists atomically', () => {
    const WidgetSchema = struct('io.example.v1.Widget', {
      apiVersion: str(),
      kind: str(),
      metadata: field(ObjectMetaSchema, { proto: 1 }),
      spec: Type.Unsafe<Record<string, unknown>>({
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
      }),
    });
    const widgets = new FieldManager(WidgetSchema);
    const w = (spec: Record<string, unknown>) => ({
      apiVersion: 'example.io/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec,
    });
    const live = widgets.apply(
      undefined,
      w({ size: 1, tags: ['a', 'b'], nested: { x: 1 } }),
      'm',
      'example.io/v1',
      false,
      '',
      t0,
    );
    expect(entries(live)[0]!.fieldsV1).toEqual({
      'f:spec': { 'f:nested': { 'f:x': {} }, 'f:size': {}, 'f:tags': {} },
    });
    const out = widgets.apply(
      live,
      w({ tags: ['c'], nested: { y: 2 } }),
      'm',
      'example.io/v1',
      false,
      '',
      t1,
    );
    // keys act as struct fields (omitted ones stay), lists are replaced whole
    expect(out.spec).toEqual({ size: 1, tags: ['c'], nested: { x: 1, y: 2 } });
    expect(entries(out)[0]!.fieldsV1).toEqual({ 'f:spec': { 'f:nested': { 'f:y': {} }, 'f:tags': {} } });
  });

  it('rule 7: a controller forcing conflicts takes the field', () => {
    const live = deployments.apply(undefined, deployment(), 'kubectl', 'apps/v1', false, '', t0);
    const out = deployments.apply(
      live,
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 9 } },
      'autoscaler',
      'apps/v1',
      true,
      '',
      t1,
    );
    expect(spec(out).replicas).toBe(9);
    expect(entries(out).find((e) => e.manager === 'autoscaler')!.fieldsV1).toEqual({
      'f:spec': { 'f:replicas': {} },
    });
  });

  it('rule 8: a single empty entry clears ownership before the change is recorded; an empty list does not', () => {
    const live = deployments.apply(undefined, deployment(), 'kubectl', 'apps/v1', false, '', t0);
    const reset = structuredClone(live);
    reset.metadata!.managedFields = [{}];
    spec(reset).paused = true;
    deployments.update(live, reset, 'resetter', 'apps/v1', '', t1);
    expect(entries(reset)).toEqual([
      expect.objectContaining({ manager: 'resetter', fieldsV1: { 'f:spec': { 'f:paused': {} } } }),
    ]);
    const onlyReset = structuredClone(live);
    onlyReset.metadata!.managedFields = [{}];
    deployments.update(live, onlyReset, 'resetter', 'apps/v1', '', t1);
    expect(onlyReset.metadata!.managedFields).toBeUndefined();
    const empty = structuredClone(live);
    empty.metadata!.managedFields = [];
    deployments.update(live, empty, 'x', 'apps/v1', '', t1);
    expect(empty.metadata!.managedFields).toEqual(live.metadata!.managedFields);
  });

  it('rule 9: other managedFields sent with an update are taken as given', () => {
    const live = deployments.apply(undefined, deployment(), 'kubectl', 'apps/v1', false, '', t0);
    const edited = structuredClone(live);
    const given = [
      {
        manager: 'someone',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: '2020-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      },
    ];
    edited.metadata!.managedFields = given;
    deployments.update(live, edited, 'editor', 'apps/v1', '', t1);
    expect(edited.metadata!.managedFields).toEqual(given);
    // an unreadable list is ignored in favour of the stored one
    const bad = structuredClone(live);
    bad.metadata!.managedFields = [{ manager: 'x', operation: 'Update', fieldsType: 'FieldsV2' }];
    deployments.update(live, bad, 'editor', 'apps/v1', '', t1);
    expect(bad.metadata!.managedFields).toEqual(live.metadata!.managedFields);
  });

  it('a no-op apply or update keeps managedFields (and their times) as they were', () => {
    const live = deployments.apply(undefined, deployment(), 'kubectl', 'apps/v1', false, '', t0);
    const again = deployments.apply(live, deployment(), 'kubectl', 'apps/v1', false, '', t1);
    expect(again.metadata!.managedFields).toEqual(live.metadata!.managedFields);
    const same = structuredClone(live);
    deployments.update(live, same, 'kubectl-edit', 'apps/v1', '', t1);
    expect(same.metadata!.managedFields).toEqual(live.metadata!.managedFields);
  });

  it('the main resource never owns status; the status subresource owns nothing else', () => {
    const body = { ...deployment(), status: { replicas: 3 } };
    const out = deployments.apply(undefined, body, 'kubectl', 'apps/v1', false, '', t0);
    expect(out.status).toBeUndefined();
    const viaStatus = deployments.apply(
      out,
      { ...body, spec: { paused: true } },
      'ctl',
      'apps/v1',
      false,
      'status',
      t0,
    );
    expect(viaStatus.status).toEqual({ replicas: 3 });
    expect(spec(viaStatus).paused).toBeUndefined();
    expect(entries(viaStatus).find((e) => e.manager === 'ctl')).toEqual(
      expect.objectContaining({ subresource: 'status', fieldsV1: { 'f:status': { 'f:replicas': {} } } }),
    );
  });
});
