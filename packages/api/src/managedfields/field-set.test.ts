import { DeploymentSchema } from '../kinds/apps/deployment';
import { patchNodeOf } from '../patch/patch-meta';
import { checkFieldsV1, FieldPathSet, type FieldsV1 } from './field-set';
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

  it('keeps the live subtrees a configuration leaves as they are, and changes none of them', () => {
    const node = patchNodeOf(DeploymentSchema);
    const live = {
      metadata: { labels: { app: 'web' }, annotations: { rev: '1' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'a', image: 'a:1', env: [{ name: 'REV', value: '1' }] },
              { name: 'b', image: 'b:1', args: ['--x'] },
            ],
          },
        },
      },
    };
    const before = JSON.stringify(live);
    const config = JSON.parse(before) as typeof live;
    config.metadata.annotations.rev = '2';
    config.spec.template.spec.containers[0]!.env![0]!.value = '2';
    const merged = mergeApplied(live, config, node) as typeof live;
    expect(merged).toEqual(config);
    expect(JSON.stringify(live)).toBe(before);
    // unchanged: the live values themselves (atomic ones too), changed: new ones along the path
    expect(merged.metadata.labels).toBe(live.metadata.labels);
    expect(merged.spec.selector).toBe(live.spec.selector);
    expect(merged.spec.template.metadata).toBe(live.spec.template.metadata);
    expect(merged.spec.template.spec.containers[1]).toBe(live.spec.template.spec.containers[1]);
    expect(merged.spec.template.spec.containers[0]).not.toBe(live.spec.template.spec.containers[0]);
    expect(merged.metadata).not.toBe(live.metadata);
    // a configuration that changes nothing gives the live object back
    expect(mergeApplied(live, JSON.parse(before), node)).toBe(live);
    // removing a field (null) and adding one make new maps
    const removed = mergeApplied(live, { metadata: { annotations: null } }, node) as typeof live;
    expect(removed.metadata).toEqual({ labels: { app: 'web' } });
    expect(live.metadata.annotations).toEqual({ rev: '1' });
    const unchangedByNull = mergeApplied(live, { metadata: { finalizers: null } }, node);
    expect(unchangedByNull).toBe(live);
  });

  it('checks FieldsV1 and tells whether it is written exactly as toFieldsV1 writes it', () => {
    const written = set(
      ['f:spec', 'f:replicas'],
      ['f:spec', 'f:template'],
      ['f:spec', 'f:template', 'f:x'],
      ['i:2'],
    );
    expect(checkFieldsV1(written.toFieldsV1())).toBe(true);
    expect(checkFieldsV1({})).toBe(true);
    // a canonical value is remembered; asked again it is still canonical, others are checked anew
    const canonical = written.toFieldsV1();
    expect(checkFieldsV1(canonical)).toBe(true);
    expect(checkFieldsV1(canonical)).toBe(true);
    const unsorted = { 'f:b': {}, 'f:a': {} };
    expect(checkFieldsV1(unsorted)).toBe(false);
    expect(checkFieldsV1(unsorted)).toBe(false);
    // unsorted keys, `.` on a leaf, `.` after other keys, `.` at the root, a non-empty `.`
    expect(checkFieldsV1({ 'f:b': {}, 'f:a': {} })).toBe(false);
    expect(checkFieldsV1({ 'i:10': {}, 'i:2': {} })).toBe(false);
    expect(checkFieldsV1({ 'f:a': { '.': {} } })).toBe(false);
    expect(checkFieldsV1({ 'f:a': { 'f:b': {}, '.': {} } })).toBe(false);
    expect(checkFieldsV1({ '.': {}, 'f:a': {} })).toBe(false);
    expect(checkFieldsV1({ 'f:a': { '.': { x: 1 }, 'f:b': {} } })).toBe(false);
    // what fromFieldsV1 refuses, checkFieldsV1 refuses with the same message
    for (const bad of [{ nope: {} }, { 'f:a': [] }, { 'f:a': { 'f:b': 'x' } }, []]) {
      expect(() => checkFieldsV1(bad)).toThrow(
        (() => {
          try {
            FieldPathSet.fromFieldsV1(bad);
          } catch (e) {
            return (e as Error).message;
          }
          return 'fromFieldsV1 accepted it';
        })(),
      );
    }
  });

  it('tests membership against FieldsV1 as against the set it encodes', () => {
    const owned = set(
      ['f:spec', 'f:replicas'],
      ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"a"}'],
      ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"a"}', 'f:image'],
      ['f:metadata', 'f:labels', 'f:app'],
    );
    const json: FieldsV1 = owned.toFieldsV1();
    const cases = [
      set(['f:spec', 'f:replicas']),
      set(['f:spec', 'f:paused']),
      set(['f:spec']),
      set(['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"a"}']),
      set(['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"b"}', 'f:image']),
      set(['f:spec', 'f:replicas'], ['f:metadata', 'f:labels', 'f:app']),
      set(['f:spec', 'f:replicas'], ['f:metadata', 'f:labels', 'f:tier']),
      owned,
      owned.union(set(['f:data'])),
      new FieldPathSet(),
    ];
    for (const s of cases) {
      expect(s.intersectsFieldsV1(json)).toBe(!s.intersection(owned).empty());
      expect(s.isSubsetOfFieldsV1(json)).toBe(s.difference(owned).empty());
      expect(s.coversFieldsV1(json)).toBe(owned.difference(s).empty());
      expect(s.equalsFieldsV1(json)).toBe(s.equals(owned));
    }
    // a set holding empty levels (elements removed below) still equals what it encodes
    const emptied = owned.union(set(['f:status', 'f:phase']));
    emptied.childIfAny('f:status')!.removeElement('f:phase');
    expect(emptied.equalsFieldsV1(json)).toBe(true);
    expect(set(['f:spec', 'f:replicas', 'f:x']).equalsFieldsV1({ 'f:spec': { 'f:replicas': {} } })).toBe(
      false,
    );
  });

  it('removes members from FieldsV1 as difference does, sharing the levels it leaves alone', () => {
    const owned = set(
      ['f:metadata', 'f:labels', 'f:app'],
      ['f:metadata', 'f:labels', 'f:tier'],
      ['f:spec', 'f:replicas'],
      ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"a"}'],
      ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"a"}', 'f:image'],
      ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"a"}', 'f:name'],
      ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"b"}'],
      ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"b"}', 'f:image'],
    );
    const json: FieldsV1 = owned.toFieldsV1();
    const a = ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"a"}'];
    const cases = [
      set([...a, 'f:image']),
      set([...a, 'f:image'], [...a, 'f:name']),
      set(a),
      set(a, [...a, 'f:image'], [...a, 'f:name']),
      set(
        ['f:spec', 'f:replicas'],
        ['f:metadata', 'f:labels', 'f:app'],
        ['f:metadata', 'f:labels', 'f:tier'],
      ),
      set(['f:spec']),
      set(['f:spec', 'f:paused'], ['f:data']),
      owned,
      new FieldPathSet(),
    ];
    for (const s of cases) {
      const rest = s.removeFromFieldsV1(json);
      const expected = owned.difference(s).toFieldsV1();
      // same elements in the same order, and written as toFieldsV1 writes it
      expect(JSON.stringify(rest)).toBe(JSON.stringify(expected));
      expect(checkFieldsV1(rest)).toBe(true);
    }
    // nothing to remove: the value itself; an untouched level: shared
    expect(set(['f:spec', 'f:paused']).removeFromFieldsV1(json)).toBe(json);
    const rest = set([...a, 'f:image']).removeFromFieldsV1(json);
    expect(rest['f:metadata']).toBe(json['f:metadata']);
    expect(json).toEqual(owned.toFieldsV1());
  });
});
