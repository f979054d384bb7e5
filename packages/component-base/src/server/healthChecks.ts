import { errorMessage } from '../errorMessage';

/** A named health check; it fails by throwing (or rejecting). */
export interface HealthCheck {
  name: string;
  check(): void | Promise<void>;
}

/** The three health endpoints. */
export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

export const HEALTH_ENDPOINTS: readonly HealthEndpoint[] = ['healthz', 'livez', 'readyz'];

/** An HTTP answer produced without touching the response object. */
export interface PlainResponse {
  status: number;
  body: string;
}

/** The always-passing `ping` check every endpoint has. */
export const PING_CHECK: HealthCheck = { name: 'ping', check: () => undefined };

/**
 * Health checks per endpoint, answered in Kubernetes' format: `ok`, or with `?verbose` one
 * `[+]name ok` / `[-]name failed: reason withheld` line per check and `<endpoint> check passed|failed`.
 */
export class HealthChecks {
  private readonly checks = new Map<HealthEndpoint, HealthCheck[]>(
    HEALTH_ENDPOINTS.map((e) => [e, [PING_CHECK]]),
  );

  /** Adds a check to the given endpoints (all three by default). */
  add(check: HealthCheck, endpoints: readonly HealthEndpoint[] = HEALTH_ENDPOINTS): this {
    for (const endpoint of endpoints) {
      const list = this.checks.get(endpoint)!;
      if (list.some((c) => c.name === check.name))
        throw new Error(`health check ${check.name} already added to /${endpoint}`);
      list.push(check);
    }
    return this;
  }

  /** Names of an endpoint's checks. */
  names(endpoint: HealthEndpoint): string[] {
    return this.checks.get(endpoint)!.map((c) => c.name);
  }

  /** Answers `/<endpoint>` (sub = '') or `/<endpoint>/<check>`; `query` holds verbose and exclude. */
  async handle(endpoint: HealthEndpoint, sub: string, query: URLSearchParams): Promise<PlainResponse> {
    const checks = this.checks.get(endpoint)!;
    if (sub !== '') {
      const one = checks.find((c) => c.name === sub);
      if (!one) return { status: 404, body: '404 page not found\n' };
      const err = await run(one);
      return err === undefined
        ? { status: 200, body: 'ok' }
        : { status: 500, body: `internal server error: ${err}\n` };
    }
    const excluded = new Set(query.getAll('exclude').flatMap((e) => e.split(',')));
    const lines: string[] = [];
    let failed = false;
    for (const check of checks) {
      if (excluded.has(check.name)) {
        lines.push(`[+]${check.name} excluded: ok`);
        continue;
      }
      const err = await run(check);
      if (err === undefined) lines.push(`[+]${check.name} ok`);
      else {
        failed = true;
        lines.push(`[-]${check.name} failed: reason withheld`);
      }
    }
    if (failed) return { status: 500, body: `${lines.join('\n')}\n${endpoint} check failed\n` };
    if (query.has('verbose')) return { status: 200, body: `${lines.join('\n')}\n${endpoint} check passed\n` };
    return { status: 200, body: 'ok' };
  }
}

async function run(check: HealthCheck): Promise<string | undefined> {
  try {
    await check.check();
    return undefined;
  } catch (err) {
    return errorMessage(err);
  }
}
