export * from './media-type';
export * from './negotiate';
export * from './decode-body';
export * from './encode';
