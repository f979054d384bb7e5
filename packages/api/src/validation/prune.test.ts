import {
  fieldsV1,
  int32,
  list,
  map,
  microTime,
  quantity,
  rawExtension,
  str,
  stringMap,
  struct,
  time,
  field,
} from '../schema/fields';
import { objectMeta } from '../meta/object-meta';
import { compilePrune } from './prune';

const Port = struct('io.k8s.api.core.v1.ContainerPort', {
  name: str({ proto: 1 }),
  hostPort: int32({ proto: 2, omitZero: true }),
  containerPort: int32({ proto: 3 }),
});
const Container = struct('io.k8s.api.core.v1.Container', {
  name: str({ proto: 1 }),
  image: str({ proto: 2 }),
  ports: list(Port, { proto: 6, patchMergeKey: 'containerPort', patchStrategy: 'merge' }),
  limits: map(quantity(), { proto: 8 }),
});
const Spec = struct('io.k8s.api.core.v1.PodSpec', {
  containers: list(Container, { proto: 2 }),
  nodeSelector: stringMap({ proto: 7 }),
  kept: stringMap({ proto: 15, omitZero: false }),
  byName: map(Container, { proto: 9 }),
  raw: rawExtension({ proto: 10 }),
  managed: fieldsV1({ proto: 11 }),
  started: time({ proto: 12 }),
  renewed: microTime({ proto: 13 }),
  size: quantity({ proto: 14 }),
});
const Root = struct('io.k8s.api.core.v1.Test', {
  apiVersion: str(),
  kind: str(),
  metadata: objectMeta(),
  spec: field(Spec, { proto: 2 }),
});

const prune = compilePrune(Root);

describe('compilePrune', () => {
  it('removes unknown fields everywhere, reporting them as the strict decoder does', () => {
    const obj: Record<string, unknown> = {
      apiVersion: 'v1',
      kind: 'Test',
      extra: 1,
      metadata: { name: 'a', nmae: 'b' },
      spec: {
        foo: true,
        containers: [
          { name: 'c' },
          { name: 'd', imagex: 'nginx', ports: [{ containerPort: 80, protocl: 'TCP' }] },
        ],
        byName: { web: { name: 'w', bogus: 1 } },
      },
    };
    expect(prune(obj)).toEqual([
      'unknown field "extra"',
      'unknown field "metadata.nmae"',
      'unknown field "spec.foo"',
      'unknown field "spec.containers[1].imagex"',
      'unknown field "spec.containers[1].ports[0].protocl"',
      'unknown field "spec.byName.web.bogus"',
    ]);
    expect(obj).toEqual({
      apiVersion: 'v1',
      kind: 'Test',
      metadata: { name: 'a' },
      spec: {
        containers: [{ name: 'c' }, { name: 'd', ports: [{ containerPort: 80 }] }],
        byName: { web: { name: 'w' } },
      },
    });
  });

  it('drops null fields (null means unset), empty maps, and the zeros of fields declared omitZero only', () => {
    const obj = {
      metadata: { name: null, labels: null, generation: 0, generateName: '', deletionGracePeriodSeconds: 0 },
      spec: {
        containers: [{ name: '', image: '', ports: [{ hostPort: 0, containerPort: 0 }], limits: {} }],
        nodeSelector: {},
        kept: {},
        byName: { web: { name: 'w', limits: {} } },
      },
    };
    expect(prune(obj)).toEqual([]);
    // generation and generateName are plain values in Go; deletionGracePeriodSeconds is a pointer,
    // and the test's own fields are not declared omitZero; maps are empty as Go omits them (omitempty)
    // unless declared otherwise, and an empty struct stays
    expect(obj).toEqual({
      metadata: { deletionGracePeriodSeconds: 0 },
      spec: {
        containers: [{ name: '', image: '', ports: [{ containerPort: 0 }] }],
        kept: {},
        byName: { web: { name: 'w' } },
      },
    });
  });

  it('drops empty lists declared omitZero (ownerReferences and finalizers, omitempty in Go), pruning the others', () => {
    const obj = {
      metadata: { ownerReferences: [], finalizers: [] },
      spec: { containers: [] },
    };
    prune(obj);
    expect(obj).toEqual({ metadata: {}, spec: { containers: [] } });
    const kept = { metadata: { finalizers: ['a.io/x'], ownerReferences: [{ uid: 'u', bogus: 1 }] } };
    expect(prune(kept)).toEqual(['unknown field "metadata.ownerReferences[0].bogus"']);
    expect(kept).toEqual({ metadata: { finalizers: ['a.io/x'], ownerReferences: [{ uid: 'u' }] } });
  });

  it('drops a zero of the declared type only', () => {
    const obj = { metadata: { generation: '', generateName: 0 } };
    prune(obj);
    expect(obj).toEqual({ metadata: { generation: '', generateName: 0 } });
  });

  it('leaves map keys and preserve-unknown-fields contents alone', () => {
    const obj = {
      spec: {
        nodeSelector: { 'kubernetes.io/os': 'linux', anything: 'x' },
        raw: { apiVersion: 'v1', kind: 'Pod', whatever: { nested: null } },
        managed: { 'f:metadata': { 'f:labels': {} } },
      },
    };
    const copy = JSON.parse(JSON.stringify(obj)) as unknown;
    expect(prune(obj)).toEqual([]);
    expect(obj).toEqual(copy);
  });

  it('rewrites quantities in canonical form, numbers included, in fields and maps', () => {
    const obj = {
      spec: {
        size: 0.5,
        containers: [
          { name: 'c', limits: { cpu: '1000m', memory: 1073741824, storage: '1Gi', ephemeral: '0.1' } },
        ],
      },
    };
    prune(obj);
    expect(obj.spec.size).toBe('500m');
    expect(obj.spec.containers[0]!.limits).toEqual({
      cpu: '1',
      memory: '1073741824',
      storage: '1Gi',
      ephemeral: '100m',
    });
  });

  it('normalizes times to RFC 3339 UTC with second (Time) and microsecond (MicroTime) precision', () => {
    const obj = {
      spec: { started: '2024-03-01T01:30:15.999+01:00', renewed: '2024-03-01T00:30:15.1234567Z' },
    };
    prune(obj);
    expect(obj.spec).toEqual({ started: '2024-03-01T00:30:15Z', renewed: '2024-03-01T00:30:15.123456Z' });
    const canonical = { spec: { started: '2024-03-01T00:30:15Z', renewed: '2024-03-01T00:30:15.000001Z' } };
    prune(canonical);
    expect(canonical.spec).toEqual({
      started: '2024-03-01T00:30:15Z',
      renewed: '2024-03-01T00:30:15.000001Z',
    });
  });

  it('leaves values of the wrong type for the validator to report', () => {
    const obj = {
      spec: { containers: 'nope', started: 'yesterday', size: 'lots', nodeSelector: [1] },
      metadata: 5,
    };
    expect(prune(obj)).toEqual([]);
    expect(obj).toEqual({
      spec: { containers: 'nope', started: 'yesterday', size: 'lots', nodeSelector: [1] },
      metadata: 5,
    });
  });
});
