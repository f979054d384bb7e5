export * from './scaledValue';
export * from './fenceposts';
