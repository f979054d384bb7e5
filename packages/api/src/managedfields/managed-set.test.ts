import { FieldPathSet, FieldsV1Error } from './field-set';
import { ManagedSet } from './managed-set';

const id = { manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', subresource: '' };
const set = (...paths: string[][]) => {
  const s = new FieldPathSet();
  for (const p of paths) s.insert(p);
  return s;
};

describe('ManagedSet', () => {
  const fields = () => ({
    'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
    'f:spec': { 'f:replicas': {}, 'f:selector': {} },
  });

  it('writes back the FieldsV1 it read while the set does not change', () => {
    const json = fields();
    const m = ManagedSet.read(id, json, '2024-05-01T10:00:00Z');
    expect(m.empty()).toBe(false);
    m.release(set(['f:spec', 'f:paused']), set(['f:metadata', 'f:annotations', 'f:x']));
    m.take(set(['f:spec', 'f:replicas']));
    expect(m.toFieldsV1()).toBe(json);
    expect(m.set.has(['f:metadata', 'f:labels'])).toBe(true);
    expect(m.set.has(['f:metadata', 'f:labels', 'f:app'])).toBe(true);
  });

  it('encodes again once fields are released or taken', () => {
    const released = ManagedSet.read(id, fields(), undefined);
    released.release(set(['f:spec', 'f:replicas']));
    expect(released.toFieldsV1()).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { 'f:selector': {} },
    });
    const taken = ManagedSet.read(id, fields(), undefined);
    taken.take(set(['f:spec', 'f:paused']));
    expect(taken.toFieldsV1()).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { 'f:paused': {}, 'f:replicas': {}, 'f:selector': {} },
    });
    const emptied = ManagedSet.read(id, { 'f:spec': { 'f:replicas': {} } }, undefined);
    emptied.release(set(['f:spec', 'f:replicas']));
    expect(emptied.empty()).toBe(true);
  });

  it('compares with sets whether decoded or not', () => {
    const a = set(
      ['f:spec', 'f:replicas'],
      ['f:spec', 'f:selector'],
      ['f:metadata', 'f:labels'],
      ['f:metadata', 'f:labels', 'f:app'],
    );
    for (const m of [ManagedSet.read(id, fields(), undefined), ManagedSet.of(id, a.copy(), undefined)]) {
      expect(m.covers(a) && m.within(a)).toBe(true);
      expect(m.within(a.union(set(['f:data'])))).toBe(true);
      expect(m.covers(a.union(set(['f:data'])))).toBe(false);
      expect(m.within(set(['f:spec', 'f:replicas']))).toBe(false);
      expect(m.intersects(set(['f:spec', 'f:replicas'], ['f:data']))).toBe(true);
      expect(m.intersects(set(['f:spec']))).toBe(false);
    }
  });

  it('normalizes FieldsV1 not written as Kubernetes writes it, and refuses what is not FieldsV1', () => {
    const m = ManagedSet.read(id, { 'f:spec': { 'f:selector': {}, 'f:replicas': { '.': {} } } }, undefined);
    expect(m.toFieldsV1()).toEqual({ 'f:spec': { 'f:replicas': {}, 'f:selector': {} } });
    expect(ManagedSet.read(id, { '.': {} }, undefined).empty()).toBe(true);
    expect(() => ManagedSet.read(id, { 'f:spec': 'x' }, undefined)).toThrow(FieldsV1Error);
    expect(() => ManagedSet.read(id, { spec: {} }, undefined)).toThrow('unexpected path element "spec"');
  });
});
