export * from './schema-to-openapi';
export * from './openapi-document';
