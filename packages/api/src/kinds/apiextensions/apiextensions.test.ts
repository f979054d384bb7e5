import { compileKind } from '../../validation/compile-kind';
import { errorMessage } from '../../validation/field-error';
import { supportsStrategicMerge } from '../../patch/strategic-merge-patch';
import { CustomResourceDefinitionKind, type CustomResourceDefinition } from './custom-resource-definition';
import { compareKubeAwareVersions, customResourceKind } from './custom-resource-kind';
import { getAtJSONPath, setAtJSONPath } from './json-path';
import type { KindDeclaration } from '../../schema/kind';

type Json = Record<string, any>;

function crd(spec: Json = {}, name = 'widgets.example.com'): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
      ],
      ...spec,
    },
  };
}

const compiled = compileKind(CustomResourceDefinitionKind as unknown as KindDeclaration);
const messages = (obj: Json): string[] => {
  compiled.default(obj);
  return compiled.validate(obj).map(errorMessage);
};

describe('CustomResourceDefinition validation', () => {
  it('accepts a minimal v1 definition and defaults its names and conversion', () => {
    const obj = crd();
    expect(messages(obj)).toEqual([]);
    expect(obj.spec.names).toEqual({
      plural: 'widgets',
      kind: 'Widget',
      singular: 'widget',
      listKind: 'WidgetList',
    });
    expect(obj.spec.conversion).toEqual({ strategy: 'None' });
  });

  const version = (extra: Json) => ({ name: 'v1', served: true, storage: true, ...extra });
  it.each<[string, Json, string, string?]>([
    [
      'a name other than plural.group',
      {},
      'metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group',
      'gadgets.example.com',
    ],
    ['no group', { group: '' }, 'spec.group: Required value', '.'],
    [
      'a group without a dot',
      { group: 'example' },
      'spec.group: Invalid value: "example": should be a domain with at least one dot',
      'widgets.example',
    ],
    ['no scope', { scope: '' }, 'spec.scope: Required value'],
    [
      'an unknown scope',
      { scope: 'Global' },
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    ],
    [
      'no storage version',
      { versions: [version({ storage: false, schema: { openAPIV3Schema: { type: 'object' } } })] },
      'must have exactly one version marked as storage version',
    ],
    [
      'duplicate version names',
      {
        versions: [1, 2].map((i) =>
          version({ storage: i === 1, schema: { openAPIV3Schema: { type: 'object' } } }),
        ),
      },
      'spec.versions: Invalid value: ',
    ],
    [
      'a version name that is not a DNS-1035 label',
      { versions: [version({ name: 'V1', schema: { openAPIV3Schema: { type: 'object' } } })] },
      'spec.versions[0].name: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters',
    ],
    [
      'a version without schema',
      { versions: [version({})] },
      'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required',
    ],
    [
      'a root without type',
      { versions: [version({ schema: { openAPIV3Schema: {} } })] },
      'spec.versions[0].schema.openAPIV3Schema.type: Required value: must not be empty at the root',
    ],
    [
      'a property without type',
      { versions: [version({ schema: { openAPIV3Schema: { type: 'object', properties: { spec: {} } } } })] },
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    ],
    ['no kind', { names: { plural: 'widgets' } }, 'spec.names.kind: Required value'],
    [
      'a kind that is not a label in any case',
      { names: { plural: 'widgets', kind: 'Wid_get' } },
      'spec.names.kind: Invalid value: "Wid_get": may have mixed case, but should otherwise match: ',
    ],
    [
      'a kind equal to its listKind',
      { names: { plural: 'widgets', kind: 'Widget', listKind: 'Widget' } },
      'spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same',
    ],
    [
      'a printer column of an unknown type',
      {
        versions: [
          version({
            schema: { openAPIV3Schema: { type: 'object' } },
            additionalPrinterColumns: [{ name: 'X', type: 'map', jsonPath: '.spec.x' }],
          }),
        ],
      },
      'spec.versions[0].additionalPrinterColumns[0].type: Unsupported value: "map"',
    ],
    [
      'a scale path outside spec',
      {
        versions: [
          version({
            schema: { openAPIV3Schema: { type: 'object' } },
            subresources: { scale: { specReplicasPath: '.status.r', statusReplicasPath: '.status.r' } },
          }),
        ],
      },
      'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".status.r": should be a json path under .spec',
    ],
  ])('refuses %s', (...row) => {
    // rest parameters: jest would take a fourth declared parameter for a done callback
    const [, spec, message, name] = row;
    const all = messages(crd(spec, name)).join('\n');
    expect(all).toContain(message);
  });

  it('keeps group, plural and scope immutable', () => {
    const old = crd();
    const next = crd(
      { group: 'other.com', scope: 'Cluster', names: { plural: 'things', kind: 'Widget' } },
      'things.other.com',
    );
    compiled.default(old);
    compiled.default(next);
    const errors = compiled.validateUpdate(next, old).map(errorMessage);
    expect(errors).toEqual(
      expect.arrayContaining([
        'spec.group: Invalid value: "other.com": field is immutable',
        'spec.names.plural: Invalid value: "things": field is immutable',
        'spec.scope: Invalid value: "Cluster": field is immutable',
      ]),
    );
  });
});

describe('the kind a definition declares', () => {
  const definition = crd({
    scope: 'Cluster',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
    versions: [
      { name: 'v1alpha1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
        },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                properties: {
                  size: { type: 'string', enum: ['small', 'large'] },
                  replicas: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
                  name: { type: 'string', pattern: '^[a-z]+$', minLength: 2, maxLength: 5 },
                  ratio: { type: 'number', minimum: 0, exclusiveMinimum: true },
                  port: { 'x-kubernetes-int-or-string': true },
                  note: { type: 'string', nullable: true },
                  tags: {
                    type: 'array',
                    items: { type: 'string' },
                    maxItems: 2,
                    'x-kubernetes-list-type': 'set',
                  },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                  free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  template: {
                    type: 'object',
                    'x-kubernetes-embedded-resource': true,
                    properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } },
                  },
                  nested: {
                    type: 'object',
                    properties: { color: { type: 'string', default: 'blue' } },
                    default: {},
                  },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' } } },
            },
          },
        },
      },
    ],
  }) as CustomResourceDefinition;
  const decl = customResourceKind(definition)!;
  const kind = compileKind(decl);
  const run = (obj: Json) => {
    const pruned = kind.prune(obj).unknown;
    kind.default(obj);
    return { pruned, errors: kind.validate(obj).map(errorMessage) };
  };
  const widget = (spec: Json): Json => ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w' },
    spec,
  });

  it('is declared from the storage version, served versions in Kubernetes priority order', () => {
    expect(decl).toMatchObject({
      group: 'example.com',
      versions: ['v1', 'v1alpha1'],
      kind: 'Widget',
      plural: 'widgets',
      singular: 'widget',
      shortNames: ['wd'],
      categories: ['all'],
      listKind: 'WidgetList',
      namespaced: false,
      subresources: {
        status: true,
        scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
      },
      jsonOnly: true,
      customResource: true,
    });
    expect(decl.columns!.map((c) => c.name)).toEqual(['Name', 'Age']);
    expect(supportsStrategicMerge(decl.schema)).toBe(false);
  });

  it('prunes unknown fields except where preserved, and applies defaults', () => {
    const obj = widget({
      size: 'small',
      extra: 1,
      free: { any: { x: 1 } },
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { a: 'x', b: 'y' } },
    });
    const { pruned, errors } = run(obj);
    expect(errors).toEqual([]);
    expect(pruned.length).toBeGreaterThan(0);
    expect(obj.spec).toEqual({
      size: 'small',
      replicas: 1,
      free: { any: { x: 1 } },
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { a: 'x' } },
      nested: { color: 'blue' },
    });
  });

  it.each<[string, Json, string]>([
    [
      'a wrong type',
      { size: 'small', replicas: 'three' },
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ],
    ['a missing required field', {}, 'spec.size: Required value'],
    [
      'a value outside the enum',
      { size: 'huge' },
      'spec.size: Unsupported value: "huge": supported values: "small", "large"',
    ],
    [
      'a value above maximum',
      { size: 'small', replicas: 11 },
      'spec.replicas: Invalid value: 11: must be less than or equal to 10',
    ],
    [
      'a value below minimum',
      { size: 'small', replicas: -1 },
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ],
    [
      'an exclusive minimum',
      { size: 'small', ratio: 0 },
      'spec.ratio: Invalid value: 0: must be greater than 0',
    ],
    [
      'a pattern mismatch',
      { size: 'small', name: 'AB' },
      `spec.name: Invalid value: "AB": spec.name in body should match '^[a-z]+$'`,
    ],
    ['a string too long', { size: 'small', name: 'abcdef' }, 'spec.name: Too long'],
    ['too many items', { size: 'small', tags: ['a', 'b', 'c'] }, 'spec.tags: Too many'],
    [
      'a map value of the wrong type',
      { size: 'small', labels: { a: 1 } },
      'in body must be of type string: "integer"',
    ],
  ])('refuses %s', (_what, spec, message) => {
    expect(run(widget(spec)).errors.join('\n')).toContain(message);
  });

  it('accepts int-or-string values and null where nullable', () => {
    expect(run(widget({ size: 'small', port: 8080, note: null })).errors).toEqual([]);
    expect(run(widget({ size: 'small', port: 'http' })).errors).toEqual([]);
    expect(run(widget({ size: 'small', port: true })).errors.join()).toContain('spec.port');
  });

  it('names the object as for every kind (DNS subdomain)', () => {
    const obj = widget({ size: 'small' });
    obj.metadata.name = 'Bad_Name';
    expect(run(obj).errors.join()).toContain('metadata.name: Invalid value: "Bad_Name"');
  });

  it('fills the printer columns from their JSON paths', () => {
    const withColumns = structuredClone(definition);
    withColumns.spec.versions[1]!.additionalPrinterColumns = [
      { name: 'Size', type: 'string', jsonPath: '.spec.size' },
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 1 },
      { name: 'Created', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ];
    const columns = customResourceKind(withColumns)!.columns!;
    const now = new Date('2024-01-01T00:10:00Z');
    const obj = {
      metadata: { name: 'w', creationTimestamp: '2024-01-01T00:00:00Z' },
      spec: { size: 'large', replicas: 3 },
    };
    expect(columns.map((c) => [c.name, c.priority ?? 0, c.cell(obj, now)])).toEqual([
      ['Name', 0, 'w'],
      ['Size', 0, 'large'],
      ['Replicas', 1, 3],
      ['Created', 0, '10m'],
    ]);
  });

  it('is not served without a served version', () => {
    const none = structuredClone(definition);
    for (const v of none.spec.versions) v.served = false;
    expect(customResourceKind(none)).toBeUndefined();
  });
});

describe('helpers', () => {
  it('orders versions as Kubernetes does', () => {
    expect(
      ['v1alpha1', 'v2beta1', 'foo', 'v1', 'v10', 'v1beta2', 'v1beta1', 'bar'].sort(compareKubeAwareVersions),
    ).toEqual(['v10', 'v1', 'v2beta1', 'v1beta2', 'v1beta1', 'v1alpha1', 'bar', 'foo']);
  });

  it('reads and writes simple JSON paths', () => {
    const obj: Json = { spec: { list: [{ a: 1 }] } };
    expect(getAtJSONPath(obj, '.spec.list[0].a')).toBe(1);
    expect(getAtJSONPath(obj, '.spec.missing.x')).toBeUndefined();
    setAtJSONPath(obj, '.spec.replicas', 3);
    setAtJSONPath(obj, '.status.deep.value', 'x');
    expect(obj).toEqual({ spec: { list: [{ a: 1 }], replicas: 3 }, status: { deep: { value: 'x' } } });
  });
});
