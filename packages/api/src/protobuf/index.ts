export * from './proto-names';
export * from './proto-registry';
export * from './envelope';
export * from './protobuf-codec';
