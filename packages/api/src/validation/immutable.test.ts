import { field, int32, list, map, required, str, struct } from '../schema/fields';
import { errorMessage } from './field-error';
import { compileImmutable, semanticEqual } from './immutable';

const Port = struct('io.k8s.api.core.v1.ContainerPort', {
  containerPort: required(int32({ proto: 3 })),
  protocol: str({ proto: 4, immutable: true }),
});
const Container = struct('io.k8s.api.core.v1.Container', {
  name: required(str({ proto: 1 })),
  image: str({ proto: 2 }),
  command: list(str(), { proto: 3, immutable: true }),
  ports: list(Port, { proto: 6, patchMergeKey: 'containerPort', patchStrategy: 'merge' }),
});
const Spec = struct('io.k8s.api.test.v1.TestSpec', {
  nodeName: str({ proto: 1, immutable: true }),
  containers: list(Container, { proto: 2, patchMergeKey: 'name', patchStrategy: 'merge' }),
  volumes: list(
    struct('io.k8s.api.core.v1.Volume', {
      name: str({ proto: 1 }),
      path: str({ proto: 2, immutable: true }),
    }),
    {
      proto: 3,
    },
  ),
  byName: map(struct('io.k8s.api.test.v1.Item', { size: int32({ proto: 1, immutable: true }) }), {
    proto: 4,
  }),
  selector: field(struct('io.k8s.api.test.v1.Selector', { app: str({ proto: 1 }) }), {
    proto: 5,
    immutable: true,
  }),
});
const compare = compileImmutable(struct('io.k8s.api.test.v1.Test', { spec: field(Spec, { proto: 2 }) }))!;

function changes(spec: Record<string, unknown>, oldSpec: Record<string, unknown>): string[] {
  const out: Parameters<typeof compare>[2] = [];
  compare({ spec }, { spec: oldSpec }, out);
  return out.map(errorMessage);
}

describe('compileImmutable', () => {
  const old = {
    nodeName: 'n1',
    containers: [
      { name: 'a', image: 'x:1', command: ['run'], ports: [{ containerPort: 80, protocol: 'TCP' }] },
      { name: 'b', image: 'y:1' },
    ],
    volumes: [{ name: 'v', path: '/data' }],
    byName: { one: { size: 1 } },
    selector: { app: 'web' },
  };

  it('allows changing mutable fields', () => {
    const spec = structuredClone(old);
    spec.containers[0]!.image = 'x:2';
    expect(changes(spec, old)).toEqual([]);
  });

  it('reports each changed immutable field with its path and new value', () => {
    const spec = structuredClone(old);
    spec.nodeName = 'n2';
    spec.selector.app = 'db';
    spec.volumes[0]!.path = '/other';
    spec.byName.one.size = 2;
    expect(changes(spec, old)).toEqual([
      'spec.nodeName: Invalid value: "n2": field is immutable',
      'spec.volumes[0].path: Invalid value: "/other": field is immutable',
      'spec.byName[one].size: Invalid value: 2: field is immutable',
      'spec.selector: Invalid value: {"app":"db"}: field is immutable',
    ]);
  });

  it('matches list items by merge key, reporting the new index', () => {
    const spec = structuredClone(old);
    spec.containers.reverse();
    spec.containers[1]!.command = ['serve'];
    spec.containers[1]!.ports![0]!.protocol = 'UDP';
    expect(changes(spec, old)).toEqual([
      'spec.containers[1].command: Invalid value: []string{"serve"}: field is immutable',
      'spec.containers[1].ports[0].protocol: Invalid value: "UDP": field is immutable',
    ]);
  });

  it('does not compare items that exist on one side only', () => {
    const spec = structuredClone(old);
    spec.containers.push({ name: 'c', image: 'z', command: ['new'] } as never);
    expect(changes(spec, old)).toEqual([]);
  });

  it('treats absent and empty values alike, as Go zero values', () => {
    expect(semanticEqual(undefined, '')).toBe(true);
    expect(semanticEqual(undefined, [])).toBe(true);
    expect(semanticEqual({ a: [] }, {})).toBe(true);
    expect(semanticEqual(undefined, 0)).toBe(false);
    expect(semanticEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(semanticEqual([1, 2], [2, 1])).toBe(false);
  });
});
