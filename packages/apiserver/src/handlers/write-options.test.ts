import { StatusError } from '../errors/status-error';
import { parseFieldValidation, writeOptionsKind } from './write-options';

const query = (v: string) => new URLSearchParams({ fieldValidation: v });

function refusal(v: string, kind: string): StatusError {
  try {
    parseFieldValidation(query(v), kind);
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error(`${v} was accepted`);
}

describe('parseFieldValidation', () => {
  it('reads the three directives, and an absent or empty one as Warn', () => {
    expect(parseFieldValidation(new URLSearchParams(), 'CreateOptions')).toBe('Warn');
    expect(parseFieldValidation(query(''), 'CreateOptions')).toBe('Warn');
    for (const v of ['Ignore', 'Warn', 'Strict'] as const) {
      expect(parseFieldValidation(query(v), 'PatchOptions')).toBe(v);
    }
  });

  it.each([
    ['Bogus', 'CreateOptions'],
    ['strict', 'UpdateOptions'],
    ['WARN', 'PatchOptions'],
  ])('answers %s with Kubernetes’ 422 on %s', (v, kind) => {
    const body = `Unsupported value: "${v}": supported values: "", "Ignore", "Strict", "Warn"`;
    expect(refusal(v, kind).status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `${kind}.meta.k8s.io "" is invalid: fieldValidation: ${body}`,
      reason: 'Invalid',
      details: {
        group: 'meta.k8s.io',
        kind,
        causes: [{ reason: 'FieldValueNotSupported', message: body, field: 'fieldValidation' }],
      },
      code: 422,
    });
  });

  it('does not look at the parameter where no options kind carries it', () => {
    expect(parseFieldValidation(query('Bogus'))).toBe('Warn');
  });
});

describe('writeOptionsKind', () => {
  it('follows the verb', () => {
    expect(writeOptionsKind('create')).toBe('CreateOptions');
    expect(writeOptionsKind('update')).toBe('UpdateOptions');
    expect(writeOptionsKind('patch')).toBe('PatchOptions');
    expect(writeOptionsKind('delete')).toBeUndefined();
    expect(writeOptionsKind('get')).toBeUndefined();
  });
});
