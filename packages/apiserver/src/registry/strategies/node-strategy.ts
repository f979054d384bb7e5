import type { KindDeclaration } from '@orch/api';
import type { SubresourceHandler } from '../custom-handlers';
import type { ApiObject } from '../object';
import { Strategy } from '../strategy';
import type { KubeletClientConfig } from './pod-log';
import { proxyHandler } from './proxy';
import { nodeLocation } from './proxy-location';

/**
 * Nodes: a node agent registers a node with its status, which a create keeps (as Kubernetes does);
 * nodes/proxy reaches the node agent as `kubelet` says.
 */
export class NodeStrategy extends Strategy {
  constructor(
    declaration: KindDeclaration<any>,
    private readonly kubelet: () => KubeletClientConfig | undefined = () => undefined,
  ) {
    super(declaration);
  }

  override readonly connectSubresources = ['proxy'];

  override readonly subresources: Record<string, SubresourceHandler> = {
    proxy: (store, request) => proxyHandler('node', nodeLocation(this.kubelet))(store, request),
  };

  override prepareForCreate(obj: ApiObject, now: Date): void {
    const status = obj.status;
    super.prepareForCreate(obj, now);
    if (status !== undefined) obj.status = status;
  }
}
