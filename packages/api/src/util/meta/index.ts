export * from './ownerReferences';
export * from './conditions';
export * from './time';
