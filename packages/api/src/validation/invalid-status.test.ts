import { invalid, required } from './field-error';
import { invalidStatus } from './invalid-status';

describe('invalidStatus', () => {
  it("builds Kubernetes' Invalid status for a grouped kind", () => {
    const status = invalidStatus('Deployment', 'apps', 'web', [
      invalid('spec.replicas', -1, 'must be greater than or equal to 0'),
    ]);
    expect(JSON.stringify(status)).toBe(
      JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        reason: 'Invalid',
        details: {
          name: 'web',
          group: 'apps',
          kind: 'Deployment',
          causes: [
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: -1: must be greater than or equal to 0',
              field: 'spec.replicas',
            },
          ],
        },
        code: 422,
      }),
    );
  });

  it('omits the core group and aggregates several errors, each message once', () => {
    const errs = [
      required('spec.containers[0].name'),
      invalid('metadata.labels', 'a b', 'bad'),
      invalid('metadata.labels', 'a b', 'bad'),
    ];
    const status = invalidStatus('Pod', '', 'p', errs);
    expect(status.message).toBe(
      'Pod "p" is invalid: [spec.containers[0].name: Required value, metadata.labels: Invalid value: "a b": bad]',
    );
    expect(status.details).toEqual({
      name: 'p',
      kind: 'Pod',
      causes: [
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].name' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "a b": bad', field: 'metadata.labels' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "a b": bad', field: 'metadata.labels' },
      ],
    });
  });
});
