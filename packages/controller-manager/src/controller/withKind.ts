import type { KubeObject } from '@orch/client';

/** The object with its apiVersion and kind set (list items from informers may lack them). */
export function withKind<T extends KubeObject>(obj: T, apiVersion: string, kind: string): T {
  return { ...obj, apiVersion, kind };
}
