import { labelZonesToSet, VOLUME_ZONE_LABELS } from './zone-labels';

describe('labelZonesToSet', () => {
  it.each([
    ['zone-a', ['zone-a']],
    ['zone-a__zone-b', ['zone-a', 'zone-b']],
    [' zone-a __ zone-b ', ['zone-a', 'zone-b']],
  ])('%j is %j', (value, zones) => {
    expect([...labelZonesToSet(value)]).toEqual(zones);
  });

  it.each(['', 'zone-a__', '__zone-b', 'a____b'])('rejects %j, which has an empty zone', (value) => {
    expect(() => labelZonesToSet(value)).toThrow('"__" separated list');
  });

  it('knows the stable and beta zone and region labels', () => {
    expect([...VOLUME_ZONE_LABELS].sort()).toEqual([
      'failure-domain.beta.kubernetes.io/region',
      'failure-domain.beta.kubernetes.io/zone',
      'topology.kubernetes.io/region',
      'topology.kubernetes.io/zone',
    ]);
  });
});
