import { allKinds, ProtobufCodec, validObjectOf } from '@orch/api';
import { encodeJSONList, encodeProtobufList, type ListBody } from './encode-list';

const codec = new ProtobufCodec(allKinds);

function podList(count: number, resourceVersion = '42'): ListBody {
  const items = Array.from({ length: count }, (_, i) => {
    const pod = validObjectOf('', 'v1', 'Pod', { name: `pod-${i}`, namespace: 'default' })!;
    const metadata = pod.metadata as Record<string, unknown>;
    metadata.resourceVersion = String(10 + i);
    metadata.uid = `uid-${i}`;
    return pod as { apiVersion: string; kind: string };
  });
  return {
    apiVersion: 'v1',
    kind: 'PodList',
    metadata: { resourceVersion, continue: 'token', remainingItemCount: 3 },
    items,
  };
}

/** What the list answer is without splicing: items without apiVersion and kind. */
function stripped(list: ListBody): Record<string, unknown> {
  return { ...list, items: list.items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest) };
}

describe('encodeJSONList', () => {
  test('gives the bytes of JSON.stringify of the list with bare items, and a newline', () => {
    for (const count of [0, 1, 3]) {
      const list = podList(count);
      expect(encodeJSONList(list).toString()).toBe(JSON.stringify(stripped(list)) + '\n');
    }
  });

  test('an item is encoded once and spliced into every list that serves it', () => {
    const list = podList(2);
    const first = encodeJSONList(list).toString();
    // the cached item bytes are used: a list around the same item objects with other metadata
    const again = encodeJSONList({ ...list, metadata: { resourceVersion: '43' } });
    expect(again.toString()).toBe(
      JSON.stringify({ ...stripped(list), metadata: { resourceVersion: '43' } }) + '\n',
    );
    expect(JSON.parse(first).items).toEqual(JSON.parse(again.toString()).items);
    expect(JSON.parse(first).items[0].kind).toBeUndefined();
  });
});

describe('encodeProtobufList', () => {
  test('gives the bytes the codec gives for the whole list', () => {
    for (const count of [0, 1, 3]) {
      const list = podList(count);
      const spliced = Buffer.from(encodeProtobufList(list, codec));
      expect(spliced.equals(Buffer.from(codec.encode(stripped(list))))).toBe(true);
    }
  });

  test('decodes to the list with its items', () => {
    const list = podList(2);
    const decoded = codec.decode(encodeProtobufList(list, codec)) as {
      kind: string;
      metadata: { resourceVersion: string; continue: string };
      items: { metadata: { name: string; resourceVersion: string } }[];
    };
    expect(decoded.kind).toBe('PodList');
    expect(decoded.metadata).toMatchObject({ resourceVersion: '42', continue: 'token' });
    expect(decoded.items.map((i) => i.metadata.name)).toEqual(['pod-0', 'pod-1']);
    expect(decoded.items[1]!.metadata.resourceVersion).toBe('11');
  });

  test('items longer than 127 bytes get a multi-byte length', () => {
    const list = podList(1);
    const item = list.items[0] as { metadata: { annotations: Record<string, string> } };
    item.metadata.annotations['example.com/big'] = 'x'.repeat(70_000);
    const spliced = Buffer.from(encodeProtobufList(list, codec));
    expect(spliced.equals(Buffer.from(codec.encode(stripped(list))))).toBe(true);
  });
});
