export * from './escape';
export * from './selector';
