import { statusErrors, StatusError } from '../errors/status-error';

/**
 * Kubernetes' max-in-flight filter: at most `maxReadOnly` non-mutating and `maxMutating` mutating
 * requests at once (long-running watches are not counted); past that, 429 with Retry-After: 1.
 */
export class InflightLimiter {
  private readOnly = 0;
  private mutating = 0;

  constructor(
    private readonly maxReadOnly: number,
    private readonly maxMutating: number,
  ) {}

  /** Takes a slot or throws 429; the returned function gives it back. */
  acquire(mutating: boolean): () => void {
    if (mutating) {
      if (this.maxMutating > 0 && this.mutating >= this.maxMutating) throw tooMany();
      this.mutating++;
      return once(() => this.mutating--);
    }
    if (this.maxReadOnly > 0 && this.readOnly >= this.maxReadOnly) throw tooMany();
    this.readOnly++;
    return once(() => this.readOnly--);
  }

  inflight(): { readOnly: number; mutating: number } {
    return { readOnly: this.readOnly, mutating: this.mutating };
  }
}

function tooMany(): StatusError {
  return statusErrors.tooManyRequests('Too many requests, please try again later.', 1);
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      fn();
    }
  };
}
