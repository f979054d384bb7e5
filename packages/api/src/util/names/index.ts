export * from './messages';
export * from './identifiers';
export * from './network';
export * from './pathSegment';
export * from './annotations';
export * from './generateName';
