import { hasStatusCause, StatusError } from './StatusError';

test('hasStatusCause finds a cause by its reason in the Status details', () => {
  const terminating = new StatusError({
    code: 403,
    reason: 'Forbidden',
    message: 'unable to create new content in namespace x because it is being terminated',
    details: { causes: [{ reason: 'NamespaceTerminating', message: 'namespace x is being terminated' }] },
  });
  expect(hasStatusCause(terminating, 'NamespaceTerminating')).toBe(true);
  expect(hasStatusCause(terminating, 'FieldValueRequired')).toBe(false);
  expect(hasStatusCause(new StatusError({ code: 403, reason: 'Forbidden' }), 'NamespaceTerminating')).toBe(
    false,
  );
  expect(hasStatusCause(new Error('NamespaceTerminating'), 'NamespaceTerminating')).toBe(false);
});
