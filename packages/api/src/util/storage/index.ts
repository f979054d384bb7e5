export * from './volume-matching';
