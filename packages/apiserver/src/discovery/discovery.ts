import {
  allVerbs,
  type KindDeclaration,
  type RESTMapper,
  type RESTMapping,
  type ScaleDeclaration,
  type SubresourceDeclaration,
} from '@orch/api';
import type {
  APIGroup,
  APIGroupList,
  APIResource,
  APIResourceList,
  APIVersions,
  GroupVersionForDiscovery,
} from '@orch/client';
import { parseAccept } from '../negotiation/media-type';

/** Whether a resource is listed in discovery: stored kinds and virtual kinds with verbs. */
function served(decl: KindDeclaration<any>): boolean {
  return (decl.verbs ?? allVerbs).length > 0;
}

function resourcesOf(m: RESTMapping): APIResource[] {
  const decl = m.declaration;
  const out: APIResource[] = [];
  const main: APIResource = {
    name: decl.plural,
    singularName: decl.singular,
    namespaced: decl.namespaced,
    kind: decl.kind,
    verbs: [...(decl.verbs ?? allVerbs)],
  };
  if (decl.shortNames?.length) main.shortNames = [...decl.shortNames];
  if (decl.categories?.length) main.categories = [...decl.categories];
  out.push(main);
  for (const [name, sub] of Object.entries(decl.subresources ?? {})) {
    if (!sub) continue;
    const entry: APIResource = {
      name: `${decl.plural}/${name}`,
      singularName: '',
      namespaced: decl.namespaced,
      kind: decl.kind,
      verbs: [],
    };
    if (name === 'status' && sub === true) entry.verbs = ['get', 'patch', 'update'];
    else if (name === 'scale' && (sub as ScaleDeclaration).specReplicasPath) {
      Object.assign(entry, {
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      });
    } else {
      const s = sub as SubresourceDeclaration;
      if (s.kind) entry.kind = s.kind;
      if (s.group !== undefined) entry.group = s.group;
      if (s.version) entry.version = s.version;
      entry.verbs = [...s.verbs];
    }
    out.push(entry);
  }
  return out;
}

/** Discovery documents (/api, /apis, /apis/<group>, /api/v1, /apis/<group>/<version>) from the REST mapper. */
export class Discovery {
  constructor(
    private readonly mapper: RESTMapper,
    private readonly serverAddress: () => string,
  ) {}

  /** GET /api */
  coreVersions(): APIVersions {
    return {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: this.serverAddress() }],
    };
  }

  private group(name: string, versions: string[]): APIGroup {
    const gvs: GroupVersionForDiscovery[] = versions.map((v) => ({
      groupVersion: `${name}/${v}`,
      version: v,
    }));
    return { name, versions: gvs, preferredVersion: gvs[0] };
  }

  /** GET /apis */
  groups(): APIGroupList {
    const groups = [...this.mapper.groups()]
      .filter(([g]) => g !== '')
      .map(([g, versions]) => this.group(g, versions));
    return { kind: 'APIGroupList', apiVersion: 'v1', groups };
  }

  /** GET /apis/<group>; undefined when no such group. */
  apiGroup(name: string): APIGroup | undefined {
    const versions = this.mapper.groups().get(name);
    if (!name || !versions) return undefined;
    return { kind: 'APIGroup', apiVersion: 'v1', ...this.group(name, versions) };
  }

  /** GET /api/v1 or /apis/<group>/<version>; undefined when nothing is served there. */
  resources(group: string, version: string): APIResourceList | undefined {
    const mappings = this.mapper.all().filter((m) => m.gvk.group === group && m.gvk.version === version);
    if (!mappings.length) return undefined;
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: group ? `${group}/${version}` : version,
      resources: mappings.filter((m) => served(m.declaration)).flatMap(resourcesOf),
    };
  }
}

/** Versions of the aggregated discovery document served (apidiscovery.k8s.io), newest first. */
export type AggregatedDiscoveryVersion = 'v2' | 'v2beta1';
const aggregatedVersions: readonly string[] = ['v2', 'v2beta1'];

/** The Content-Type naming an aggregated discovery document of `version`. */
export function aggregatedDiscoveryContentType(version: AggregatedDiscoveryVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

/**
 * Which document an Accept header asks /api or /apis for: the aggregated discovery list (in the first
 * supported version it names) or, when a plain JSON range comes first or nothing matches, undefined
 * for the plain document.
 */
export function aggregatedDiscoveryVersion(
  accept: string | undefined,
): AggregatedDiscoveryVersion | undefined {
  for (const r of parseAccept(accept)) {
    const json = (r.type === 'application' && (r.subtype === 'json' || r.subtype === '*')) || r.type === '*';
    if (!json) continue;
    if (r.params.as === undefined) return undefined;
    if (
      r.params.as === 'APIGroupDiscoveryList' &&
      r.params.g === 'apidiscovery.k8s.io' &&
      aggregatedVersions.includes(r.params.v ?? '')
    )
      return r.params.v as AggregatedDiscoveryVersion;
  }
  return undefined;
}

interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

interface DiscoverySubresource {
  subresource: string;
  responseKind: GroupVersionKind;
  verbs: string[];
}

interface DiscoveryResource {
  resource: string;
  responseKind: GroupVersionKind;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: DiscoverySubresource[];
}

/** One group of the aggregated document with its versions (preferred first) and their resources. */
function groupDiscovery(
  mapper: RESTMapper,
  group: string,
  versions: string[],
): { metadata: { name?: string; creationTimestamp: null }; versions: unknown[] } {
  const out = versions.map((version) => {
    const mappings = mapper
      .all()
      .filter((m) => m.gvk.group === group && m.gvk.version === version && served(m.declaration));
    const resources: DiscoveryResource[] = [];
    for (const m of mappings) {
      const [main, ...subs] = resourcesOf(m);
      const r: DiscoveryResource = {
        resource: main!.name,
        responseKind: { group, version, kind: main!.kind },
        scope: main!.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: main!.singularName,
        verbs: main!.verbs,
      };
      if (main!.shortNames) r.shortNames = main!.shortNames;
      if (main!.categories) r.categories = main!.categories;
      if (subs.length) {
        r.subresources = subs.map((s) => ({
          subresource: s.name.slice(main!.name.length + 1),
          responseKind: { group: s.group ?? group, version: s.version ?? version, kind: s.kind },
          verbs: s.verbs,
        }));
      }
      resources.push(r);
    }
    return { version, resources, freshness: 'Current' };
  });
  return {
    metadata: group ? { name: group, creationTimestamp: null } : { creationTimestamp: null },
    versions: out,
  };
}

/** The aggregated discovery document (APIGroupDiscoveryList) of /api (`core`) or /apis. */
export function aggregatedDiscovery(
  mapper: RESTMapper,
  root: 'api' | 'apis',
  version: AggregatedDiscoveryVersion,
): Record<string, unknown> {
  const items = [...mapper.groups()]
    .filter(([g]) => (root === 'api' ? g === '' : g !== ''))
    .map(([g, versions]) => groupDiscovery(mapper, g, versions));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}
