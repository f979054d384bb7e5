export * from './volume-matching';
export * from './zone-labels';
