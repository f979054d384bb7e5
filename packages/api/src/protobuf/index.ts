export * from './proto-names';
export * from './proto-registry';
export * from './envelope';
export * from './protobuf-codec';
export { validObjectOf, richContainer, richPodSpec, type FixtureTarget } from '../testing/valid-objects';
