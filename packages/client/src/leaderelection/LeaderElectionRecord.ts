/** The state of a leader-election lock, as client-go's LeaderElectionRecord. */
export interface LeaderElectionRecord {
  /** Identity of the holder; empty when released. */
  holderIdentity: string;
  leaseDurationSeconds: number;
  /** RFC 3339 times (as written by the holder; never compared against the local clock). */
  acquireTime: string;
  renewTime: string;
  leaderTransitions: number;
}

/** The annotation holding the JSON record on Endpoints and ConfigMap locks. */
export const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

/** Holder reported by a multi-lock whose two locks disagree. */
export const UNKNOWN_LEADER = 'leaderelection.k8s.io/unknown';

/** Parses the annotation's JSON record, filling absent fields as Go's zero values. */
export function parseRecord(text: string): LeaderElectionRecord {
  const r = JSON.parse(text) as Partial<LeaderElectionRecord>;
  return {
    holderIdentity: r.holderIdentity ?? '',
    leaseDurationSeconds: r.leaseDurationSeconds ?? 0,
    acquireTime: r.acquireTime ?? '',
    renewTime: r.renewTime ?? '',
    leaderTransitions: r.leaderTransitions ?? 0,
  };
}
