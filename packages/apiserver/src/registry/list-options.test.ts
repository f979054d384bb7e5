import { StatusError } from '../errors/status-error';
import { parseListOptions } from './list-options';

function refusal(query: string): StatusError {
  try {
    parseListOptions(new URLSearchParams(query));
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error(`${query} was accepted`);
}

/** Kubernetes' 422 on ListOptions.meta.k8s.io, as ValidateListOptions' errors are answered. */
function expectInvalid(
  query: string,
  message: string,
  causes: { reason: string; message: string; field: string }[],
) {
  const e = refusal(query);
  expect(e.status).toMatchObject({
    code: 422,
    reason: 'Invalid',
    message: `ListOptions.meta.k8s.io "" is invalid: ${message}`,
    details: { group: 'meta.k8s.io', kind: 'ListOptions', causes },
  });
  expect(e.status.details).not.toHaveProperty('name');
}

const forbidden = (field: string, detail: string) => ({
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${detail}`,
  field,
});

describe('parseListOptions', () => {
  describe('a list (ValidateListOptions)', () => {
    it('forbids resourceVersionMatch without resourceVersion', () => {
      const detail = 'resourceVersionMatch is forbidden unless resourceVersion is provided';
      for (const match of ['Exact', 'NotOlderThan']) {
        expectInvalid(`resourceVersionMatch=${match}`, `resourceVersionMatch: Forbidden: ${detail}`, [
          forbidden('resourceVersionMatch', detail),
        ]);
      }
    });

    it('forbids Exact with resourceVersion "0"', () => {
      const detail = 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"';
      expectInvalid(
        'resourceVersionMatch=Exact&resourceVersion=0',
        `resourceVersionMatch: Forbidden: ${detail}`,
        [forbidden('resourceVersionMatch', detail)],
      );
    });

    it('names the supported values of resourceVersionMatch, the empty one too', () => {
      const body = 'Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""';
      expectInvalid('resourceVersionMatch=Bogus&resourceVersion=1', `resourceVersionMatch: ${body}`, [
        { reason: 'FieldValueNotSupported', message: body, field: 'resourceVersionMatch' },
      ]);
    });

    it('lists every error at once, in Kubernetes’ order', () => {
      const e = refusal('resourceVersionMatch=Bogus&continue=abc');
      expect(e.status.message).toBe(
        'ListOptions.meta.k8s.io "" is invalid: [' +
          'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, ' +
          'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided, ' +
          'resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""]',
      );
      expect(e.status.details?.causes).toHaveLength(3);
    });

    it('forbids sendInitialEvents, whatever its value', () => {
      for (const v of ['true', 'false', '']) {
        expectInvalid(
          `sendInitialEvents=${v}`,
          'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
          [forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list')],
        );
      }
    });

    it('checks the options before the resource version is read', () => {
      expect(refusal('resourceVersion=abc&resourceVersionMatch=Bogus').status.code).toBe(422);
      expect(refusal('resourceVersion=abc').status).toMatchObject({
        code: 400,
        reason: 'BadRequest',
        message: 'invalid resource version: "abc"',
      });
    });

    it('accepts a resourceVersionMatch with a resourceVersion', () => {
      const o = parseListOptions(new URLSearchParams('resourceVersionMatch=Exact&resourceVersion=5'));
      expect(o).toMatchObject({ resourceVersion: '5', resourceVersionMatch: 'Exact', watch: false });
      expect(parseListOptions(new URLSearchParams('resourceVersionMatch=&resourceVersion=0'))).toMatchObject({
        resourceVersion: '0',
      });
    });
  });

  describe('a watch (validateWatchOptions, the WatchList gate off)', () => {
    const gateOff = 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled';

    it('forbids resourceVersionMatch without sendInitialEvents', () => {
      const detail = 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided';
      expectInvalid(
        'watch=1&resourceVersionMatch=NotOlderThan',
        `resourceVersionMatch: Forbidden: ${detail}`,
        [forbidden('resourceVersionMatch', detail)],
      );
      const e = refusal('watch=1&resourceVersionMatch=Exact&resourceVersion=1');
      expect(e.status.message).toBe(
        `ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: ${detail}, ` +
          'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
      );
    });

    it('requires resourceVersionMatch=NotOlderThan with sendInitialEvents, and the WatchList gate', () => {
      const requires = 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan';
      const e = refusal('watch=1&sendInitialEvents=true');
      expect(e.status).toMatchObject({
        code: 422,
        reason: 'Invalid',
        message:
          `ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: ${requires}, ` +
          `sendInitialEvents: Forbidden: ${gateOff}]`,
        details: {
          kind: 'ListOptions',
          group: 'meta.k8s.io',
          causes: [forbidden('resourceVersionMatch', requires), forbidden('sendInitialEvents', gateOff)],
        },
      });
    });

    it('refuses a watch list while the WatchList gate is off', () => {
      expectInvalid(
        'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan',
        `sendInitialEvents: Forbidden: ${gateOff}`,
        [forbidden('sendInitialEvents', gateOff)],
      );
    });

    it('accepts a plain watch', () => {
      expect(parseListOptions(new URLSearchParams('watch=1&resourceVersion=3'))).toMatchObject({
        watch: true,
        resourceVersion: '3',
      });
    });
  });

  it('prefixes a label selector error once, as Kubernetes’ parser does', () => {
    expect(refusal('labelSelector=!!').status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: "unable to parse requirement: found '!', expected: identifier",
    });
    expect(refusal('labelSelector=x%20y').status.message).toBe(
      "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt",
    );
  });
});
