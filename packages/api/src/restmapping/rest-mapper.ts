import { apiVersionOf, type KindDeclaration } from '../schema/kind';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** One resource served at one group/version. */
export interface RESTMapping {
  gvk: GroupVersionKind;
  gvr: GroupVersionResource;
  namespaced: boolean;
  declaration: KindDeclaration<any>;
  /** True for the group's preferred (storage) version of the kind. */
  preferred: boolean;
}

/**
 * Maps kinds to resources and back, by every name a user may type: plural, singular, kind,
 * short names, `resource.group` and `resource.version.group`. Built from the declarations; used
 * by the apiserver (routing, discovery) and by clients alike.
 */
export class RESTMapper {
  private readonly byGVR = new Map<string, RESTMapping>();
  private readonly byGVK = new Map<string, RESTMapping>();
  private readonly byName = new Map<string, RESTMapping[]>();
  private readonly groupVersions = new Map<string, string[]>();

  constructor(declarations: readonly KindDeclaration<any>[]) {
    for (const decl of declarations) this.add(decl);
  }

  /**
   * Maps one more kind (a custom resource established at run time), replacing what was mapped for
   * the same group and plural.
   */
  add(decl: KindDeclaration<any>): void {
    this.remove(decl.group, decl.plural);
    {
      decl.versions.forEach((version, i) => {
        const mapping: RESTMapping = {
          gvk: { group: decl.group, version, kind: decl.kind },
          gvr: { group: decl.group, version, resource: decl.plural },
          namespaced: decl.namespaced,
          declaration: decl,
          preferred: i === 0,
        };
        this.byGVR.set(gvrKey(mapping.gvr), mapping);
        this.byGVK.set(gvkKey(mapping.gvk), mapping);
        const versions = this.groupVersions.get(decl.group) ?? [];
        if (!versions.includes(version)) versions.push(version);
        this.groupVersions.set(decl.group, versions);
        for (const name of namesOf(decl)) {
          const list = this.byName.get(name) ?? [];
          list.push(mapping);
          this.byName.set(name, list);
        }
      });
    }
  }

  /** Stops mapping a group's resource (a custom resource whose definition went). */
  remove(group: string, plural: string): void {
    const gone = [...this.byGVR.values()].filter((m) => m.gvr.group === group && m.gvr.resource === plural);
    if (!gone.length) return;
    for (const m of gone) {
      this.byGVR.delete(gvrKey(m.gvr));
      if (this.byGVK.get(gvkKey(m.gvk)) === m) this.byGVK.delete(gvkKey(m.gvk));
      for (const name of namesOf(m.declaration)) {
        const list = (this.byName.get(name) ?? []).filter((x) => x !== m);
        if (list.length) this.byName.set(name, list);
        else this.byName.delete(name);
      }
    }
    const versions = [
      ...new Set([...this.byGVR.values()].filter((m) => m.gvr.group === group).map((m) => m.gvr.version)),
    ];
    const ordered = (this.groupVersions.get(group) ?? []).filter((v) => versions.includes(v));
    if (ordered.length) this.groupVersions.set(group, ordered);
    else this.groupVersions.delete(group);
  }

  /** Every mapping, in declaration order. */
  all(): RESTMapping[] {
    return [...this.byGVR.values()];
  }

  /** The resource at exactly this group, version and plural. */
  forResource(group: string, version: string, resource: string): RESTMapping | undefined {
    return this.byGVR.get(gvrKey({ group, version, resource }));
  }

  forKind(group: string, version: string, kind: string): RESTMapping | undefined {
    return this.byGVK.get(gvkKey({ group, version, kind }));
  }

  /** The mapping of an object's apiVersion and kind. */
  forObject(apiVersion: string, kind: string): RESTMapping | undefined {
    const [group, version] = splitAPIVersion(apiVersion);
    return this.forKind(group, version, kind);
  }

  /**
   * Resolves what a user typed (`deploy`, `deployments.apps`, `Deployment`, `cronjobs.v1beta1.batch`)
   * to the preferred mapping; undefined when unknown.
   */
  resolve(typed: string): RESTMapping | undefined {
    const lower = typed.toLowerCase();
    const direct = this.byName.get(lower);
    if (direct) return preferredOf(direct);
    const parts = lower.split('.');
    for (let i = 1; i < parts.length; i++) {
      const name = parts.slice(0, i).join('.');
      const rest = parts.slice(i);
      const candidates = this.byName.get(name);
      if (!candidates) continue;
      const group = rest.join('.');
      const byGroup = candidates.filter((m) => m.gvk.group === group);
      if (byGroup.length) return preferredOf(byGroup);
      const [version, ...groupParts] = rest;
      const byVersion = candidates.filter(
        (m) => m.gvk.version === version && m.gvk.group === groupParts.join('.'),
      );
      if (byVersion.length) return byVersion[0];
    }
    return undefined;
  }

  /** Groups with their versions, preferred first. */
  groups(): Map<string, string[]> {
    return this.groupVersions;
  }
}

function preferredOf(mappings: RESTMapping[]): RESTMapping {
  return mappings.find((m) => m.preferred) ?? mappings[0]!;
}

function namesOf(decl: KindDeclaration<any>): string[] {
  return [decl.plural, decl.singular, decl.kind.toLowerCase(), ...(decl.shortNames ?? [])];
}

function gvrKey(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}/${gvr.resource}`;
}

function gvkKey(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}/${gvk.kind}`;
}

/** `apps/v1` → ['apps', 'v1']; `v1` → ['', 'v1']. */
export function splitAPIVersion(apiVersion: string): [string, string] {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
}

export { apiVersionOf };
