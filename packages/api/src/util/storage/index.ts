export * from './volume-matching';
export * from './zone-labels';
export * from './pod-claims';
