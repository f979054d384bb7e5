export * from './object-meta';
export * from './status';
