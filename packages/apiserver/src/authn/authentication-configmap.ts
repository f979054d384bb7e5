import type { RESTMapper, RESTMapping } from '@orch/api';
import { ensureBinding, ensureRole } from '../authz/bootstrap-policy';
import { autoupdateAnnotation, bootstrappingLabel } from '../authz/bootstrap-roles';
import { rbacAPIVersion, rbacGroup, rbacStores } from '../authz/rbac-objects';
import { StatusError } from '../errors/status-error';
import type { GenericStore, RequestScope } from '../registry/generic-store';
import { clone, jsonEqual, type ApiObject } from '../registry/object';

export const authenticationConfigMapName = 'extension-apiserver-authentication';
export const authenticationConfigMapNamespace = 'orch-system';
export const authenticationReaderRole = 'extension-apiserver-authentication-reader';
/** The binding's name, as Kubernetes names it. */
export const authenticationReaderBinding = 'system::extension-apiserver-authentication-reader';

/** What the server tells delegating daemons about client authentication. */
export interface AuthenticationInfo {
  /** `--client-ca-file` contents. */
  clientCA?: string;
  /** `--requestheader-client-ca-file` contents. */
  requestHeaderCA?: string;
  requestHeaderAllowedNames?: readonly string[];
  requestHeaderUsernameHeaders?: readonly string[];
  requestHeaderGroupHeaders?: readonly string[];
  requestHeaderExtraHeaderPrefixes?: readonly string[];
  /** Users allowed to read the ConfigMap; the scheduler and controller manager by default. */
  readers?: readonly string[];
}

/** The ConfigMap data, as kube-apiserver writes it (lists as JSON arrays). */
export function authenticationConfigMapData(info: AuthenticationInfo): Record<string, string> {
  const data: Record<string, string> = {};
  if (info.clientCA) data['client-ca-file'] = info.clientCA;
  if (info.requestHeaderCA) {
    data['requestheader-client-ca-file'] = info.requestHeaderCA;
    data['requestheader-allowed-names'] = JSON.stringify(info.requestHeaderAllowedNames ?? []);
    data['requestheader-username-headers'] = JSON.stringify(
      info.requestHeaderUsernameHeaders ?? ['X-Remote-User'],
    );
    data['requestheader-group-headers'] = JSON.stringify(
      info.requestHeaderGroupHeaders ?? ['X-Remote-Group'],
    );
    data['requestheader-extra-headers-prefix'] = JSON.stringify(
      info.requestHeaderExtraHeaderPrefixes ?? ['X-Remote-Extra-'],
    );
  }
  return data;
}

const scope: RequestScope = { namespace: authenticationConfigMapNamespace, apiVersion: 'v1', dryRun: false };
const writeOptions = () => ({ fieldValidation: 'Ignore' as const, warnings: [] });

async function writeConfigMap(store: GenericStore, data: Record<string, string>): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    let current: ApiObject;
    try {
      current = await store.get(scope, authenticationConfigMapName);
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) throw e;
      try {
        await store.create(
          scope,
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: authenticationConfigMapName, namespace: authenticationConfigMapNamespace },
            data,
          },
          writeOptions(),
        );
        return;
      } catch (err) {
        if (err instanceof StatusError && err.code === 409) continue;
        throw err;
      }
    }
    if (jsonEqual(current.data, data)) return;
    const next = clone(current);
    next.data = data;
    try {
      await store.update(scope, authenticationConfigMapName, () => next, writeOptions());
      return;
    } catch (e) {
      if (e instanceof StatusError && (e.code === 409 || e.code === 404)) continue;
      throw e;
    }
  }
}

/**
 * Writes ConfigMap orch-system/extension-apiserver-authentication with the client CA and the
 * request-header settings, and (when RBAC kinds are served) the Role and RoleBinding that let the
 * scheduler and controller manager read it. Idempotent.
 */
export async function publishAuthenticationConfigMap(
  server: { mapper: RESTMapper; storeFor(mapping: RESTMapping): GenericStore },
  info: AuthenticationInfo,
): Promise<void> {
  const configMaps = server.mapper.forResource('', 'v1', 'configmaps');
  if (!configMaps) throw new Error('configmaps are not served');
  await writeConfigMap(server.storeFor(configMaps), authenticationConfigMapData(info));
  if (!server.mapper.forResource(rbacGroup, 'v1', 'roles')) return;
  const stores = rbacStores(server);
  const meta = (name: string) => ({
    name,
    namespace: authenticationConfigMapNamespace,
    labels: { [bootstrappingLabel]: 'rbac-defaults' },
    annotations: { [autoupdateAnnotation]: 'true' },
  });
  await ensureRole(stores.roles, authenticationConfigMapNamespace, {
    apiVersion: rbacAPIVersion,
    kind: 'Role',
    metadata: meta(authenticationReaderRole),
    rules: [
      {
        verbs: ['get', 'list', 'watch'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: [authenticationConfigMapName],
      },
    ],
  });
  const readers = info.readers ?? ['system:orch-controller-manager', 'system:orch-scheduler'];
  await ensureBinding(stores.roleBindings, authenticationConfigMapNamespace, {
    apiVersion: rbacAPIVersion,
    kind: 'RoleBinding',
    metadata: meta(authenticationReaderBinding),
    roleRef: { apiGroup: rbacGroup, kind: 'Role', name: authenticationReaderRole },
    subjects: readers.map((name) => ({ kind: 'User', apiGroup: rbacGroup, name })),
  });
}
