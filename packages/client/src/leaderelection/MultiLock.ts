import { isAlreadyExists, isNotFound } from '../rest/StatusError';
import { UNKNOWN_LEADER, type LeaderElectionRecord } from './LeaderElectionRecord';
import type { LockState, ResourceLock } from './ResourceLock';

/**
 * Two locks held together while migrating from an old-style lock (primary) to a Lease (secondary),
 * as client-go's MultiLock: both are written, and a disagreement reads as an unknown holder.
 */
export class MultiLock implements ResourceLock {
  constructor(
    readonly primary: ResourceLock,
    readonly secondary: ResourceLock,
  ) {}

  async get(signal?: AbortSignal): Promise<LockState> {
    const primary = await this.primary.get(signal);
    let secondary: LockState;
    try {
      secondary = await this.secondary.get(signal);
    } catch (err) {
      // Only the old lock exists: it is held by a candidate that does not know the new one.
      if (isNotFound(err) && primary.record.holderIdentity !== this.identity()) {
        return primary;
      }
      throw err;
    }
    let record = primary.record;
    let raw = primary.raw;
    if (primary.record.holderIdentity !== secondary.record.holderIdentity) {
      record = { ...primary.record, holderIdentity: UNKNOWN_LEADER };
      raw = JSON.stringify(record);
    }
    return { record, raw: `${raw},${secondary.raw}` };
  }

  /**
   * Creates both locks. A primary that already exists is taken as ours only when it names this
   * candidate (the secondary went missing): one another candidate created first means this one lost
   * the race, and creating the secondary anyway would leave two holders that read as unknown.
   */
  async create(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    try {
      await this.primary.create(record, signal);
    } catch (err) {
      if (!isAlreadyExists(err)) {
        throw err;
      }
      const existing = await this.primary.get(signal);
      if (existing.record.holderIdentity !== this.identity()) {
        throw err;
      }
    }
    await this.secondary.create(record, signal);
  }

  async update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    await this.primary.update(record, signal);
    try {
      await this.secondary.get(signal);
    } catch (err) {
      if (isNotFound(err)) {
        await this.secondary.create(record, signal);
        return;
      }
      throw err;
    }
    await this.secondary.update(record, signal);
  }

  identity(): string {
    return this.primary.identity();
  }

  describe(): string {
    return this.primary.describe();
  }
}
