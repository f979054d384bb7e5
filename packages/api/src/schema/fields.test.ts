import type { Static } from '@sinclair/typebox';
import { OrchKeyword, field, int32, isRequired, list, required, str, struct, structHooks } from './fields';

describe('field vocabulary', () => {
  const Inner = struct(
    'io.example.v1.Inner',
    { port: required(int32({ proto: 1 })), name: str({ proto: 2, format: 'dns1123-label', default: 'x' }) },
    { defaults: (v) => void (v.name ??= 'y') },
  );
  const Outer = struct('io.example.v1.Outer', {
    inner: field(Inner, { proto: 1, immutable: true }),
    items: list(Inner, {
      proto: 2,
      patchMergeKey: 'port',
      patchStrategy: 'merge',
      listType: 'map',
      listMapKeys: ['port'],
    }),
  });

  it('marks required fields in the JSON schema and nowhere else', () => {
    expect(Inner.required).toEqual(['port']);
    expect(Outer.required).toBeUndefined();
    expect(isRequired(Inner.properties.port)).toBe(true);
    expect(isRequired(Inner.properties.name)).toBe(false);
  });

  it('infers the TypeScript type from the declaration', () => {
    const value: Static<typeof Outer> = { inner: { port: 80 }, items: [{ port: 1, name: 'a' }] };
    // @ts-expect-error port is required
    const bad: Static<typeof Inner> = { name: 'a' };
    expect(value.inner?.port).toBe(80);
    expect(bad.name).toBe('a');
  });

  it('annotates per use without touching the shared declaration', () => {
    const node = Outer.properties.inner as unknown as Record<string, unknown>;
    expect(node[OrchKeyword.proto]).toBe(1);
    expect(node[OrchKeyword.immutable]).toBe(true);
    expect((Inner as unknown as Record<string, unknown>)[OrchKeyword.proto]).toBeUndefined();
    expect(structHooks(Outer.properties.inner)).toBe(structHooks(Inner));
    expect(structHooks(Inner)?.defaults).toBeInstanceOf(Function);
  });

  it('publishes merge metadata with Kubernetes spelling', () => {
    const items = Outer.properties.items as unknown as Record<string, unknown>;
    expect(items['x-kubernetes-patch-merge-key']).toBe('port');
    expect(items['x-kubernetes-patch-strategy']).toBe('merge');
    expect(items['x-kubernetes-list-type']).toBe('map');
    expect(items['x-kubernetes-list-map-keys']).toEqual(['port']);
    expect(JSON.parse(JSON.stringify(Inner)).properties.name).toEqual({
      type: 'string',
      'x-orch-format': 'dns1123-label',
      'x-orch-proto': 2,
      default: 'x',
    });
  });
});
