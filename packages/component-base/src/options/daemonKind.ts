/** The three control-plane daemons whose flags doc 3 declares. */
export type DaemonKind = 'scheduler' | 'controller-manager' | 'cloud-controller-manager';

/** The protobuf media type used by default between daemons and the API server. */
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.orch.protobuf';

/** The namespace holding system objects (leader-election locks, policy ConfigMaps). */
export const SYSTEM_NAMESPACE = 'orch-system';
