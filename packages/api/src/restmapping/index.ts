export * from './rest-mapper';
