export * from './status-error';
