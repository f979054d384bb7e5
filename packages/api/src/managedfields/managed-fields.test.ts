import { rfc3339Seconds } from './managed-fields';

describe('rfc3339Seconds', () => {
  it('writes a time to the second in UTC, the same text within a second', () => {
    expect(rfc3339Seconds(new Date('2024-05-01T10:00:00.123Z'))).toBe('2024-05-01T10:00:00Z');
    expect(rfc3339Seconds(new Date('2024-05-01T10:00:00.999Z'))).toBe('2024-05-01T10:00:00Z');
    expect(rfc3339Seconds(new Date('2024-05-01T10:00:01.000Z'))).toBe('2024-05-01T10:00:01Z');
    expect(rfc3339Seconds(new Date('2023-12-31T23:59:59.500+01:00'))).toBe('2023-12-31T22:59:59Z');
    // back in time as well
    expect(rfc3339Seconds(new Date('2024-05-01T10:00:00.001Z'))).toBe('2024-05-01T10:00:00Z');
  });
});
