import { parseQuantity, type Container, type Pod } from '@orch/api';
import { ContainerConfigError } from './buildEnv';
import { quantityInDivisor, resourceFieldValue } from './resourceEnv';

const app = {
  name: 'app',
  resources: { limits: { cpu: '250m', memory: '64Mi' }, requests: { cpu: '100m', memory: '32Mi' } },
} as unknown as Container;
const bare = { name: 'bare' } as Container;
const pod = { spec: { containers: [app, bare] } } as unknown as Pod;
const allocatable = { cpu: '3500m', memory: '8Gi', 'ephemeral-storage': '100Gi', pods: '110' };

const value = (c: Container, resource: string, divisor?: string, containerName?: string) =>
  resourceFieldValue(
    pod,
    c,
    { resource, ...(divisor ? { divisor } : {}), ...(containerName ? { containerName } : {}) },
    allocatable,
  );

describe('resourceFieldValue', () => {
  it('gives limits and requests in units of the divisor (1 by default), rounded up', () => {
    expect(value(app, 'limits.cpu')).toBe('1');
    expect(value(app, 'limits.cpu', '1m')).toBe('250');
    expect(value(app, 'requests.cpu', '1m')).toBe('100');
    expect(value(app, 'limits.memory')).toBe(String(64 * 1024 * 1024));
    expect(value(app, 'limits.memory', '1Mi')).toBe('64');
    expect(value(app, 'requests.memory', '1Gi')).toBe('1');
    expect(value(app, 'requests.memory', '1M')).toBe('34');
  });

  it("takes an unset limit from the node's allocatable; an unset request is 0", () => {
    expect(value(bare, 'limits.cpu')).toBe('4');
    expect(value(bare, 'limits.cpu', '1m')).toBe('3500');
    expect(value(bare, 'limits.memory', '1Gi')).toBe('8');
    expect(value(bare, 'limits.ephemeral-storage', '1Gi')).toBe('100');
    expect(value(bare, 'requests.cpu')).toBe('0');
    expect(value(bare, 'requests.memory')).toBe('0');
  });

  it('reads another container of the pod when containerName is set', () => {
    expect(value(bare, 'limits.cpu', '1m', 'app')).toBe('250');
    expect(() => value(bare, 'limits.cpu', '1m', 'nope')).toThrow(ContainerConfigError);
  });

  it('rejects resources the downward API does not expose', () => {
    expect(() => value(app, 'limits.pods')).toThrow('unsupported container resource : limits.pods');
  });
});

describe('quantityInDivisor', () => {
  it('is exact and rounds up', () => {
    expect(quantityInDivisor(parseQuantity('1001m'), parseQuantity('1'))).toBe('2');
    expect(quantityInDivisor(parseQuantity('1'), parseQuantity('1m'))).toBe('1000');
    expect(quantityInDivisor(parseQuantity('0'), parseQuantity('1k'))).toBe('0');
  });
});
