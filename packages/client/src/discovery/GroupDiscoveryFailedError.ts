/**
 * Some group/versions could not be discovered (client-go's ErrGroupDiscoveryFailed): the failures by
 * group/version; what was discovered is returned beside it, so callers can go on with it.
 */
export class GroupDiscoveryFailedError extends Error {
  constructor(readonly groups: ReadonlyMap<string, unknown>) {
    const parts = [...groups]
      .map(([gv, err]) => `${gv}: ${err instanceof Error ? err.message : String(err)}`)
      .sort();
    super(`unable to retrieve the complete list of server APIs: ${parts.join(', ')}`);
    this.name = 'GroupDiscoveryFailedError';
  }
}

/** Whether discovery failed only for some groups (client-go's IsGroupDiscoveryFailedError). */
export function isGroupDiscoveryFailed(err: unknown): err is GroupDiscoveryFailedError {
  return err instanceof GroupDiscoveryFailedError;
}
