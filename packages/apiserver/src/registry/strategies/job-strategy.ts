import { generateJobSelector, type Job } from '@orch/api';
import type { ApiObject } from '../object';
import { Strategy } from '../strategy';

/** Jobs: unless manualSelector, the selector is generated from the job's uid (controller-uid), as Kubernetes does. */
export class JobStrategy extends Strategy {
  override prepareForCreate(obj: ApiObject, now: Date): void {
    super.prepareForCreate(obj, now);
    generateJobSelector(obj as unknown as Job);
  }
}
