export * from './table-convertor';
