import type { INamespace } from 'protobufjs';

/** A protobufjs field definition: `repeated` marks a list. */
const f = (id: number, type: string, repeated = false) =>
  repeated ? { id, type, rule: 'repeated' } : { id, type };

/** The vendor extensions (`x-...` keys) of an object. */
const ext = (id: number) => ({ vendor_extension: f(id, 'NamedAny', true) });

/** A `(name, value)` pair of an ordered map. */
const named = (type: string) => ({ fields: { name: f(1, 'string'), value: f(2, type) } });

/** The value keywords a query or form-data parameter shares (numbered from `required` = 1). */
const queryParameterFields = {
  required: f(1, 'bool'),
  in: f(2, 'string'),
  description: f(3, 'string'),
  name: f(4, 'string'),
  allow_empty_value: f(5, 'bool'),
  type: f(6, 'string'),
  format: f(7, 'string'),
  items: f(8, 'PrimitivesItems'),
  collection_format: f(9, 'string'),
  default: f(10, 'Any'),
  maximum: f(11, 'double'),
  exclusive_maximum: f(12, 'bool'),
  minimum: f(13, 'double'),
  exclusive_minimum: f(14, 'bool'),
  max_length: f(15, 'int64'),
  min_length: f(16, 'int64'),
  pattern: f(17, 'string'),
  max_items: f(18, 'int64'),
  min_items: f(19, 'int64'),
  unique_items: f(20, 'bool'),
  enum: f(21, 'Any', true),
  multiple_of: f(22, 'double'),
  ...ext(23),
};

/** The value keywords a path or header parameter shares (no allowEmptyValue). */
const pathParameterFields = {
  required: f(1, 'bool'),
  in: f(2, 'string'),
  description: f(3, 'string'),
  name: f(4, 'string'),
  type: f(5, 'string'),
  format: f(6, 'string'),
  items: f(7, 'PrimitivesItems'),
  collection_format: f(8, 'string'),
  default: f(9, 'Any'),
  maximum: f(10, 'double'),
  exclusive_maximum: f(11, 'bool'),
  minimum: f(12, 'double'),
  exclusive_minimum: f(13, 'bool'),
  max_length: f(14, 'int64'),
  min_length: f(15, 'int64'),
  pattern: f(16, 'string'),
  max_items: f(17, 'int64'),
  min_items: f(18, 'int64'),
  unique_items: f(19, 'bool'),
  enum: f(20, 'Any', true),
  multiple_of: f(21, 'double'),
  ...ext(22),
};

/**
 * The messages of the gnostic OpenAPI v2 protobuf form (`openapi.v2.Document`, package `openapi.v2`)
 * that an apiserver's `/openapi/v2` document uses, with the field names and numbers of its
 * OpenAPIv2.proto. `kubectl` (client-go's discovery) fetches the document in this form.
 */
export const openAPIv2Messages: INamespace = {
  nested: {
    google: {
      nested: {
        protobuf: {
          nested: {
            Any: { fields: { type_url: f(1, 'string'), value: f(2, 'bytes') } },
          },
        },
      },
    },
    openapi: {
      nested: {
        v2: {
          nested: {
            Document: {
              fields: {
                swagger: f(1, 'string'),
                info: f(2, 'Info'),
                host: f(3, 'string'),
                base_path: f(4, 'string'),
                schemes: f(5, 'string', true),
                consumes: f(6, 'string', true),
                produces: f(7, 'string', true),
                paths: f(8, 'Paths'),
                definitions: f(9, 'Definitions'),
                security: f(12, 'SecurityRequirement', true),
                security_definitions: f(13, 'SecurityDefinitions'),
                ...ext(16),
              },
            },
            Info: {
              fields: {
                title: f(1, 'string'),
                version: f(2, 'string'),
                description: f(3, 'string'),
                terms_of_service: f(4, 'string'),
                ...ext(7),
              },
            },
            Any: { fields: { value: f(1, 'google.protobuf.Any'), yaml: f(2, 'string') } },
            NamedAny: named('Any'),
            Paths: { fields: { ...ext(1), path: f(2, 'NamedPathItem', true) } },
            NamedPathItem: named('PathItem'),
            PathItem: {
              fields: {
                _ref: f(1, 'string'),
                get: f(2, 'Operation'),
                put: f(3, 'Operation'),
                post: f(4, 'Operation'),
                delete: f(5, 'Operation'),
                options: f(6, 'Operation'),
                head: f(7, 'Operation'),
                patch: f(8, 'Operation'),
                parameters: f(9, 'ParametersItem', true),
                ...ext(10),
              },
            },
            Operation: {
              fields: {
                tags: f(1, 'string', true),
                summary: f(2, 'string'),
                description: f(3, 'string'),
                operation_id: f(5, 'string'),
                produces: f(6, 'string', true),
                consumes: f(7, 'string', true),
                parameters: f(8, 'ParametersItem', true),
                responses: f(9, 'Responses'),
                schemes: f(10, 'string', true),
                deprecated: f(11, 'bool'),
                security: f(12, 'SecurityRequirement', true),
                ...ext(13),
              },
            },
            ParametersItem: {
              oneofs: { oneof: { oneof: ['parameter', 'json_reference'] } },
              fields: { parameter: f(1, 'Parameter'), json_reference: f(2, 'JsonReference') },
            },
            JsonReference: { fields: { _ref: f(1, 'string'), description: f(2, 'string') } },
            Parameter: {
              oneofs: { oneof: { oneof: ['body_parameter', 'non_body_parameter'] } },
              fields: { body_parameter: f(1, 'BodyParameter'), non_body_parameter: f(2, 'NonBodyParameter') },
            },
            BodyParameter: {
              fields: {
                description: f(1, 'string'),
                name: f(2, 'string'),
                in: f(3, 'string'),
                required: f(4, 'bool'),
                schema: f(5, 'Schema'),
                ...ext(6),
              },
            },
            NonBodyParameter: {
              oneofs: {
                oneof: {
                  oneof: [
                    'header_parameter_sub_schema',
                    'form_data_parameter_sub_schema',
                    'query_parameter_sub_schema',
                    'path_parameter_sub_schema',
                  ],
                },
              },
              fields: {
                header_parameter_sub_schema: f(1, 'HeaderParameterSubSchema'),
                form_data_parameter_sub_schema: f(2, 'FormDataParameterSubSchema'),
                query_parameter_sub_schema: f(3, 'QueryParameterSubSchema'),
                path_parameter_sub_schema: f(4, 'PathParameterSubSchema'),
              },
            },
            HeaderParameterSubSchema: { fields: pathParameterFields },
            FormDataParameterSubSchema: { fields: queryParameterFields },
            QueryParameterSubSchema: { fields: queryParameterFields },
            PathParameterSubSchema: { fields: pathParameterFields },
            PrimitivesItems: {
              fields: {
                type: f(1, 'string'),
                format: f(2, 'string'),
                items: f(3, 'PrimitivesItems'),
                collection_format: f(4, 'string'),
                default: f(5, 'Any'),
                maximum: f(6, 'double'),
                exclusive_maximum: f(7, 'bool'),
                minimum: f(8, 'double'),
                exclusive_minimum: f(9, 'bool'),
                max_length: f(10, 'int64'),
                min_length: f(11, 'int64'),
                pattern: f(12, 'string'),
                max_items: f(13, 'int64'),
                min_items: f(14, 'int64'),
                unique_items: f(15, 'bool'),
                enum: f(16, 'Any', true),
                multiple_of: f(17, 'double'),
                ...ext(18),
              },
            },
            Responses: {
              fields: { response_code: f(1, 'NamedResponseValue', true), ...ext(2) },
            },
            NamedResponseValue: named('ResponseValue'),
            ResponseValue: {
              oneofs: { oneof: { oneof: ['response', 'json_reference'] } },
              fields: { response: f(1, 'Response'), json_reference: f(2, 'JsonReference') },
            },
            Response: {
              fields: { description: f(1, 'string'), schema: f(2, 'SchemaItem'), ...ext(5) },
            },
            SchemaItem: {
              oneofs: { oneof: { oneof: ['schema'] } },
              fields: { schema: f(1, 'Schema') },
            },
            Definitions: { fields: { additional_properties: f(1, 'NamedSchema', true) } },
            NamedSchema: named('Schema'),
            Schema: {
              fields: {
                _ref: f(1, 'string'),
                format: f(2, 'string'),
                title: f(3, 'string'),
                description: f(4, 'string'),
                default: f(5, 'Any'),
                multiple_of: f(6, 'double'),
                maximum: f(7, 'double'),
                exclusive_maximum: f(8, 'bool'),
                minimum: f(9, 'double'),
                exclusive_minimum: f(10, 'bool'),
                max_length: f(11, 'int64'),
                min_length: f(12, 'int64'),
                pattern: f(13, 'string'),
                max_items: f(14, 'int64'),
                min_items: f(15, 'int64'),
                unique_items: f(16, 'bool'),
                max_properties: f(17, 'int64'),
                min_properties: f(18, 'int64'),
                required: f(19, 'string', true),
                enum: f(20, 'Any', true),
                additional_properties: f(21, 'AdditionalPropertiesItem'),
                type: f(22, 'TypeItem'),
                items: f(23, 'ItemsItem'),
                all_of: f(24, 'Schema', true),
                properties: f(25, 'Properties'),
                discriminator: f(26, 'string'),
                read_only: f(27, 'bool'),
                example: f(30, 'Any'),
                ...ext(31),
              },
            },
            TypeItem: { fields: { value: f(1, 'string', true) } },
            ItemsItem: { fields: { schema: f(1, 'Schema', true) } },
            AdditionalPropertiesItem: {
              oneofs: { oneof: { oneof: ['schema', 'boolean'] } },
              fields: { schema: f(1, 'Schema'), boolean: f(2, 'bool') },
            },
            Properties: { fields: { additional_properties: f(1, 'NamedSchema', true) } },
            SecurityDefinitions: {
              fields: { additional_properties: f(1, 'NamedSecurityDefinitionsItem', true) },
            },
            NamedSecurityDefinitionsItem: named('SecurityDefinitionsItem'),
            SecurityDefinitionsItem: {
              oneofs: { oneof: { oneof: ['basic_authentication_security', 'api_key_security'] } },
              fields: {
                basic_authentication_security: f(1, 'BasicAuthenticationSecurity'),
                api_key_security: f(2, 'ApiKeySecurity'),
              },
            },
            BasicAuthenticationSecurity: {
              fields: { type: f(1, 'string'), description: f(2, 'string'), ...ext(3) },
            },
            ApiKeySecurity: {
              fields: {
                type: f(1, 'string'),
                name: f(2, 'string'),
                in: f(3, 'string'),
                description: f(4, 'string'),
                ...ext(5),
              },
            },
            SecurityRequirement: { fields: { additional_properties: f(1, 'NamedStringArray', true) } },
            NamedStringArray: named('StringArray'),
            StringArray: { fields: { value: f(1, 'string', true) } },
          },
        },
      },
    },
  },
};
