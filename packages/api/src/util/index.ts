export * from './names';
export * from './labels';
export * from './fields';
export * from './quantity';
export * from './intstr';
export * from './meta';
export * from './time-zone';
export * from './aggregate-text';
