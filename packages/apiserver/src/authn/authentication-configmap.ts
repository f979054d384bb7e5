import type { RESTMapper, RESTMapping } from '@orch/api';
import { parseCABundle, type RequestHeaderConfig } from '@orch/component-base';
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

/**
 * The request-header settings in force: those given, with the headers Kubernetes' documentation
 * suggests (X-Remote-User, X-Remote-Group, X-Remote-Extra-) for lists not given or empty; undefined
 * without a request-header CA. The apiserver authenticates by them and publishes them.
 */
export function requestHeaderSettings(info: AuthenticationInfo): RequestHeaderConfig | undefined {
  if (!info.requestHeaderCA) return undefined;
  const or = (given: readonly string[] | undefined, fallback: string) =>
    given?.length ? [...given] : [fallback];
  return {
    ca: parseCABundle(info.requestHeaderCA),
    allowedNames: [...(info.requestHeaderAllowedNames ?? [])],
    usernameHeaders: or(info.requestHeaderUsernameHeaders, 'X-Remote-User'),
    groupHeaders: or(info.requestHeaderGroupHeaders, 'X-Remote-Group'),
    extraHeaderPrefixes: or(info.requestHeaderExtraHeaderPrefixes, 'X-Remote-Extra-'),
  };
}

/** The ConfigMap data, as kube-apiserver writes it (lists as JSON arrays). */
export function authenticationConfigMapData(info: AuthenticationInfo): Record<string, string> {
  const data: Record<string, string> = {};
  if (info.clientCA) data['client-ca-file'] = info.clientCA;
  const requestHeader = requestHeaderSettings(info);
  if (info.requestHeaderCA && requestHeader) {
    data['requestheader-client-ca-file'] = info.requestHeaderCA;
    data['requestheader-allowed-names'] = JSON.stringify(requestHeader.allowedNames);
    data['requestheader-username-headers'] = JSON.stringify(requestHeader.usernameHeaders);
    data['requestheader-group-headers'] = JSON.stringify(requestHeader.groupHeaders);
    data['requestheader-extra-headers-prefix'] = JSON.stringify(requestHeader.extraHeaderPrefixes);
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
