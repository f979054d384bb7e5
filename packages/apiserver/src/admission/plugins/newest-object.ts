interface Named {
  metadata: { name?: string; creationTimestamp?: string };
}

/**
 * The newest of several objects, by creationTimestamp, then the first by name: the default a
 * defaulting plugin picks when more than one object is marked as the default (as Kubernetes does).
 */
export function newestObject<T extends Named>(objects: readonly T[]): T | undefined {
  const created = (o: T): number => Date.parse(o.metadata.creationTimestamp ?? '') || 0;
  return [...objects].sort((x, y) => {
    const tx = created(x);
    const ty = created(y);
    return tx === ty ? (x.metadata.name ?? '').localeCompare(y.metadata.name ?? '') : ty - tx;
  })[0];
}
