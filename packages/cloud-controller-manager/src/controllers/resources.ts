import type { ResourceDescriptor } from '@orch/client';

const core = (resource: string, namespaced: boolean): ResourceDescriptor => ({
  group: '',
  version: 'v1',
  resource,
  namespaced,
});

/** The resources the cloud controllers watch. */
export const NODES = core('nodes', false);
export const SERVICES = core('services', true);
