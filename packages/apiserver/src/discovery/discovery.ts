import {
  allVerbs,
  type KindDeclaration,
  type RESTMapper,
  type RESTMapping,
  type ScaleDeclaration,
  type SubresourceDeclaration,
} from '@orch/api';

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

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
  coreVersions(): Record<string, unknown> {
    return {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: this.serverAddress() }],
    };
  }

  private group(name: string, versions: string[]): Record<string, unknown> {
    const gvs = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
    return { name, versions: gvs, preferredVersion: gvs[0] };
  }

  /** GET /apis */
  groups(): Record<string, unknown> {
    const groups = [...this.mapper.groups()]
      .filter(([g]) => g !== '')
      .map(([g, versions]) => this.group(g, versions));
    return { kind: 'APIGroupList', apiVersion: 'v1', groups };
  }

  /** GET /apis/<group>; undefined when no such group. */
  apiGroup(name: string): Record<string, unknown> | undefined {
    const versions = this.mapper.groups().get(name);
    if (!name || !versions) return undefined;
    return { kind: 'APIGroup', apiVersion: 'v1', ...this.group(name, versions) };
  }

  /** GET /api/v1 or /apis/<group>/<version>; undefined when nothing is served there. */
  resources(group: string, version: string): Record<string, unknown> | undefined {
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
