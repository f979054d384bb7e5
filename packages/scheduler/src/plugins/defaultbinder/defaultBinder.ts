import type { Pod } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import type { BindPlugin, FrameworkHandle } from '../../framework/interfaces';
import { Status } from '../../framework/status';

export const DEFAULT_BINDER = 'DefaultBinder';

/** Binds through the API: POST pods/<name>/binding with the chosen node as target. */
export class DefaultBinder implements BindPlugin {
  readonly name = DEFAULT_BINDER;

  constructor(private readonly handle: FrameworkHandle) {}

  async bind(_state: CycleState, pod: Pod, nodeName: string): Promise<Status | undefined> {
    try {
      await this.handle.client.bind(pod, nodeName);
      return undefined;
    } catch (err) {
      return Status.error(err instanceof Error ? err.message : String(err));
    }
  }
}
