import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceAccountKind } from '@orch/api';
import { clientFor, isAlreadyExists, RestClient, type RestConfig } from '@orch/client';
import { SYSTEM_NAMESPACE } from '../options/daemonKind';

/** Lifetime asked for each controller token; refreshed at 80 % of it. */
export const CONTROLLER_TOKEN_SECONDS = 3600;

/**
 * Per-controller credentials (--use-service-account-credentials): each controller talks as its own
 * service account in orch-system, with a token from
 * serviceaccounts/token kept fresh in a file its client re-reads.
 */
export class ServiceAccountCredentials {
  private readonly dir = mkdtempSync(join(tmpdir(), 'orch-controller-tokens-'));
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly base: RestConfig,
    private readonly rest: RestClient,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** A client acting as service account `name` in orch-system, which is created when missing. */
  async clientFor(name: string): Promise<RestClient> {
    const serviceAccounts = clientFor(this.rest, ServiceAccountKind);
    try {
      await serviceAccounts.create({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name, namespace: SYSTEM_NAMESPACE },
      });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    const file = join(this.dir, name);
    const refresh = async (): Promise<void> => {
      const request = await serviceAccounts.createToken(
        name,
        { audiences: [], expirationSeconds: CONTROLLER_TOKEN_SECONDS },
        { namespace: SYSTEM_NAMESPACE },
      );
      writeFileSync(file, request.status?.token ?? '', { mode: 0o600 });
    };
    await refresh();
    const timer = setInterval(() => refresh().catch(this.onError), CONTROLLER_TOKEN_SECONDS * 800);
    timer.unref();
    this.timers.push(timer);
    const { cert: _cert, key: _key, token: _token, username: _u, password: _p, ...rest } = this.base;
    return new RestClient({
      ...rest,
      tokenFile: file,
      userAgent: `${this.base.userAgent ?? 'orch-controller-manager'}/${name}`,
    });
  }

  close(): void {
    for (const t of this.timers) clearInterval(t);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
