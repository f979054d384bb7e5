import * as fs from 'node:fs';

/** How often a token file is re-read by default (client-go re-reads once a minute). */
export const DEFAULT_TOKEN_REFRESH_MS = 60_000;

/**
 * Reads a bearer token from a file and re-reads it once the cached value is older than the
 * refresh period, so rotated service-account tokens are picked up. A failed re-read keeps the
 * previous token.
 */
export class FileTokenSource {
  private cached: string | undefined;
  private readAt = -Infinity;

  constructor(
    readonly file: string,
    private readonly refreshMs: number = DEFAULT_TOKEN_REFRESH_MS,
    private readonly now: () => number = Date.now,
  ) {}

  token(): string {
    const now = this.now();
    if (this.cached === undefined || now - this.readAt >= this.refreshMs) {
      try {
        const value = fs.readFileSync(this.file, 'utf8').trim();
        if (value === '') {
          throw new Error(`token file ${this.file} is empty`);
        }
        this.cached = value;
        this.readAt = now;
      } catch (err) {
        if (this.cached === undefined) {
          throw err;
        }
      }
    }
    return this.cached;
  }
}
