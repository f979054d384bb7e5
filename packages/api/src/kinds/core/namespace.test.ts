import { errorMessage } from '../../validation/field-error';
import { compileKind } from '../../validation/compile-kind';
import { NamespaceKind } from './namespace';

// The checks the API server runs on a create: a namespace's name is an RFC 1123 label
// (ValidateNamespace with ValidateNamespaceName), where most kinds take a subdomain.
const compiled = compileKind(NamespaceKind);
const create = (metadata: Record<string, unknown>): string[] =>
  compiled.validate({ apiVersion: 'v1', kind: 'Namespace', metadata }).map(errorMessage);

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('Namespace name (ValidateNamespaceName)', () => {
  it('declares the RFC 1123 label rule', () => {
    expect(NamespaceKind.nameValidation?.('a.b', false)).not.toEqual([]);
    expect(NamespaceKind.nameValidation?.('team-a', false)).toEqual([]);
  });

  it('accepts labels up to 63 characters', () => {
    expect(create({ name: 'team-a' })).toEqual([]);
    expect(create({ name: '123-abc' })).toEqual([]);
    expect(create({ name: 'a'.repeat(63) })).toEqual([]);
  });

  it('rejects a name with dots, which a subdomain would allow', () => {
    // apimachinery's IsDNS1123Label: a valid subdomain that is not a label can only have dots.
    expect(create({ name: 'a.b' })).toEqual(['metadata.name: Invalid value: "a.b": must not contain dots']);
  });

  it('rejects a name longer than 63 characters', () => {
    const long = 'a'.repeat(64);
    expect(create({ name: long })).toEqual([
      `metadata.name: Invalid value: "${long}": must be no more than 63 characters`,
    ]);
  });

  it('rejects other non-label names with the label message', () => {
    expect(create({ name: 'Team_A' })).toEqual([`metadata.name: Invalid value: "Team_A": ${LABEL_MSG}`]);
    expect(create({ name: '-a' })).toEqual([`metadata.name: Invalid value: "-a": ${LABEL_MSG}`]);
  });

  it('checks generateName as a label prefix', () => {
    expect(create({ generateName: 'team-' })).toEqual([]);
    expect(create({ generateName: 'a.b-' })).toEqual([
      'metadata.generateName: Invalid value: "a.b-": must not contain dots',
    ]);
  });
});
