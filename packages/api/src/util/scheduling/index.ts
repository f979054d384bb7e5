export * from './node-affinity';
export * from './taints';
export * from './zoneKey';
