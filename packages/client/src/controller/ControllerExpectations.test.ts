import {
  ControllerExpectations,
  EXPECTATIONS_TIMEOUT_MS,
  UIDTrackingControllerExpectations,
} from './ControllerExpectations';

describe('ControllerExpectations', () => {
  let now = 1_000_000;
  const clock = (): number => now;

  it('is satisfied without expectations, once all are observed, or after the 5-minute TTL', () => {
    const e = new ControllerExpectations(undefined, clock);
    expect(e.satisfiedExpectations('ns/rs')).toBe(true);
    e.expectCreations('ns/rs', 2);
    expect(e.satisfiedExpectations('ns/rs')).toBe(false);
    e.creationObserved('ns/rs');
    expect(e.get('ns/rs')).toMatchObject({ add: 1, del: 0 });
    expect(e.satisfiedExpectations('ns/rs')).toBe(false);
    e.creationObserved('ns/rs');
    expect(e.satisfiedExpectations('ns/rs')).toBe(true);

    e.expectDeletions('ns/rs', 1);
    expect(e.satisfiedExpectations('ns/rs')).toBe(false);
    now += EXPECTATIONS_TIMEOUT_MS;
    expect(e.satisfiedExpectations('ns/rs')).toBe(false);
    now += 1;
    expect(e.satisfiedExpectations('ns/rs')).toBe(true);
  });

  it('raises and lowers only recorded expectations; observations below zero stay satisfied', () => {
    const e = new ControllerExpectations(undefined, clock);
    e.creationObserved('x');
    expect(e.get('x')).toBeUndefined();
    e.setExpectations('x', 1, 1);
    e.raiseExpectations('x', 2, 0);
    expect(e.get('x')).toMatchObject({ add: 3, del: 1 });
    e.lowerExpectations('x', 3, 1);
    e.creationObserved('x');
    expect(e.get('x')).toMatchObject({ add: -1, del: 0 });
    expect(e.satisfiedExpectations('x')).toBe(true);
    e.delete('x');
    expect(e.get('x')).toBeUndefined();
  });

  it('tracks deleted keys so each deletion counts once', () => {
    const e = new UIDTrackingControllerExpectations(undefined, clock);
    e.expectDeletionsOf('ns/rs', ['ns/p1', 'ns/p2']);
    e.deletionObservedOf('ns/rs', 'ns/p1');
    e.deletionObservedOf('ns/rs', 'ns/p1');
    e.deletionObservedOf('ns/rs', 'ns/other');
    expect(e.get('ns/rs')).toMatchObject({ del: 1 });
    expect([...e.getUIDs('ns/rs')!]).toEqual(['ns/p2']);
    e.deletionObservedOf('ns/rs', 'ns/p2');
    expect(e.satisfiedExpectations('ns/rs')).toBe(true);
  });
});
