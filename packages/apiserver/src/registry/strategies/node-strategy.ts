import type { ApiObject } from '../object';
import { Strategy } from '../strategy';

/** Nodes: a node agent registers a node with its status, which a create keeps (as Kubernetes does). */
export class NodeStrategy extends Strategy {
  override prepareForCreate(obj: ApiObject, now: Date): void {
    const status = obj.status;
    super.prepareForCreate(obj, now);
    if (status !== undefined) obj.status = status;
  }
}
