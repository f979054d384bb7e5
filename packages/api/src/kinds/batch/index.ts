import { CronJobKind } from './cron-job';
import { JobKind } from './job';

export * from './job-spec';
export * from './job';
export * from './job-template-spec';
export * from './cron-job';

export const batchKinds = [JobKind, CronJobKind];
