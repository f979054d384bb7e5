import { field, int32, list, str, struct } from '../schema/fields';
import { compileKind } from '../validation/compile-kind';
import { PodKind } from '../kinds';
import { compileGatedFields } from './compile-gated-fields';

const Probe = struct('io.example.Probe', { periodSeconds: int32({ proto: 1, default: 10 }) });
const Container = struct('io.example.Container', {
  name: str({ proto: 1 }),
  startupProbe: field(Probe, { proto: 2, featureGate: 'StartupProbe' }),
});
const Spec = struct('io.example.Spec', {
  containers: list(Container, { proto: 1 }),
  policy: str({ proto: 2, featureGate: 'Policy', default: 'Always' }),
  plain: str({ proto: 3 }),
});
const Root = struct('io.example.Thing', { spec: field(Spec, { proto: 1 }) });

const only =
  (...on: string[]) =>
  (gate: string) =>
    on.includes(gate);

describe('compileGatedFields', () => {
  const gated = compileGatedFields(Root)!;

  it('names every gate of the schema, and none for a schema without gated fields', () => {
    expect(gated.gates).toEqual(['Policy', 'StartupProbe']);
    expect(gated.hasDefaults).toBe(true);
    expect(compileGatedFields(Probe)).toBeUndefined();
  });

  it('drops the fields of gates that are off, wherever they sit (every container), and keeps the rest', () => {
    const obj = {
      spec: {
        containers: [
          { name: 'a', startupProbe: { periodSeconds: 1 } },
          { name: 'b', startupProbe: {} },
        ],
        policy: 'Never',
        plain: 'kept',
      },
    };
    gated.drop(obj, undefined, only('Policy'));
    expect(obj).toEqual({
      spec: { containers: [{ name: 'a' }, { name: 'b' }], policy: 'Never', plain: 'kept' },
    });
    gated.drop(obj, undefined, only());
    expect(obj).toEqual({ spec: { containers: [{ name: 'a' }, { name: 'b' }], plain: 'kept' } });
  });

  it('keeps a feature the old object already uses, anywhere, while other gates still drop', () => {
    const old = { spec: { containers: [{ name: 'a' }, { name: 'b', startupProbe: {} }] } };
    const obj = {
      spec: {
        containers: [
          { name: 'a', startupProbe: {} },
          { name: 'b', startupProbe: {} },
        ],
        policy: 'Never',
      },
    };
    gated.drop(obj, old, only());
    expect(obj).toEqual({
      spec: {
        containers: [
          { name: 'a', startupProbe: {} },
          { name: 'b', startupProbe: {} },
        ],
      },
    });
  });

  it('counts an empty list as not in use, as Kubernetes counts len() == 0', () => {
    const ListRoot = struct('io.example.Listed', {
      items: list(str(), { proto: 1, featureGate: 'Lists' }),
    });
    const g = compileGatedFields(ListRoot)!;
    const obj = { items: ['x'] };
    g.drop(obj, { items: [] }, only());
    expect(obj).toEqual({});
  });

  it('does nothing when every gate is on', () => {
    const obj = { spec: { containers: [{ name: 'a', startupProbe: {} }], policy: 'Never' } };
    gated.drop(obj, undefined, only('Policy', 'StartupProbe'));
    expect(obj.spec.policy).toBe('Never');
    expect(obj.spec.containers[0]!.startupProbe).toEqual({});
  });
});

describe('defaults of gated fields', () => {
  it('apply with the gate on, are held back with it off, and a stored value stays', () => {
    const compiled = compileKind({
      group: 'example.io',
      version: 'v1',
      kind: 'Thing',
      plural: 'things',
      singular: 'thing',
      namespaced: true,
      schema: Root,
    } as never);
    const on = { spec: {} as Record<string, unknown> };
    compiled.default(on, only('Policy'));
    expect(on.spec.policy).toBe('Always');
    const off = { spec: {} as Record<string, unknown> };
    compiled.default(off, only());
    expect(off.spec.policy).toBeUndefined();
    const stored = { spec: { policy: 'Never' } };
    compiled.default(stored, only());
    expect(stored.spec.policy).toBe('Never');
  });
});

describe('the Pod declaration', () => {
  it('gates the pod fields Kubernetes drops while their feature is off', () => {
    expect(compileGatedFields(PodKind.schema)!.gates).toEqual([
      'EphemeralContainers',
      'EvenPodsSpread',
      'LocalStorageCapacityIsolation',
      'NonPreemptingPriority',
      'PodOverhead',
      'PodShareProcessNamespace',
      'ProcMountType',
      'RunAsGroup',
      'RuntimeClass',
      'StartupProbe',
      'Sysctls',
      'TokenRequestProjection',
      'VolumeSubpathEnvExpansion',
    ]);
  });
});
