import type { RESTMapper, RESTMapping } from '@orch/api';
import { StatusError } from '../errors/status-error';
import type { GenericStore } from '../registry/generic-store';
import type { ServiceAccountObjectGetter, TokenObject } from './service-account-token';

/**
 * The ServiceAccounts, Secrets and Pods of a server, read from its storage for the service-account
 * token validators (Kubernetes reads them from storage too, not from a cache).
 */
export function serviceAccountObjectGetter(host: {
  mapper: RESTMapper;
  storeFor(mapping: RESTMapping): GenericStore;
}): ServiceAccountObjectGetter {
  return async (resource, namespace, name) => {
    const mapping = host.mapper.forResource('', 'v1', resource);
    if (!mapping) return undefined;
    try {
      return (await host
        .storeFor(mapping)
        .get({ namespace, apiVersion: 'v1', dryRun: false }, name)) as TokenObject;
    } catch (error) {
      if (error instanceof StatusError && error.code === 404) return undefined;
      throw error;
    }
  };
}
