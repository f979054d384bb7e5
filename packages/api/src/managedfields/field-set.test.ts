import { DeploymentSchema } from '../kinds/apps/deployment';
import { patchNodeOf } from '../patch/patch-meta';
import { FieldPathSet } from './field-set';
import { mergeApplied } from './merge';
import { printPath } from './path-element';
import { toFieldSet } from './to-field-set';

const set = (...paths: string[][]) => {
  const s = new FieldPathSet();
  for (const p of paths) s.insert(p);
  return s;
};

describe('field sets', () => {
  const a = set(['f:spec', 'f:replicas'], ['f:spec', 'f:paused'], ['f:metadata', 'f:labels', 'f:app']);
  const b = set(['f:spec', 'f:replicas'], ['f:data']);

  it('unions, differences and intersections path by path', () => {
    expect(a.union(b).toFieldsV1()).toEqual({
      'f:data': {},
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:paused': {}, 'f:replicas': {} },
    });
    expect(a.difference(b).toFieldsV1()).toEqual({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:paused': {} },
    });
    expect(a.intersection(b).toFieldsV1()).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(a.difference(a).empty()).toBe(true);
    expect(a.has(['f:spec', 'f:paused'])).toBe(true);
    expect(a.has(['f:spec'])).toBe(false);
  });

  it('orders elements as Kubernetes: fields, keys, values, indexes', () => {
    const s = set(['i:10'], ['i:2'], ['v:"x"'], ['k:{"name":"a"}'], ['f:z'], ['f:a']);
    expect(Object.keys(s.toFieldsV1())).toEqual(['f:a', 'f:z', 'k:{"name":"a"}', 'v:"x"', 'i:2', 'i:10']);
  });

  it('prints paths as conflicts name them', () => {
    expect(
      printPath(['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"nginx"}', 'f:image']),
    ).toBe('.spec.template.spec.containers[name="nginx"].image');
    expect(printPath(['f:ports', 'k:{"containerPort":80,"protocol":"TCP"}'])).toBe(
      '.ports[containerPort=80,protocol="TCP"]',
    );
    expect(printPath(['f:metadata', 'f:finalizers', 'v:"a.io/x"'])).toBe('.metadata.finalizers[="a.io/x"]');
  });

  it('refuses list items without their key and duplicate keys', () => {
    const node = patchNodeOf(DeploymentSchema);
    const bad = (containers: unknown[]) => ({ spec: { template: { spec: { containers } } } });
    expect(() => toFieldSet(bad([{ image: 'x' }]), node)).toThrow(
      '.spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    );
    expect(() => toFieldSet(bad([{ name: 'a' }, { name: 'a' }]), node)).toThrow(
      '.spec.template.spec.containers: duplicate entries for key [name="a"]',
    );
  });

  it('merges associative lists by key, keeping the applied order of shared items', () => {
    const node = patchNodeOf(DeploymentSchema);
    const c = (...names: string[]) => ({
      spec: { template: { spec: { containers: names.map((name) => ({ name, image: `${name}:1` })) } } },
    });
    const merged = mergeApplied(c('a', 'x', 'b'), c('b', 'a', 'n'), node) as any;
    expect(merged.spec.template.spec.containers.map((x: any) => x.name)).toEqual(['x', 'b', 'a', 'n']);
  });
});
