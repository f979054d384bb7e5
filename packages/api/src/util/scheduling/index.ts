export * from './node-affinity';
export * from './taints';
