import {
  bool,
  bytes,
  double,
  field,
  int32,
  intOrString,
  list,
  map,
  quantity,
  required,
  str,
  stringMap,
  struct,
  time,
} from '../schema/fields';
import { errorMessage } from './field-error';
import { compileSchemaValidator } from './schema-validator';

const Port = struct('io.k8s.api.core.v1.ContainerPort', {
  name: str({ proto: 1, format: 'port-name' }),
  containerPort: required(int32({ proto: 3, minimum: 1, maximum: 65535 })),
  protocol: str({ proto: 4, enum: ['TCP', 'UDP', 'SCTP'] }),
  hostIP: str({ proto: 5, format: 'ip' }),
});
const Container = struct('io.k8s.api.core.v1.Container', {
  name: required(str({ proto: 1, format: 'dns1123-label' })),
  image: str({ proto: 2, maxLength: 10 }),
  ports: list(Port, { proto: 6, maxItems: 2 }),
  env: list(
    struct('io.k8s.api.core.v1.EnvVar', { name: required(str({ proto: 1, format: 'env-var-name' })) }),
    {
      proto: 7,
    },
  ),
  limits: map(quantity(), { proto: 8 }),
});
const Spec = struct('io.k8s.api.test.v1.TestSpec', {
  replicas: int32({ proto: 1, minimum: 0 }),
  ratio: int32({ proto: 2, exclusiveMinimum: 0 }),
  weight: double({ proto: 12, minimum: 0.5 }),
  paused: bool({ proto: 3 }),
  containers: required(list(Container, { proto: 4, minItems: 1 })),
  schedule: str({ proto: 5, format: 'cron' }),
  maxSurge: intOrString({ proto: 6, nonNegative: true }),
  startTime: time({ proto: 7 }),
  payload: bytes({ proto: 8 }),
  selector: stringMap({ proto: 9 }),
  restartPolicy: str({ proto: 10, enum: ['Always', 'OnFailure', 'Never'] }),
  code: str({ proto: 11, pattern: '^[A-Z]+$' }),
});
const Root = struct('io.k8s.api.test.v1.Test', {
  apiVersion: str(),
  kind: str(),
  spec: field(Spec, { proto: 2 }),
});

const validate = compileSchemaValidator(Root);
const valid = { spec: { containers: [{ name: 'web', ports: [{ containerPort: 80 }] }] } };

function messages(spec: Record<string, unknown>): string[] {
  return validate({ spec: { ...valid.spec, ...spec } }).map(errorMessage);
}

describe('compileSchemaValidator', () => {
  it('accepts a valid object', () => {
    expect(validate(valid)).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['required field', { containers: [{ image: 'x' }] }, ['spec.containers[0].name: Required value']],
    ['required list', { containers: undefined }, ['spec.containers: Required value']],
    ['empty list with minItems', { containers: [] }, ['spec.containers: Required value']],
    ['minimum', { replicas: -1 }, ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    [
      'maximum',
      { containers: [{ name: 'a', ports: [{ containerPort: 70000 }] }] },
      [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be less than or equal to 65535',
      ],
    ],
    [
      'int32 range',
      { replicas: 3000000000 },
      ['spec.replicas: Invalid value: 3000000000: must be less than or equal to 2147483647'],
    ],
    ['exclusive minimum', { ratio: 0 }, ['spec.ratio: Invalid value: 0: must be greater than 0']],
    [
      'double minimum',
      { weight: 0.25 },
      ['spec.weight: Invalid value: 0.25: must be greater than or equal to 0.5'],
    ],
    [
      'enum, supported values in declared order',
      { restartPolicy: 'Sometimes' },
      [
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      ],
    ],
    [
      'maxLength',
      { containers: [{ name: 'a', image: 'registry.example.com/app' }] },
      ['spec.containers[0].image: Too long: must have at most 10 bytes'],
    ],
    [
      'maxItems',
      {
        containers: [
          { name: 'a', ports: [{ containerPort: 1 }, { containerPort: 2 }, { containerPort: 3 }] },
        ],
      },
      ['spec.containers[0].ports: Too many: 3: must have at most 2 items'],
    ],
    [
      'dns1123-label format',
      { containers: [{ name: 'Web_1' }] },
      [
        "spec.containers[0].name: Invalid value: \"Web_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      'port-name format: every failed rule',
      { containers: [{ name: 'a', ports: [{ containerPort: 80, name: '-1-' }] }] },
      [
        'spec.containers[0].ports[0].name: Invalid value: "-1-": must contain at least one letter (a-z)',
        'spec.containers[0].ports[0].name: Invalid value: "-1-": must not begin or end with a hyphen',
      ],
    ],
    [
      'ip format',
      { containers: [{ name: 'a', ports: [{ containerPort: 80, hostIP: '300.1.1.1' }] }] },
      [
        'spec.containers[0].ports[0].hostIP: Invalid value: "300.1.1.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    ],
    [
      'env-var-name format',
      { containers: [{ name: 'a', env: [{ name: '1A' }] }] },
      [
        "spec.containers[0].env[0].name: Invalid value: \"1A\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
      ],
    ],
    [
      'quantity format inside a map: map key notation',
      { containers: [{ name: 'a', limits: { cpu: 'lots' } }] },
      [
        'spec.containers[0].limits[cpu]: Invalid value: "lots": quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
      ],
    ],
    [
      'cron format',
      { schedule: 'every day' },
      ['spec.schedule: Invalid value: "every day": Expected exactly 5 fields, found 2: every day'],
    ],
    [
      'cron format with an unknown time zone of its own',
      { schedule: 'TZ=Mars/Olympus_Mons 0 9 * * *' },
      [
        'spec.schedule: Invalid value: "TZ=Mars/Olympus_Mons 0 9 * * *": provided bad location Mars/Olympus_Mons: unknown time zone Mars/Olympus_Mons',
      ],
    ],
    [
      'non-negative int-or-percent',
      { maxSurge: -1 },
      ['spec.maxSurge: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'percent string',
      { maxSurge: '25' },
      [
        "spec.maxSurge: Invalid value: \"25\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
    [
      'wrong type: string for integer',
      { replicas: '3' },
      ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
    ],
    [
      'wrong type: fraction for integer',
      { replicas: 1.5 },
      ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"'],
    ],
    [
      'wrong type: object for list',
      { containers: {} },
      ['spec.containers: Invalid value: "object": spec.containers in body must be of type array: "object"'],
    ],
    [
      'wrong type in a map value',
      { selector: { app: 1 } },
      [
        'spec.selector[app]: Invalid value: "integer": spec.selector[app] in body must be of type string: "integer"',
      ],
    ],
    [
      'wrong type for int-or-string',
      { maxSurge: true },
      [
        'spec.maxSurge: Invalid value: "boolean": spec.maxSurge in body must be of type integer or string: "boolean"',
      ],
    ],
    [
      'time format',
      { startTime: '2024-13-01T00:00:00Z' },
      [
        'spec.startTime: Invalid value: "2024-13-01T00:00:00Z": must be an RFC 3339 date-time (e.g. 2006-01-02T15:04:05Z)',
      ],
    ],
    [
      'bytes format',
      { payload: 'a*bc' },
      ['spec.payload: Invalid value: "a*bc": illegal base64 data at input byte 1'],
    ],
    [
      'pattern',
      { code: 'abc' },
      ['spec.code: Invalid value: "abc": spec.code in body should match \'^[A-Z]+$\''],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(messages(spec)).toEqual(expected);
  });

  it('collects every error of an object', () => {
    const errs = validate({ spec: { replicas: -1, restartPolicy: 'x', containers: [{}, { name: 'B' }] } });
    expect(errs.map((e) => `${e.type} ${e.field}`)).toEqual([
      'FieldValueInvalid spec.replicas',
      'FieldValueRequired spec.containers[0].name',
      'FieldValueInvalid spec.containers[1].name',
      'FieldValueNotSupported spec.restartPolicy',
    ]);
  });
});
