import type { RestClient } from '../rest/RestClient';
import { isForbidden, isNotFound } from '../rest/StatusError';
import type { APIGroup, APIGroupList, APIResourceList, APIVersions } from './discoveryTypes';
import { GroupDiscoveryFailedError, isGroupDiscoveryFailed } from './GroupDiscoveryFailedError';
import { filteredBy, preferredResources } from './preferredResources';

/** What was discovered, with the group/versions that failed when some did. */
export interface PartialDiscovery {
  resources: APIResourceList[];
  /** Set when some group/versions could not be read; `resources` holds the others. */
  error?: GroupDiscoveryFailedError;
}

/** How often the preferred resources are read again when some group/versions fail (client-go's defaultRetries). */
const DISCOVERY_RETRIES = 2;

/**
 * Reads what the server serves from the classic discovery documents (client-go's DiscoveryClient):
 * groups from `/api` and `/apis`, resources from `/api/v1` and `/apis/<group>/<version>`. A
 * group/version that fails is reported beside the others rather than failing everything.
 */
export class DiscoveryClient {
  constructor(private readonly rest: RestClient) {}

  private get<T>(path: string): Promise<T> {
    return this.rest.get().absPath(path).setHeader('Accept', 'application/json').do<T>();
  }

  /**
   * Every group, the core group (named "") first, from `/api` and `/apis`; 404 and 403 of either
   * count as nothing served there, as for servers without one of them.
   */
  async serverGroups(): Promise<APIGroupList> {
    const tolerate = <T>(p: Promise<T>): Promise<T | undefined> =>
      p.catch((err: unknown) => {
        if (isNotFound(err) || isForbidden(err)) return undefined;
        throw err;
      });
    const core = await tolerate(this.get<APIVersions>('/api'));
    const named = await tolerate(this.get<APIGroupList>('/apis'));
    const groups: APIGroup[] = [...(named?.groups ?? [])];
    const versions = core?.versions ?? [];
    if (versions.length) {
      const gvs = versions.map((v) => ({ groupVersion: v, version: v }));
      groups.unshift({ name: '', versions: gvs, preferredVersion: gvs[0] });
    }
    return { kind: 'APIGroupList', apiVersion: 'v1', groups };
  }

  /** The resources of one group/version (`v1` is read from /api/v1, a missing core v1 being empty). */
  async serverResourcesForGroupVersion(groupVersion: string): Promise<APIResourceList> {
    if (!groupVersion) throw new Error("groupVersion shouldn't be empty");
    const path = groupVersion === 'v1' ? '/api/v1' : `/apis/${groupVersion}`;
    try {
      const list = await this.get<APIResourceList>(path);
      return { ...list, groupVersion: list.groupVersion || groupVersion, resources: list.resources ?? [] };
    } catch (err) {
      if (groupVersion === 'v1' && isNotFound(err)) return { groupVersion, resources: [] };
      throw err;
    }
  }

  /** The resources of every version of every group, the group/versions that failed reported apart. */
  async serverGroupsAndResources(): Promise<PartialDiscovery & { groups: APIGroup[] }> {
    const { groups } = await this.serverGroups();
    const { lists, failed } = await this.fetchGroupVersionResources(groups);
    const resources = groups.flatMap((g) =>
      g.versions.map((v) => lists.get(v.groupVersion)).filter((l): l is APIResourceList => !!l),
    );
    return { groups, resources, ...errorOf(failed) };
  }

  /**
   * The resources of every group at its preferred version (a resource only another version serves
   * at that version), subresources left out; read again once when some group/versions fail.
   */
  async serverPreferredResources(): Promise<PartialDiscovery> {
    let result: PartialDiscovery = { resources: [] };
    for (let i = 0; i < DISCOVERY_RETRIES; i++) {
      const { groups } = await this.serverGroups();
      const { lists, failed } = await this.fetchGroupVersionResources(groups);
      result = { resources: preferredResources(groups, lists), ...errorOf(failed) };
      if (!isGroupDiscoveryFailed(result.error)) break;
    }
    return result;
  }

  /** The namespaced ones of serverPreferredResources. */
  async serverPreferredNamespacedResources(): Promise<PartialDiscovery> {
    const all = await this.serverPreferredResources();
    return { ...all, resources: filteredBy(all.resources, (_gv, r) => r.namespaced) };
  }

  private async fetchGroupVersionResources(
    groups: readonly APIGroup[],
  ): Promise<{ lists: Map<string, APIResourceList>; failed: Map<string, unknown> }> {
    const lists = new Map<string, APIResourceList>();
    const failed = new Map<string, unknown>();
    await Promise.all(
      groups.flatMap((g) =>
        g.versions.map(async ({ groupVersion }) => {
          try {
            lists.set(groupVersion, await this.serverResourcesForGroupVersion(groupVersion));
          } catch (err) {
            failed.set(groupVersion, err);
          }
        }),
      ),
    );
    return { lists, failed };
  }
}

function errorOf(failed: ReadonlyMap<string, unknown>): { error?: GroupDiscoveryFailedError } {
  return failed.size ? { error: new GroupDiscoveryFailedError(failed) } : {};
}
