import { systemPriorityClasses } from '@orch/api';
import { statusErrors } from '../../errors/status-error';
import type { ApiObject } from '../object';
import { Strategy } from '../strategy';

/** PriorityClasses: the system classes every cluster has cannot be deleted. */
export class PriorityClassStrategy extends Strategy {
  override beforeDelete(obj: ApiObject, now: Date): boolean {
    const name = obj.metadata.name ?? '';
    if (systemPriorityClasses[name] !== undefined) {
      throw statusErrors.forbiddenObject(
        { group: this.declaration.group, resource: this.declaration.plural },
        name,
        'this is a system priority class and cannot be deleted',
      );
    }
    return super.beforeDelete(obj, now);
  }
}
