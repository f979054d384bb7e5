import {
  bootstrapTokenData,
  bootstrapTokenExpiration,
  bootstrapTokenForSigning,
  bootstrapTokenSecretName,
  bootstrapTokenUsages,
  isBootstrapTokenSecret,
  isValidBootstrapTokenID,
  isValidBootstrapTokenSecret,
  parseBootstrapToken,
  parseBootstrapTokenSecretName,
} from './bootstrap-token';
import type { Secret } from './secret';

const NOW = Date.parse('2030-01-01T00:00:00Z');

function tokenSecret(data: Record<string, string>, name = 'bootstrap-token-abcdef'): Secret {
  return {
    metadata: { name, namespace: 'orch-system' },
    type: 'bootstrap.kubernetes.io/token',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  };
}

const signing = (extra: Record<string, string> = {}): Secret =>
  tokenSecret({
    'token-id': 'abcdef',
    'token-secret': '0123456789abcdef',
    'usage-bootstrap-signing': 'true',
    ...extra,
  });

describe('token and secret names', () => {
  test('a token is six then sixteen lowercase letters or digits, joined by a dot', () => {
    expect(parseBootstrapToken('abcdef.0123456789abcdef')).toEqual({
      id: 'abcdef',
      secret: '0123456789abcdef',
    });
    for (const bad of [
      'abcdef0123456789abcdef',
      'ABCDEF.0123456789abcdef',
      'abcde.0123456789abcdef',
      'abcdef.0123456789abcdefg',
      'abcdef.0123456789abcde_',
    ])
      expect(parseBootstrapToken(bad)).toBeUndefined();
    expect(isValidBootstrapTokenID('a1b2c3')).toBe(true);
    expect(isValidBootstrapTokenID('a1b2c')).toBe(false);
    expect(isValidBootstrapTokenSecret('0123456789abcdef')).toBe(true);
    expect(isValidBootstrapTokenSecret('0123456789abcdeF')).toBe(false);
  });

  test('the Secret is bootstrap-token-<token-id>', () => {
    expect(bootstrapTokenSecretName('abcdef')).toBe('bootstrap-token-abcdef');
    expect(parseBootstrapTokenSecretName('bootstrap-token-abcdef')).toBe('abcdef');
    expect(parseBootstrapTokenSecretName('bootstrap-token-abcdefg')).toBeUndefined();
    expect(parseBootstrapTokenSecretName('bootstrap-token-ABCDEF')).toBeUndefined();
    expect(parseBootstrapTokenSecretName('token-abcdef')).toBeUndefined();
  });

  test('a bootstrap token Secret has its type and lives in orch-system', () => {
    expect(isBootstrapTokenSecret(signing())).toBe(true);
    expect(isBootstrapTokenSecret({ ...signing(), type: 'Opaque' })).toBe(false);
    expect(
      isBootstrapTokenSecret({
        ...signing(),
        metadata: { name: 'bootstrap-token-abcdef', namespace: 'default' },
      }),
    ).toBe(false);
  });
});

describe('data', () => {
  test('values are decoded; a missing key is empty', () => {
    expect(bootstrapTokenData(signing(), 'token-secret')).toBe('0123456789abcdef');
    expect(bootstrapTokenData(signing(), 'description')).toBe('');
    expect(bootstrapTokenData({ metadata: {} }, 'token-id')).toBe('');
  });

  test('usages are those set to "true"', () => {
    const secret = signing({ 'usage-bootstrap-authentication': 'true', 'usage-bootstrap-other': 'yes' });
    expect(bootstrapTokenUsages(secret)).toEqual(['authentication', 'signing']);
    expect(bootstrapTokenUsages(tokenSecret({ 'usage-bootstrap-signing': 'True' }))).toEqual([]);
  });
});

describe('expiration', () => {
  test('a token without expiration never expires', () => {
    expect(bootstrapTokenExpiration(signing(), NOW)).toEqual({ expired: false });
  });

  test('a token expires once its RFC 3339 expiration has passed', () => {
    expect(bootstrapTokenExpiration(signing({ expiration: '2030-01-01T00:00:05Z' }), NOW)).toEqual({
      expired: false,
      remainingMs: 5000,
    });
    expect(bootstrapTokenExpiration(signing({ expiration: '2030-01-01T01:00:05+01:00' }), NOW)).toEqual({
      expired: false,
      remainingMs: 5000,
    });
    expect(bootstrapTokenExpiration(signing({ expiration: '2030-01-01T00:00:00Z' }), NOW)).toEqual({
      expired: true,
    });
    expect(bootstrapTokenExpiration(signing({ expiration: '2029-12-31T23:59:59Z' }), NOW)).toEqual({
      expired: true,
    });
  });

  test('an expiration that does not parse counts as expired', () => {
    for (const bad of ['tomorrow', '2030-01-01', '2030-02-30T00:00:00Z', '2030-01-01 00:00:05Z'])
      expect(bootstrapTokenExpiration(signing({ expiration: bad }), NOW)).toEqual({ expired: true });
  });
});

describe('signing tokens', () => {
  test('a token named after its id, with a secret and the signing usage, signs until it expires', () => {
    expect(bootstrapTokenForSigning(signing(), NOW)).toEqual({ id: 'abcdef', secret: '0123456789abcdef' });
    expect(bootstrapTokenForSigning(signing({ expiration: '2030-01-01T00:01:00Z' }), NOW)).toEqual({
      id: 'abcdef',
      secret: '0123456789abcdef',
      remainingMs: 60_000,
    });
  });

  test.each([
    [
      'the name is not bootstrap-token-<id>',
      tokenSecret(
        { 'token-id': 'abcdef', 'token-secret': 's', 'usage-bootstrap-signing': 'true' },
        'token-abcdef',
      ),
    ],
    ['the id does not match the name', signing({ 'token-id': 'zzzzzz' })],
    [
      'there is no id',
      tokenSecret({ 'token-secret': '0123456789abcdef', 'usage-bootstrap-signing': 'true' }),
    ],
    ['there is no secret', tokenSecret({ 'token-id': 'abcdef', 'usage-bootstrap-signing': 'true' })],
    ['it has expired', signing({ expiration: '2029-01-01T00:00:00Z' })],
    ['its expiration does not parse', signing({ expiration: 'never' })],
    ['signing is not "true"', signing({ 'usage-bootstrap-signing': 'yes' })],
    ['it has no signing usage', tokenSecret({ 'token-id': 'abcdef', 'token-secret': '0123456789abcdef' })],
  ])('a token does not sign when %s', (_why, secret) => {
    expect(bootstrapTokenForSigning(secret, NOW)).toBeUndefined();
  });
});
