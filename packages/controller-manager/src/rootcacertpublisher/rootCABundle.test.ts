import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RestClient } from '@orch/client';
import { createCA, type ControllerFlags } from '@orch/component-base';
import { rootCABundle } from './rootCABundle';

const flags = (rootCAFile: string | undefined): ControllerFlags => ({
  string: (flag) => (flag === 'root-ca-file' ? rootCAFile : undefined),
  duration: () => undefined,
  number: () => undefined,
  given: (flag) => flag === 'root-ca-file' && rootCAFile !== undefined,
});

describe('rootCABundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-root-ca-'));
  const clientCA = createCA('client-ca').cert;
  const client = new RestClient({ server: 'https://127.0.0.1:1', ca: Buffer.from(clientCA) });
  afterAll(() => {
    client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('--root-ca-file wins over the client CA', () => {
    const fileCA = createCA('file-ca').cert;
    const file = join(dir, 'ca.crt');
    writeFileSync(file, fileCA);
    expect(rootCABundle({ client, flags: flags(file) })).toBe(fileCA);
  });

  test('without it, the CA the manager trusts the apiserver with; empty when it has none', () => {
    expect(rootCABundle({ client, flags: flags(undefined) })).toBe(clientCA);
    expect(rootCABundle({ client, flags: flags('') })).toBe(clientCA);
    expect(rootCABundle({ client })).toBe(clientCA);
    const bare = new RestClient({ server: 'https://127.0.0.1:1' });
    expect(rootCABundle({ client: bare })).toBe('');
    bare.close();
  });

  test('a missing or non-PEM file is an error naming the flag', () => {
    const bad = join(dir, 'bad');
    writeFileSync(bad, 'hello\n');
    expect(() => rootCABundle({ client, flags: flags(bad) })).toThrow(
      `--root-ca-file: error parsing CA bundle file "${bad}": data does not contain any valid RSA or ECDSA certificates`,
    );
    expect(() => rootCABundle({ client, flags: flags(join(dir, 'missing')) })).toThrow(
      /^--root-ca-file: error reading CA bundle file ".*missing": ENOENT/,
    );
  });
});
