import { CustomResourceDefinitionKind } from './custom-resource-definition';

export * from './custom-resource-definition';
export * from './crd-validation';
export * from './openapi-schema-node';
export * from './custom-resource-kind';
export * from './json-path';

export const apiextensionsKinds = [CustomResourceDefinitionKind];
