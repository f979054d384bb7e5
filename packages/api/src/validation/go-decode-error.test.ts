import { DeploymentSchema } from '../kinds/apps/deployment';
import { ConfigMapSchema } from '../kinds/core/configmap';
import { SecretSchema } from '../kinds/core/secret';
import { goDecodeError } from './go-decode-error';

describe('goDecodeError', () => {
  it.each([
    // the innermost struct holding the field, the struct fields from the root, the Go type
    [
      DeploymentSchema,
      '/spec/replicas',
      'two',
      'string into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      DeploymentSchema,
      '/spec/replicas',
      1.5,
      'number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      DeploymentSchema,
      '/spec/paused',
      'yes',
      'string into Go struct field DeploymentSpec.spec.paused of type bool',
    ],
    [
      DeploymentSchema,
      '/metadata/name',
      5,
      'number into Go struct field ObjectMeta.metadata.name of type string',
    ],
    [
      DeploymentSchema,
      '/metadata',
      'x',
      'string into Go struct field Deployment.metadata of type v1.ObjectMeta',
    ],
    // list indices are not part of the path; an item of the wrong type is named by its list
    [
      DeploymentSchema,
      '/spec/template/spec/containers/0/env/1/value',
      8080,
      'number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string',
    ],
    [
      DeploymentSchema,
      '/spec/template/spec/containers',
      'web',
      'string into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container',
    ],
    [
      DeploymentSchema,
      '/spec/template/spec/containers/0',
      'web',
      'string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container',
    ],
    // map keys are not part of the path either
    [ConfigMapSchema, '/data/a', 1, 'number into Go struct field ConfigMap.data of type string'],
    [ConfigMapSchema, '/data', [], 'array into Go struct field ConfigMap.data of type map[string]string'],
    [SecretSchema, '/data/a', true, 'bool into Go struct field Secret.data of type []uint8'],
    [
      DeploymentSchema,
      '/spec/template/metadata/labels',
      'app',
      'string into Go struct field ObjectMeta.spec.template.metadata.labels of type map[string]string',
    ],
  ])('%#: %s at %s', (schema, pointer, value, message) => {
    expect(goDecodeError(schema, pointer, value)).toBe(`json: cannot unmarshal ${message}`);
  });

  it('gives no message where the declarations do not tell the Go type', () => {
    // a quantity and an int-or-string decode on their own terms
    expect(
      goDecodeError(DeploymentSchema, '/spec/template/spec/containers/0/resources/limits/cpu', true),
    ).toBeUndefined();
    expect(goDecodeError(DeploymentSchema, '/spec/strategy/rollingUpdate/maxSurge', true)).toBeUndefined();
    expect(goDecodeError(DeploymentSchema, '/spec/undeclared', 1)).toBeUndefined();
    expect(goDecodeError(DeploymentSchema, '', 1)).toBeUndefined();
  });
});
