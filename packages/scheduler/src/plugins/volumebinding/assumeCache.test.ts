import { AssumeCache } from './assumeCache';

interface Obj {
  metadata: { name: string; resourceVersion: string };
  value: string;
}

const obj = (rv: string, value: string): Obj => ({ metadata: { name: 'o', resourceVersion: rv }, value });

describe('AssumeCache', () => {
  it('serves the assumed object until the informer has a newer one', () => {
    const informer = new Map<string, Obj>([['o', obj('5', 'api')]]);
    const cache = new AssumeCache<Obj>('v1.Thing', (k) => informer.get(k));
    cache.assume('o', obj('5', 'assumed'));
    expect(cache.get('o')?.value).toBe('assumed');
    expect(cache.getAPIObject('o')?.value).toBe('api');
    expect(cache.latest([...informer.values()], (o) => o.metadata.name).map((o) => o.value)).toEqual([
      'assumed',
    ]);
    informer.set('o', obj('6', 'written'));
    expect(cache.get('o')?.value).toBe('written');
    expect(cache.isAssumed('o')).toBe(false);
  });

  it('restores the informer object, and refuses missing or older objects', () => {
    const informer = new Map<string, Obj>([['o', obj('5', 'api')]]);
    const cache = new AssumeCache<Obj>('v1.Thing', (k) => informer.get(k));
    cache.assume('o', obj('5', 'assumed'));
    cache.restore('o');
    expect(cache.get('o')?.value).toBe('api');
    expect(() => cache.assume('o', obj('4', 'old'))).toThrow(
      'v1.Thing "o" is out of sync (stored: 5, assume: 4)',
    );
    expect(() => cache.assume('gone', obj('9', 'x'))).toThrow('could not find v1.Thing "gone"');
  });

  it('drops the assumed object when the informer loses it', () => {
    const informer = new Map<string, Obj>([['o', obj('5', 'api')]]);
    const cache = new AssumeCache<Obj>('v1.Thing', (k) => informer.get(k));
    cache.assume('o', obj('5', 'assumed'));
    informer.delete('o');
    expect(cache.get('o')).toBeUndefined();
  });
});
