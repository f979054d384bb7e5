import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import { errorMessage, type FieldError } from '../../validation/field-error';
import {
  CSINodeDriverSchema,
  CSINodeKind,
  CSINodeSpecSchema,
  StorageClassKind,
  StorageClassSchema,
  TopologySelectorTermSchema,
  VolumeAttachmentKind,
  VolumeAttachmentSchema,
  VolumeAttachmentSourceSchema,
  VolumeAttachmentSpecSchema,
  VolumeAttachmentStatusSchema,
  type StorageClass,
  type VolumeAttachment,
} from './index';

const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );
const run = (schema: TSchema, value: unknown, path: string): string[] =>
  (structHooks(schema)!.validate!(value, path, { root: value }) as FieldError[]).map(errorMessage);
const now = new Date('2021-01-01T00:05:00Z');
const meta = (name: string) => ({ name, creationTimestamp: '2021-01-01T00:00:00Z' });

describe('storage.k8s.io/v1 StorageClass', () => {
  it('has Kubernetes protobuf numbers and defaults', () => {
    expect(protos(StorageClassSchema)).toEqual({
      apiVersion: undefined,
      kind: undefined,
      metadata: 1,
      provisioner: 2,
      parameters: 3,
      reclaimPolicy: 4,
      mountOptions: 5,
      allowVolumeExpansion: 6,
      volumeBindingMode: 7,
      allowedTopologies: 8,
    });
    expect(StorageClassSchema.required).toEqual(['provisioner']);
    expect(StorageClassSchema.properties.reclaimPolicy.default).toBe('Delete');
    expect(StorageClassSchema.properties.volumeBindingMode.default).toBe('Immediate');
    expect(
      (StorageClassSchema.properties.volumeBindingMode as Record<string, unknown>)[OrchKeyword.immutable],
    ).toBe(true);
    expect(StorageClassKind.shortNames).toEqual(['sc']);
  });

  it('validates provisioner, reclaim policy and topologies', () => {
    const sc: StorageClass = {
      provisioner: 'kubernetes.io/Bad Name',
      reclaimPolicy: 'Recycle',
      allowedTopologies: [
        { matchLabelExpressions: [{ key: 'zone', values: ['a', 'b'] }] },
        { matchLabelExpressions: [{ key: 'zone', values: ['b', 'a'] }] },
      ],
    };
    const messages = run(StorageClassSchema, sc, '');
    expect(messages[0]).toMatch(
      /^provisioner: Invalid value: "kubernetes.io\/Bad Name": name part must consist of/,
    );
    expect(messages.slice(1)).toEqual([
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
      'allowedTopologies[1].matchLabelExpressions: Duplicate value: ""',
    ]);
    expect(run(StorageClassSchema, { provisioner: 'ebs.csi.aws.com', reclaimPolicy: 'Retain' }, '')).toEqual(
      [],
    );
    expect(
      run(
        TopologySelectorTermSchema,
        {
          matchLabelExpressions: [
            { key: 'zone', values: [] },
            { key: 'zone', values: ['a'] },
          ],
        },
        't',
      ),
    ).toEqual([
      't.matchLabelExpressions[0].values: Required value: must specify as least one value',
      't.matchLabelExpressions[1].key: Duplicate value: "zone"',
    ]);
  });

  it('forbids updates to parameters, provisioner and reclaim policy', () => {
    const old: StorageClass = { provisioner: 'a.io', parameters: { type: 'gp2' }, reclaimPolicy: 'Delete' };
    const next: StorageClass = { provisioner: 'b.io', parameters: { type: 'io1' }, reclaimPolicy: 'Retain' };
    expect(StorageClassKind.validateUpdate!(next, old).map((e) => errorMessage(e as FieldError))).toEqual([
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
    ]);
    expect(StorageClassKind.validateUpdate!({ ...old, allowVolumeExpansion: true }, old)).toEqual([]);
  });

  it('prints the default class with "(default)"', () => {
    const sc: StorageClass = {
      metadata: {
        ...meta('standard'),
        annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
      },
      provisioner: 'rancher.io/local-path',
      volumeBindingMode: 'WaitForFirstConsumer',
    };
    expect(StorageClassKind.columns!.map((c) => c.name)).toEqual([
      'Name',
      'Provisioner',
      'ReclaimPolicy',
      'VolumeBindingMode',
      'AllowVolumeExpansion',
      'Age',
    ]);
    expect(StorageClassKind.columns!.map((c) => c.cell(sc, now))).toEqual([
      'standard (default)',
      'rancher.io/local-path',
      'Delete',
      'WaitForFirstConsumer',
      false,
      '5m',
    ]);
  });
});

describe('storage.k8s.io/v1 VolumeAttachment', () => {
  it('has Kubernetes protobuf numbers and an immutable spec', () => {
    expect(protos(VolumeAttachmentSchema)).toMatchObject({ metadata: 1, spec: 2, status: 3 });
    expect(protos(VolumeAttachmentSpecSchema)).toEqual({ attacher: 1, source: 2, nodeName: 3 });
    expect(protos(VolumeAttachmentSourceSchema)).toEqual({ persistentVolumeName: 1, inlineVolumeSpec: 2 });
    expect(protos(VolumeAttachmentStatusSchema)).toEqual({
      attached: 1,
      attachmentMetadata: 2,
      attachError: 3,
      detachError: 4,
    });
    expect((VolumeAttachmentSchema.properties.spec as Record<string, unknown>)[OrchKeyword.immutable]).toBe(
      true,
    );
    expect(VolumeAttachmentKind.subresources).toEqual({ status: true });
  });

  it('validates the source and node name', () => {
    expect(run(VolumeAttachmentSourceSchema, {}, 'spec.source')).toEqual([
      'spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
    ]);
    expect(
      run(VolumeAttachmentSourceSchema, { persistentVolumeName: 'pv', inlineVolumeSpec: {} }, 'spec.source'),
    ).toEqual([
      'spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
    ]);
    expect(run(VolumeAttachmentSourceSchema, { persistentVolumeName: '' }, 'spec.source')).toEqual([
      'spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName',
    ]);
    expect(run(VolumeAttachmentSpecSchema, { attacher: '', source: {}, nodeName: 'Node_1' }, 'spec')[0]).toBe(
      'spec.attacher: Required value',
    );
    expect(
      run(VolumeAttachmentSpecSchema, { attacher: '', source: {}, nodeName: 'Node_1' }, 'spec')[1],
    ).toMatch(/^spec.nodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain/);
  });

  it('prints NAME ATTACHER PV NODE ATTACHED AGE', () => {
    const va: VolumeAttachment = {
      metadata: meta('csi-123'),
      spec: { attacher: 'ebs.csi.aws.com', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' },
      status: { attached: true },
    };
    expect(VolumeAttachmentKind.columns!.map((c) => [c.name, c.cell(va, now)])).toEqual([
      ['Name', 'csi-123'],
      ['Attacher', 'ebs.csi.aws.com'],
      ['PV', 'pv-1'],
      ['Node', 'node-1'],
      ['Attached', true],
      ['Age', '5m'],
    ]);
    // Kubernetes gives the ATTACHER column the name format as well
    expect(VolumeAttachmentKind.columns!.map((c) => c.format ?? '')).toEqual([
      'name',
      'name',
      '',
      '',
      '',
      '',
    ]);
  });
});

describe('storage.k8s.io/v1 CSINode', () => {
  it('merges drivers by name and validates them', () => {
    const drivers = CSINodeSpecSchema.properties.drivers as unknown as Record<string, unknown>;
    expect(drivers['x-kubernetes-patch-merge-key']).toBe('name');
    expect(drivers['x-kubernetes-patch-strategy']).toBe('merge');
    expect(protos(CSINodeDriverSchema)).toEqual({ name: 1, nodeID: 2, topologyKeys: 3, allocatable: 4 });
    expect(
      run(
        CSINodeSpecSchema,
        {
          drivers: [
            { name: 'a.io', nodeID: 'n' },
            { name: 'a.io', nodeID: 'n' },
          ],
        },
        'spec',
      ),
    ).toEqual(['spec.drivers[1].name: Duplicate value: "a.io"']);
    expect(run(CSINodeDriverSchema, { name: 'a.io', nodeID: '', allocatable: { count: -1 } }, 'd')).toEqual([
      'd.nodeID: Required value',
      'd.allocatable.count: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('prints NAME DRIVERS AGE', () => {
    const node = { metadata: meta('node-1'), spec: { drivers: [{ name: 'a.io', nodeID: 'x' }] } };
    expect(CSINodeKind.columns!.map((c) => [c.name, c.cell(node, now)])).toEqual([
      ['Name', 'node-1'],
      ['Drivers', 1],
      ['Age', '5m'],
    ]);
  });
});
