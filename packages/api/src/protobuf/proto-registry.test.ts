import { allKinds } from '../kinds';
import { ProtoRegistry } from './proto-registry';

describe('ProtoRegistry construction', () => {
  const pod = 'k8s.io.api.core.v1.Pod';
  const podList = 'k8s.io.api.core.v1.PodList';
  const container = 'k8s.io.api.core.v1.Container';
  const lease = 'k8s.io.api.coordination.v1.Lease';

  it('defines a kind’s messages on first use, with what they refer to', () => {
    const registry = new ProtoRegistry(allKinds);
    expect(registry.messageOf('', 'v1', 'Pod')).toBe(pod);
    expect(registry.messageOf('', 'v1', 'PodList')).toBe(podList);
    expect(registry.types.lookup(pod)).toBeNull();
    expect(registry.types.lookup(container)).toBeNull();

    const obj = {
      metadata: { name: 'web', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    };
    const list = { metadata: { resourceVersion: '7' }, items: [obj] };
    expect(registry.decodeMessage(podList, registry.encodeMessage(podList, list))).toEqual(list);
    expect(registry.types.lookupType(pod).fieldsById[1]?.name).toBe('metadata');
    expect(registry.types.lookupType(container).fieldsById[2]?.name).toBe('image');
    expect(registry.types.lookup(lease)).toBeNull();
  });

  it('encodes a kind the same whether it was defined alone or with every other kind', () => {
    const lazy = new ProtoRegistry(allKinds);
    const full = new ProtoRegistry(allKinds);
    expect(full.root.lookupType(lease).name).toBe('Lease');
    const obj = {
      metadata: { name: 'n', namespace: 'orch-node-lease' },
      spec: { holderIdentity: 'n', leaseDurationSeconds: 40 },
    };
    expect(Buffer.from(lazy.encodeMessage(lease, obj))).toEqual(Buffer.from(full.encodeMessage(lease, obj)));
  });

  it('makes every declared kind available through root', () => {
    const registry = new ProtoRegistry(allKinds);
    const root = registry.root;
    for (const decl of allKinds.filter((d) => !d.jsonOnly)) {
      const name = registry.messageOf(decl.group, decl.versions[0]!, decl.kind)!;
      expect(root.lookupType(name)).toBeDefined();
    }
  });

  it('still rejects an unknown message', () => {
    expect(() => new ProtoRegistry(allKinds).encodeMessage('k8s.io.api.core.v1.Nothing', {})).toThrow(
      'no protobuf message k8s.io.api.core.v1.Nothing',
    );
  });
});
