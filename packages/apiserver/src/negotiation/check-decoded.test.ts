import { StatusError } from '../errors/status-error';
import { checkDecoded, MAX_NESTING_DEPTH } from './check-decoded';

/** `levels` objects nested in one another, as JSON text (JSON.stringify recurses). */
function nestedText(levels: number, leaf = '"x"'): string {
  return '{"a":'.repeat(levels - 1) + `{"a":${leaf}}` + '}'.repeat(levels - 1);
}

function refusal(value: unknown): { code: number; reason: string; message: string } | undefined {
  try {
    checkDecoded(value, 'request body');
    return undefined;
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    return { code: e.status.code ?? 0, reason: e.status.reason ?? '', message: e.status.message ?? '' };
  }
}

describe('checkDecoded', () => {
  it(`accepts ${MAX_NESTING_DEPTH} levels of objects and lists and refuses one more with 400`, () => {
    expect(refusal(JSON.parse(nestedText(MAX_NESTING_DEPTH)))).toBeUndefined();
    const lists = '['.repeat(MAX_NESTING_DEPTH) + ']'.repeat(MAX_NESTING_DEPTH);
    expect(refusal(JSON.parse(lists))).toBeUndefined();
    expect(refusal(JSON.parse(nestedText(MAX_NESTING_DEPTH + 1)))).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: `error decoding request body: exceeded max depth: objects and lists nest more than ${MAX_NESTING_DEPTH} levels`,
    });
    expect(refusal(JSON.parse(`[${lists}]`))?.code).toBe(400);
  });

  it('walks any depth without running out of stack', () => {
    expect(refusal(JSON.parse(nestedText(200_000)))?.code).toBe(400);
  });

  it('accepts every integer held exactly and any finite fraction; refuses the rest with its path', () => {
    for (const n of [0, -1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1.5, 1.5e300, -2.5e-300]) {
      expect(refusal({ spec: { n } })).toBeUndefined();
    }
    const int64 = JSON.parse('{"spec":{"terminationGracePeriodSeconds":9223372036854775807}}');
    expect(refusal(int64)).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: `error decoding request body: spec.terminationGracePeriodSeconds: number out of range: integers must be between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
    });
    // a float written with digits only cannot be told from a rounded integer; with an exponent it can
    expect(refusal({ spec: { n: 1e20 } })?.code).toBe(400);
    expect(refusal({ spec: { n: 1e21 } })).toBeUndefined();
    // 2^53 + 1 is read as 2^53: already not the number sent
    expect(refusal(JSON.parse('{"items":[1,{"n":-9007199254740993}]}'))?.message).toContain(
      'items[1].n: number',
    );
    expect(refusal(JSON.parse('{"x":1e400}'))?.message).toContain('x: number out of range');
  });

  it('refuses a __proto__ key, which a JavaScript object cannot keep as data', () => {
    const body = JSON.parse('{"data":{"a":"1","__proto__":"keep me"}}');
    expect(Object.keys(body.data)).toEqual(['a', '__proto__']);
    expect(refusal(body)).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'error decoding request body: data.__proto__: the key "__proto__" is not supported',
    });
    expect(refusal({ data: { proto: 'x', constructor: 'y', prototype: 'z' } })).toBeUndefined();
  });
});
