/** Storage keys: `/registry/<group>/<resource>/<namespace>/<name>` (`core` for the core group). */
export function resourcePrefix(group: string, resource: string): string {
  return `/registry/${group || 'core'}/${resource}/`;
}

/** The prefix of one namespace's objects, or of every object of the resource when namespace is ''. */
export function collectionPrefix(group: string, resource: string, namespace: string): string {
  const base = resourcePrefix(group, resource);
  return namespace ? `${base}${namespace}/` : base;
}

export function objectKey(group: string, resource: string, namespace: string, name: string): string {
  return namespace
    ? `${resourcePrefix(group, resource)}${namespace}/${name}`
    : `${resourcePrefix(group, resource)}${name}`;
}
