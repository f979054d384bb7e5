import { defineKind } from '../schema/kind';
import { field, int32, list, required, str, struct } from '../schema/fields';
import { objectMeta } from '../meta/object-meta';
import { ConfigMapKind } from '../kinds/core/configmap';
import { nameIsDNSLabel } from '../util/names';
import { child, duplicate, errorMessage, forbidden, invalid } from './field-error';
import { compileKind } from './compile-kind';

const seen: unknown[] = [];

const Item = struct(
  'io.k8s.api.test.v1.Item',
  {
    name: required(str({ proto: 1, format: 'dns1123-label' })),
    size: int32({ proto: 2, minimum: 0, default: 1 }),
    path: str({ proto: 3, immutable: true }),
  },
  {
    validate: (item, path, ctx) => {
      seen.push(ctx.old);
      if (item.name === 'boom') throw new Error('unexpected value');
      return item.path?.startsWith('/') === false
        ? [invalid(child(path, 'path'), item.path, 'must be an absolute path')]
        : [];
    },
  },
);
const WidgetSpec = struct(
  'io.k8s.api.test.v1.WidgetSpec',
  {
    replicas: int32({ proto: 1, default: 1, minimum: 0 }),
    items: list(Item, { proto: 2, patchMergeKey: 'name', patchStrategy: 'merge' }),
    mode: str({ proto: 3, enum: ['Fast', 'Slow'], default: 'Fast' }),
  },
  {
    validate: (spec, path) => {
      const names = new Set<string>();
      const out = [];
      for (const [i, it] of (spec.items ?? []).entries()) {
        if (names.has(it.name)) out.push(duplicate(child(child(path, 'items'), i), it.name));
        names.add(it.name);
      }
      return out;
    },
  },
);
const WidgetSchema = struct('io.k8s.api.test.v1.Widget', {
  apiVersion: str(),
  kind: str(),
  metadata: objectMeta(),
  spec: field(WidgetSpec, { proto: 2 }),
});
const WidgetKind = defineKind({
  group: 'example.com',
  versions: ['v1'],
  kind: 'Widget',
  plural: 'widgets',
  singular: 'widget',
  namespaced: true,
  schema: WidgetSchema,
  validateUpdate: (obj, old) =>
    obj.spec?.mode !== old.spec?.mode && old.spec?.mode === 'Slow'
      ? [forbidden('spec.mode', 'may not leave Slow')]
      : [],
});

function widget(spec: Record<string, unknown>, meta: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'default', ...meta },
    spec,
  };
}

beforeEach(() => {
  seen.length = 0;
});

describe('compileKind', () => {
  it('compiles each kind once', () => {
    expect(compileKind(WidgetKind)).toBe(compileKind(WidgetKind));
    expect(compileKind(WidgetKind, { nameValidation: nameIsDNSLabel })).not.toBe(compileKind(WidgetKind));
  });

  it('prunes, defaults and validates a ConfigMap', () => {
    const cm = compileKind(ConfigMapKind);
    const obj = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', namespace: 'default' },
      data: { a: 'b' },
      extra: 1,
    };
    expect(cm.prune(obj)).toEqual({ unknown: ['unknown field "extra"'] });
    cm.default(obj);
    expect(cm.validate(obj)).toEqual([]);
    expect(
      cm.validate({ ...obj, metadata: { namespace: 'default' }, data: { a: 1 } }).map(errorMessage),
    ).toEqual([
      'data[a]: Invalid value: "integer": data[a] in body must be of type string: "integer"',
      'metadata.name: Required value: name or generateName is required',
    ]);
  });

  it('runs schema rules, ObjectMeta rules and struct hooks with Kubernetes paths', () => {
    const k = compileKind(WidgetKind);
    const obj = widget(
      { replicas: -1, items: [{ name: 'a', path: 'rel' }, { name: 'a' }] },
      { labels: { 'a b': 'x' } },
    );
    k.default(obj);
    expect(k.validate(obj).map(errorMessage)).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      expect.stringMatching(/^metadata\.labels: Invalid value: "a b": name part must consist of/),
      'spec.items[1]: Duplicate value: "a"',
      'spec.items[0].path: Invalid value: "rel": must be an absolute path',
    ]);
    expect(seen).toEqual([undefined, undefined]);
  });

  it('reports a rule that throws as an internal error of its struct', () => {
    const k = compileKind(WidgetKind);
    expect(k.validate(widget({ items: [{ name: 'boom' }] })).map(errorMessage)).toEqual([
      'spec.items[0]: Internal error: unexpected value',
    ]);
  });

  it('skips hooks when a value has the wrong type (the body would not decode)', () => {
    const k = compileKind(WidgetKind);
    expect(k.validate(widget({ items: [{ name: 'a', path: 5 }] })).map(errorMessage)).toEqual([
      'spec.items[0].path: Invalid value: "integer": spec.items[0].path in body must be of type string: "integer"',
    ]);
  });

  it('defaults absent fields only and recurses into list items', () => {
    const k = compileKind(WidgetKind);
    const obj = widget({ replicas: 0, items: [{ name: 'a' }, { name: 'b', size: 0 }] });
    k.default(obj);
    expect(obj.spec).toEqual({
      replicas: 0,
      mode: 'Fast',
      items: [
        { name: 'a', size: 1 },
        { name: 'b', size: 0 },
      ],
    });
  });

  it('validates an update: metadata, immutable fields by merge key, hooks with the old object, kind rules', () => {
    const k = compileKind(WidgetKind);
    const old = widget(
      {
        mode: 'Slow',
        items: [
          { name: 'a', path: '/x' },
          { name: 'b', path: '/y' },
        ],
      },
      { uid: 'u1' },
    );
    const obj = widget(
      {
        mode: 'Fast',
        items: [
          { name: 'b', path: '/y' },
          { name: 'a', path: '/z' },
        ],
      },
      { uid: 'u2' },
    );
    expect(k.validateUpdate(obj, old).map(errorMessage)).toEqual([
      'metadata.uid: Invalid value: "u2": field is immutable',
      'spec.items[1].path: Invalid value: "/z": field is immutable',
      'spec.mode: Forbidden: may not leave Slow',
    ]);
    expect(seen).toEqual([old, old]);
    expect(k.validateUpdate(old, old)).toEqual([]);
  });

  it('uses the kind name rule given as an option', () => {
    const k = compileKind(WidgetKind, { nameValidation: nameIsDNSLabel });
    expect(k.validate(widget({}, { name: 'a.b' })).map(errorMessage)).toEqual([
      'metadata.name: Invalid value: "a.b": must not contain dots',
    ]);
  });
});

describe('compileKind on a struct that contains itself', () => {
  // Like apiextensions' JSONSchemaProps: a struct reachable from its own fields.
  const TreeNode = struct(
    'io.k8s.api.test.v1.TreeNode',
    { name: required(str({ proto: 1 })), weight: int32({ proto: 2, default: 1, immutable: true }) },
    { validate: (n, path) => (n.name === 'bad' ? [invalid(child(path, 'name'), n.name, 'is bad')] : []) },
  );
  (TreeNode.properties as Record<string, unknown>).children = list(TreeNode, { proto: 3 });
  const TreeKind = defineKind({
    group: 'example.com',
    versions: ['v1'],
    kind: 'Tree',
    plural: 'trees',
    singular: 'tree',
    namespaced: false,
    schema: struct('io.k8s.api.test.v1.Tree', {
      apiVersion: str(),
      kind: str(),
      metadata: objectMeta(),
      root: field(TreeNode, { proto: 2 }),
    }),
  });

  it('prunes, defaults and validates at every depth', () => {
    const k = compileKind(TreeKind);
    const tree: Record<string, any> = {
      metadata: { name: 't' },
      root: { name: 'a', children: [{ name: 'b', extra: 1, children: [{ name: 'bad' }, {}] }] },
    };
    expect(k.prune(tree).unknown).toEqual(['unknown field "root.children[0].extra"']);
    k.default(tree);
    expect(tree.root.children[0].children[1].weight).toBe(1);
    expect(k.validate(tree).map(errorMessage)).toEqual([
      'root.children[0].children[1].name: Required value',
      'root.children[0].children[0].name: Invalid value: "bad": is bad',
    ]);
    tree.root.children[0].children[0].name = 'c';
    tree.root.children[0].children[1].name = 'd';
    expect(k.validate(tree)).toEqual([]);
    const updated = structuredClone(tree);
    updated.root.children[0].children[0].weight = 2;
    expect(k.validateUpdate(updated, tree).map(errorMessage)).toContain(
      'root.children[0].children[0].weight: Invalid value: 2: field is immutable',
    );
  });
});
