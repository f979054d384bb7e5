import https from 'node:https';
import { MAX_NESTING_DEPTH } from '../negotiation/check-decoded';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';

/** Mulberry32: a small deterministic PRNG, so every run sends the same requests. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface BadRequest {
  label: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** The answer must be a 4xx (otherwise it only must not be a 5xx: Kubernetes accepts the input). */
  mustFail: boolean;
}

const cms = '/api/v1/namespaces/default/configmaps';
const deploys = '/apis/apps/v1/namespaces/default/deployments';
const json = { 'Content-Type': 'application/json' };
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };
const jsonPatch = { 'Content-Type': 'application/json-patch+json' };
const strategic = { 'Content-Type': 'application/strategic-merge-patch+json' };
const applyYAML = { 'Content-Type': 'application/apply-patch+yaml' };

function generate(count: number, seed: number): BadRequest[] {
  const rnd = prng(seed);
  const int = (n: number): number => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const word = (n: number): string =>
    Array.from({ length: n }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[int(36)]).join('');
  const bytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, () => int(256)));
  const body = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));
  /** Deeply nested JSON text (built as text: JSON.stringify itself overflows at these depths). */
  const nested = (depth: number): string => {
    let open = '';
    let close = '';
    for (let i = 0; i < depth; i++) {
      const obj = int(2) === 1;
      open += obj ? '{"a":' : '[';
      close = (obj ? '}' : ']') + close;
    }
    return `${open}"x"${close}`;
  };

  const validCM = () => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${word(6)}`, labels: { a: word(3) } },
    data: { [word(4)]: word(10) },
  });
  const wrongTypes: (() => unknown)[] = [
    () => ({ ...validCM(), metadata: int(1000) }),
    () => ({ ...validCM(), metadata: { name: int(1000) } }),
    () => ({ ...validCM(), metadata: { name: word(5), labels: word(3) } }),
    () => ({ ...validCM(), metadata: { name: word(5), labels: { a: int(9) } } }),
    () => ({ ...validCM(), data: [word(3)] }),
    () => ({ ...validCM(), data: { k: int(9) } }),
    () => ({ ...validCM(), data: { k: { nested: true } } }),
    () => ({ ...validCM(), binaryData: { k: 'not base64 !!!' } }),
    () => ({ ...validCM(), apiVersion: int(9) }),
    () => ({ ...validCM(), kind: [word(3)] }),
    () => ({ ...validCM(), kind: 'Secret' }),
    () => ({ ...validCM(), apiVersion: 'v2' }),
    () => ({ ...validCM(), metadata: { name: word(5), namespace: 'other' } }),
    () => ({ ...validCM(), immutable: 'yes' }),
    () => [validCM()],
    () => word(8),
    () => int(100),
    () => null,
  ];
  const hugeNumbers = ['1e400', '123456789012345678901234567890', '-99999999999999999999', '1.5', 'NaN'];
  const invalidUTF8 = (): Buffer =>
    Buffer.concat([
      Buffer.from('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, int(256)]),
      Buffer.from('"}}'),
    ]);
  const yamlBomb = (): Buffer => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(97 + i - 1);
      const cur = String.fromCharCode(97 + i);
      lines.push(
        `${cur}: &${cur} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`,
      );
    }
    lines.push('kind: ConfigMap', 'apiVersion: v1', 'metadata: {name: bomb}', 'data: {x: *j}');
    return Buffer.from(lines.join('\n'));
  };
  const selectors = [
    '=b',
    'a in (',
    'a notin b',
    '!',
    'a==b==c',
    'a,,b',
    '(a)',
    'a in (b,',
    'a=b c',
    '!!a',

    '%%%',
    'x=' + 'y'.repeat(100),
  ];
  const fieldSelectors = [
    'metadata.name',

    '=x',
    'spec.unknown=x',
    'a in (b)',
    'status.phase=Running,=',
    '!metadata.name',
  ];
  const categories: (() => BadRequest)[] = [
    // truncated JSON
    () => {
      const text = JSON.stringify(validCM());
      return {
        label: 'truncated',
        method: 'POST',
        path: cms,
        headers: json,
        body: Buffer.from(text.slice(0, 1 + int(text.length - 2))),
        mustFail: true,
      };
    },
    // wrong types
    () => ({
      label: 'wrong-type',
      method: pick(['POST', 'PUT']),
      path: cms + (int(2) ? '' : '/existing'),
      headers: json,
      body: body(pick(wrongTypes)()),
      mustFail: true,
    }),
    // huge numbers in typed places
    () => {
      const n = pick(hugeNumbers);
      const text = pick([
        `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d${word(4)}"},"spec":{"replicas":${n},"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`,
        `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c${word(4)}","generation":${n}},"data":{"a":${n}}}`,
      ]);
      const path = text.includes('Deployment') ? deploys : cms;
      return {
        label: 'huge-number',
        method: 'POST',
        path,
        headers: json,
        body: Buffer.from(text),
        mustFail: true,
      };
    },
    // deep nesting where a string map is expected
    () => ({
      label: 'deep',
      method: 'POST',
      path: cms,
      headers: json,
      body: Buffer.from(
        `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${word(5)}","labels":${nested(100 + int(5000))}}}`,
      ),
      mustFail: true,
    }),
    () => {
      const depth = 1000 + int(20000);
      const text = '['.repeat(depth) + ']'.repeat(int(2) ? depth : int(depth));
      return {
        label: 'deep-raw',
        method: 'POST',
        path: cms,
        headers: json,
        body: Buffer.from(text),
        mustFail: true,
      };
    },
    // invalid UTF-8
    () => ({ label: 'utf8', method: 'POST', path: cms, headers: json, body: invalidUTF8(), mustFail: true }),
    // YAML bombs and broken YAML
    () => ({
      label: 'yaml-bomb',
      method: 'POST',
      path: cms,
      headers: { 'Content-Type': 'application/yaml' },
      body: yamlBomb(),
      mustFail: true,
    }),
    () => ({
      label: 'yaml-broken',
      method: 'POST',
      path: cms,
      headers: { 'Content-Type': pick(['application/yaml', 'application/x-yaml']) },
      body: Buffer.from(pick(['a: [', '{{{', 'a: b: c', '- - -\n  x', ': :', '*unknown'])),
      mustFail: true,
    }),
    // protobuf garbage, with and without the magic prefix
    () => ({
      label: 'protobuf',
      method: 'POST',
      path: cms,
      headers: {
        'Content-Type': pick(['application/vnd.kubernetes.protobuf', 'application/vnd.orch.protobuf']),
      },
      body: int(2)
        ? Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), bytes(int(64))])
        : bytes(1 + int(64)),
      mustFail: true,
    }),
    // JSON patches on missing paths and malformed patch documents
    () => ({
      label: 'json-patch',
      method: 'PATCH',
      path: `${cms}/existing`,
      headers: jsonPatch,
      body: body(
        pick<unknown>([
          [{ op: 'replace', path: `/data/${word(5)}/x`, value: 'v' }],
          [{ op: 'remove', path: `/spec/${word(4)}` }],
          [{ op: 'move', from: `/missing/${word(3)}`, path: '/data/x' }],
          [{ op: 'test', path: '/data', value: word(3) }],
          [{ op: 'explode', path: '/data' }],
          [{ op: 'add' }],
          { op: 'add', path: '/data/x', value: 'y' },
          [{ op: 'copy', from: '/nowhere', path: '/data/y' }],
          [{ op: 'add', path: '/data/' + word(3), value: { not: 'a string' } }],
        ]),
      ),
      mustFail: true,
    }),
    // merge patches with nulls everywhere a deployment needs a value
    () => ({
      label: 'merge-nulls',
      method: 'PATCH',
      path: `${deploys}/existing`,
      headers: mergePatch,
      body: body(
        pick<unknown>([
          { spec: { selector: null, template: null } },
          { spec: { template: { spec: { containers: null } } } },
          { spec: { template: { metadata: { labels: null } } } },
          { spec: { template: { spec: { containers: [{ name: null, image: null }] } } } },
          { spec: { replicas: 'three' } },
          [null],
          'null-ish',
        ]),
      ),
      mustFail: true,
    }),
    // strategic merge patches with bad directives
    () => ({
      label: 'strategic',
      method: 'PATCH',
      path: `${deploys}/existing`,
      headers: strategic,
      body: body(
        pick<unknown>([
          { $patch: 'explode' },
          { spec: { template: { spec: { containers: [{ $patch: 'bogus', name: 'c' }] } } } },
          { spec: { template: { spec: { $setElementOrder: 5, containers: 'x' } } } },
          { spec: { template: { spec: { '$setElementOrder/containers': 5 } } } },
          { spec: { $retainKeys: 'notalist' } },
        ]),
      ),
      mustFail: true,
    }),
    // paths
    () => ({
      label: 'path',
      method: pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']),
      path: pick([
        `/apis/${word(6)}.example.com/v1/${word(5)}`,
        `/apis/apps/v${int(99) + 2}/deployments`,
        `/api/v${int(99) + 2}/pods`,
        `/api/v1/${word(7)}`,
        `/api/v1/namespaces/default/${word(7)}/x`,
        `/apis/apps/v1/namespaces/default/deployments/existing/${word(5)}`,
        `/api/v1/namespaces/default/configmaps/a%2F..%2F..%2Fsecrets`,
        `/api/v1/namespaces/default/configmaps/${word(5)}%2F${word(3)}`,
        `/api/v1/namespaces/default/configmaps/${'n'.repeat(254 + int(2000))}`,
        `/api/v1/namespaces/default/configmaps/${pick(['Foo_Bar', 'a b', 'ä', '-x-', 'x.', '%00', '%ff%fe'])}`,
        `/api/v1/namespaces/${word(3)}%2F${word(3)}/configmaps/x`,
        `/api/v1/namespaces/default/configmaps/existing/status`,
        `/apis/${word(4)}`,
        `/apis/apps/v1/namespaces/default/deployments/..%2F..%2F..%2Fversion`,
        `/${word(6)}/${word(3)}`,
      ]),
      mustFail: true,
    }),
    // names with invalid characters and very long names in bodies
    () => ({
      label: 'bad-name',
      method: 'POST',
      path: cms,
      headers: json,
      body: body({
        ...validCM(),
        metadata: {
          name: pick(['Foo_Bar', 'a b', '..', '.', 'x/y', '-a', 'a-', 'n'.repeat(254 + int(1000)), '', 'ü']),
        },
      }),
      mustFail: true,
    }),
    // query parameters with invalid values
    () => {
      const [method, path, param] = pick<[string, string, string]>([
        ['GET', cms, `resourceVersion=${pick(['abc', '-5', '1.5', '0x10', '%20'])}`],
        ['GET', cms, `limit=${pick(['-1', 'x', '1.5', '1e3'])}`],
        [
          'GET',
          cms,
          `continue=${pick([word(12), 'eyJmb28iOiJiYXIifQ', '%%%', Buffer.from('{"v":"x"}').toString('base64')])}`,
        ],
        ['GET', cms, `timeoutSeconds=${pick(['x', '-1', '1.5e'])}`],
        ['GET', cms, `watch=true&timeoutSeconds=${pick(['x', 'abc'])}`],
        ['GET', cms, `labelSelector=${encodeURIComponent(pick(selectors))}`],
        ['GET', cms, `fieldSelector=${encodeURIComponent(pick(fieldSelectors))}`],
        ['GET', cms, `resourceVersionMatch=${pick(['Exact', 'NotOlderThan', 'Bogus'])}`],
        ['POST', cms, `dryRun=${pick(['Maybe', 'all', 'None', ''])}`],
        ['POST', cms, `fieldValidation=${pick(['Loud', 'strict', 'x'])}`],
        ['POST', cms, `fieldManager=${'m'.repeat(129 + int(100))}`],
        ['POST', cms, `fieldManager=${encodeURIComponent('bad\u0001manager')}`],
        ['PATCH', `${cms}/existing`, 'force=true'],
        ['DELETE', `${cms}/existing`, `propagationPolicy=${pick(['Bad', 'orphan', 'All'])}`],
        ['DELETE', `${cms}/existing`, `gracePeriodSeconds=${pick(['x', '1.5', 'ten'])}`],
        ['DELETE', `${cms}/existing`, 'orphanDependents=true&propagationPolicy=Background'],
        ['DELETE', `${cms}/existing`, `dryRun=${pick(['Maybe', 'yes'])}`],
        ['DELETE', cms, `propagationPolicy=${pick(['Bad', 'None'])}`],
        ['PUT', `${cms}/existing`, `dryRun=${pick(['Maybe', 'true'])}`],
      ]);
      const hasBody = method === 'POST' || method === 'PATCH' || method === 'PUT';
      const headers = method === 'PATCH' ? mergePatch : json;
      return {
        label: 'query',
        method,
        path: `${path}?${param}`,
        headers: hasBody ? headers : {},
        body: hasBody
          ? body(
              method === 'POST'
                ? validCM()
                : method === 'PUT'
                  ? { ...validCM(), metadata: { name: 'existing' } }
                  : { data: { x: 'y' } },
            )
          : undefined,
        mustFail: true,
      };
    },
    // values Kubernetes accepts: pretty and watch read anything but false words as true, and a
    // watch ignores limit and continue; they must be answered, never with a 5xx
    () => ({
      label: 'lenient',
      method: 'GET',
      path: `${cms}?${pick([
        `pretty=${pick(['maybe', 'x', '1'])}`,
        `timeoutSeconds=1&watch=${pick(['maybe', '2', 'yes'])}`,
        `timeoutSeconds=1&watch=true&limit=5&continue=${word(5)}`,
      ])}`,
      mustFail: false,
    }),
    // content types: unknown, missing with a non-JSON body, mismatched
    () => ({
      label: 'content-type',
      method: pick(['POST', 'PUT']),
      path: pick([cms, `${cms}/existing`]),
      headers: pick<Record<string, string>>([
        { 'Content-Type': 'application/xml' },
        { 'Content-Type': 'text/plain' },
        { 'Content-Type': 'multipart/form-data; boundary=x' },
        { 'Content-Type': 'application/vnd.kubernetes.protobuf' },
        { 'Content-Type': '' },
        { 'Content-Type': '///' },
        {},
      ]),
      body: Buffer.from(pick(['<ConfigMap/>', 'name=x', '\u0000\u0001', 'not json at all'])),
      mustFail: true,
    }),
    () => ({
      label: 'patch-type',
      method: 'PATCH',
      path: `${cms}/existing`,
      headers: pick<Record<string, string>>([
        { 'Content-Type': 'application/json' },
        { 'Content-Type': 'text/plain' },
        {},
        { 'Content-Type': 'application/yaml' },
      ]),
      body: body({ data: { x: 'y' } }),
      mustFail: true,
    }),
    () => ({
      label: 'accept',
      method: 'GET',
      path: pick([cms, `${cms}/existing`]),
      headers: {
        Accept: pick([
          'application/xml',
          'text/html',
          'image/png',
          'application/json;as=Bogus;g=meta.k8s.io;v=v1',
        ]),
      },
      mustFail: true,
    }),
  ];
  const out: BadRequest[] = [];
  while (out.length < count) out.push(pick(categories)());
  return out;
}

describe('malformed requests', () => {
  let s: TestAPIServer;
  let agent: https.Agent;

  const send = (r: BadRequest): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...(r.headers ?? {}) };
      if (r.body) headers['Content-Length'] = String(r.body.length);
      if (headers['Content-Type'] === '') delete headers['Content-Type'];
      // host, port and path given apart: the path goes out exactly as generated (a URL would resolve '..')
      const { hostname, port } = new URL(s.url);
      const path = r.path.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
      const req = https.request(
        { hostname, port, path, method: r.method, headers, ca: s.ca, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      // an answer that never comes (a hang, a watch left open) fails the request
      req.setTimeout(10_000, () => req.destroy(new Error(`no answer within 10 s`)));
      req.on('error', reject);
      req.end(r.body);
    });

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
    agent = new https.Agent({ keepAlive: true, maxSockets: 32 });
    const cm = await send({
      label: '',
      method: 'POST',
      path: cms,
      headers: json,
      body: Buffer.from(JSON.stringify({ metadata: { name: 'existing' }, data: { a: 'b' } })),
      mustFail: false,
    });
    expect(cm.status).toBe(201);
    const deploy = {
      metadata: { name: 'existing' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    };
    const d = await send({
      label: '',
      method: 'POST',
      path: deploys,
      headers: json,
      body: Buffer.from(JSON.stringify(deploy)),
      mustFail: false,
    });
    expect(d.status).toBe(201);
  });
  afterAll(async () => {
    agent.destroy();
    await s.close();
  });

  it('answers 10,000 generated malformed requests with 4xx Status bodies, never a 5xx', async () => {
    const requests = generate(Number(process.env.BAD_INPUT_COUNT ?? 10_000), 20261123);
    const failures: string[] = [];
    const byLabel = new Map<string, Map<number, number>>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < requests.length) {
        const r = requests[next++]!;
        let res;
        try {
          res = await send(r);
        } catch (e) {
          failures.push(`${r.label} ${r.method} ${r.path.slice(0, 160)}: ${(e as Error).message}`);
          continue;
        }
        const counts = byLabel.get(r.label) ?? new Map<number, number>();
        counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
        byLabel.set(r.label, counts);
        const text = res.body.toString('utf8');
        const describe = `${r.label} ${r.method} ${r.path.slice(0, 160)} ${r.body?.subarray(0, 120).toString() ?? ''} -> ${res.status} ${text.slice(0, 200)}`;
        if (res.status >= 500) failures.push(describe);
        else if (r.mustFail && (res.status < 400 || res.status >= 500)) failures.push(describe);
        if (/\n\s+at .+:\d+:\d+\)?/.test(text)) failures.push(`stack trace: ${describe}`);
        if (res.status >= 400) {
          let status: any;
          try {
            status = JSON.parse(text);
          } catch {
            failures.push(`not JSON: ${describe}`);
            continue;
          }
          if (
            status.kind !== 'Status' ||
            status.apiVersion !== 'v1' ||
            status.status !== 'Failure' ||
            !status.reason ||
            status.code !== res.status
          )
            failures.push(`not a Status: ${describe}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    if (failures.length) {
      const summary = [...byLabel].map(([l, c]) => `${l}: ${[...c].map(([k, v]) => `${k}×${v}`).join(' ')}`);
      throw new Error(
        `${failures.length} bad answers; first:\n${[...new Set(failures)].slice(0, 40).join('\n')}\n\n${summary.join('\n')}`,
      );
    }
    const ready = await send({ label: '', method: 'GET', path: '/readyz', mustFail: false });
    expect(ready.status).toBe(200);
  }, 120_000);

  it('refuses bodies over 3 MiB with 413 and keeps serving', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 1 + 1000, 'a');
    for (const [method, path, headers] of [
      ['POST', cms, json],
      ['PUT', `${cms}/existing`, json],
      ['PATCH', `${cms}/existing`, mergePatch],
    ] as const) {
      const res = await send({ label: 'oversize', method, path, headers, body: big, mustFail: true });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body.toString())).toMatchObject({
        kind: 'Status',
        reason: 'RequestEntityTooLarge',
        code: 413,
      });
    }
    const ready = await send({ label: '', method: 'GET', path: '/readyz', mustFail: false });
    expect(ready.status).toBe(200);
  });

  // Malformed input found by the generated requests, each with Kubernetes' answer.
  describe('malformed input found by generation', () => {
    const expect4xx = async (r: Omit<BadRequest, 'label' | 'mustFail'>, code: number): Promise<void> => {
      const res = await send({ ...r, label: 'known', mustFail: true });
      expect(res.status).toBe(code);
      expect(JSON.parse(res.body.toString()).code).toBe(code);
    };

    // a value past Number.MAX_SAFE_INTEGER is refused before it reaches storage
    it('limit beyond int64 answers 400', () =>
      expect4xx({ method: 'GET', path: `${cms}?limit=99999999999999999999` }, 400));

    // Kubernetes' fields.ParseSelector skips empty terms ("a!=b," is "a!=b"; "," is everything), so
    // the apiserver answers these lists with 200, applying the terms that are there.
    it('a field selector with an empty term is the selector without it, as in Kubernetes', async () => {
      for (const selector of ['metadata.name!=existing,', ',', 'metadata.name=existing,,']) {
        const res = await send({
          label: 'known',
          method: 'GET',
          path: `${cms}?fieldSelector=${encodeURIComponent(selector)}`,
          mustFail: false,
        });
        expect(res.status).toBe(200);
        const names = (JSON.parse(res.body.toString()).items as { metadata: { name: string } }[]).map(
          (i) => i.metadata.name,
        );
        expect(names.includes('existing')).toBe(!selector.startsWith('metadata.name!='));
      }
    });

    // a non-string name is a 400 decode error
    it('a JSON patch that sets metadata.name to a number answers 400', () =>
      expect4xx(
        {
          method: 'PATCH',
          path: `${cms}/existing`,
          headers: jsonPatch,
          body: Buffer.from('[{"op":"replace","path":"/metadata/name","value":0}]'),
        },
        400,
      ));

    // @orch/api apps/v1 Deployment validation: a deployment without spec must fail (spec.selector: Required value, template labels, containers)
    it('a merge patch removing a deployment spec answers 422', () =>
      expect4xx(
        {
          method: 'PATCH',
          path: `${deploys}/existing`,
          headers: mergePatch,
          body: Buffer.from('{"spec":null}'),
        },
        422,
      ));

    // the stored form is measured before it reaches storage
    it('an object whose stored form exceeds 1.5 MiB answers 413', () =>
      expect4xx(
        {
          method: 'POST',
          path: cms,
          headers: json,
          // A ConfigMap's values may total 1 MiB at most (422 beyond); its keys are not counted, so
          // 8000 keys of 250 characters with empty values pass validation and weigh about 2 MB.
          body: Buffer.from(
            JSON.stringify({
              metadata: { name: 'big' },
              data: Object.fromEntries(
                Array.from({ length: 8000 }, (_, i) => [String(i).padStart(250, 'k'), '']),
              ),
            }),
          ),
        },
        413,
      ));

    // what the server could not hold as sent is refused with 400, for every way a body comes in,
    // and the stored object is left as it was (see checkDecoded)
    it('a body nested past the depth limit, a rounded int64 or a __proto__ key answers 400 and changes nothing', async () => {
      const before = (await send({ label: '', method: 'GET', path: `${cms}/existing`, mustFail: false }))
        .body;
      const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
      const bodies: [Record<string, string>, string, string][] = [
        [mergePatch, `{"x":${deep(MAX_NESTING_DEPTH)}}`, 'exceeded max depth'],
        [strategic, `{"x":${deep(MAX_NESTING_DEPTH)}}`, 'exceeded max depth'],
        [jsonPatch, `[{"op":"add","path":"/x","value":${deep(MAX_NESTING_DEPTH)}}]`, 'exceeded max depth'],
        [applyYAML, `{"apiVersion":"v1","kind":"ConfigMap","x":${deep(100_000)}}`, 'exceeded max depth'],
        [
          mergePatch,
          '{"data":{"__proto__":"keep me"}}',
          'data.__proto__: the key "__proto__" is not supported',
        ],
        [
          mergePatch,
          '{"metadata":{"generation":9223372036854775807}}',
          'metadata.generation: number out of range',
        ],
      ];
      for (const [headers, body, message] of bodies) {
        const res = await send({
          label: 'known',
          method: 'PATCH',
          path: `${cms}/existing?fieldManager=bad-input`,
          headers,
          body: Buffer.from(body),
          mustFail: true,
        });
        expect([headers['Content-Type'], res.status]).toEqual([headers['Content-Type'], 400]);
        expect(JSON.parse(res.body.toString())).toMatchObject({ reason: 'BadRequest' });
        expect(JSON.parse(res.body.toString()).message).toContain(message);
      }
      for (const body of [
        `{"metadata":{"name":"deep"},"x":${deep(MAX_NESTING_DEPTH)}}`,
        '{"metadata":{"name":"proto"},"data":{"__proto__":"keep me"}}',
      ]) {
        const res = await send({
          label: 'known',
          method: 'POST',
          path: cms,
          headers: json,
          body: Buffer.from(body),
          mustFail: true,
        });
        expect(res.status).toBe(400);
      }
      const deployment = {
        metadata: { name: 'int64' },
        spec: {
          replicas: 1,
          revisionHistoryLimit: '@',
          selector: { matchLabels: { a: 'b' } },
          template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
        },
      };
      const int64 = await send({
        label: 'known',
        method: 'POST',
        path: deploys,
        headers: json,
        body: Buffer.from(JSON.stringify(deployment).replace('"@"', '9007199254740993')),
        mustFail: true,
      });
      expect(int64.status).toBe(400);
      expect(JSON.parse(int64.body.toString()).message).toContain(
        'spec.revisionHistoryLimit: number out of range',
      );
      const after = (await send({ label: '', method: 'GET', path: `${cms}/existing`, mustFail: false })).body;
      expect(after.toString()).toBe(before.toString());
    });

    // Kubernetes parses the Content-Type (mime.ParseMediaType): what is no media type is unknown
    it('a Content-Type that is no media type answers 415', () =>
      expect4xx(
        {
          method: 'POST',
          path: cms,
          headers: { 'Content-Type': ';;;=' },
          body: Buffer.from('{"metadata":{"name":"typeless"}}'),
        },
        415,
      ));

    // a body that is no JSON (or no object) is named as Kubernetes' decoder names it, and nothing is
    // written: for a create or update with the kind it was to be and the start of the body
    it('a body that is not JSON answers 400 in the decoder words, and nothing changes', async () => {
      const before = (await send({ label: '', method: 'GET', path: `${cms}/existing`, mustFail: false }))
        .body;
      const unrecognized = 'the object provided is unrecognized (must be of type ConfigMap): ';
      const cases: [string, string, Record<string, string>, string, string][] = [
        [
          'POST',
          cms,
          json,
          '{"apiVersion":',
          `${unrecognized}couldn't get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":)`,
        ],
        [
          'POST',
          cms,
          json,
          '',
          `${unrecognized}couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)`,
        ],
        [
          'POST',
          cms,
          json,
          'xyz',
          `${unrecognized}couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value (78797a)`,
        ],
        [
          'PUT',
          `${cms}/existing`,
          json,
          '{"metadata":{"name":"existing"},"data":{"a":"c"} x}',
          `${unrecognized}couldn't get version/kind; json parse error: invalid character 'x' after object key:value pair ({"metadata":{"name":"existing" ...)`,
        ],
        [
          'PUT',
          `${cms}/existing`,
          json,
          '[1,2]',
          `${unrecognized}couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b312c325d)`,
        ],
        [
          'POST',
          cms,
          { 'Content-Type': 'application/yaml' },
          'a: b: c',
          `${unrecognized}error converting YAML to JSON: yaml: Nested mappings are not allowed in compact mappings at line 1, column 4 (613a20623a2063)`,
        ],
        ['PATCH', `${cms}/existing`, mergePatch, '{"data":', 'Invalid JSON Patch'],
        ['PATCH', `${cms}/existing`, strategic, '{"data":{"a":"c"}', 'unexpected end of JSON input'],
        [
          'PATCH',
          `${cms}/existing`,
          jsonPatch,
          '[{"op":"add",]',
          "invalid character ']' looking for beginning of object key string",
        ],
        [
          'DELETE',
          `${cms}/existing`,
          json,
          '{"gracePeriodSeconds":}',
          `couldn't get version/kind; json parse error: invalid character '}' looking for beginning of value`,
        ],
      ];
      for (const [method, path, headers, body, message] of cases) {
        const res = await send({ label: '', method, path, headers, body: Buffer.from(body), mustFail: true });
        expect([method, body, res.status, JSON.parse(res.body.toString())]).toEqual([
          method,
          body,
          400,
          expect.objectContaining({ kind: 'Status', reason: 'BadRequest', code: 400, message }),
        ]);
      }
      const after = (await send({ label: '', method: 'GET', path: `${cms}/existing`, mustFail: false })).body;
      expect(after.toString()).toBe(before.toString());
    });

    // a JSON patch whose operation fails gets Kubernetes' generic 422, which names no operation
    it('a JSON patch that fails or is no list of operations is refused as Kubernetes refuses it', async () => {
      const before = (await send({ label: '', method: 'GET', path: `${cms}/existing`, mustFail: false }))
        .body;
      const patch = (body: string) =>
        send({
          label: '',
          method: 'PATCH',
          path: `${cms}/existing`,
          headers: jsonPatch,
          body: Buffer.from(body),
          mustFail: true,
        });
      for (const ops of [
        '[{"op":"test","path":"/data/a","value":"other"}]',
        '[{"op":"remove","path":"/data/missing"}]',
        '[{"op":"bogus","path":"/data/a"}]',
        '[{"op":"move","from":"/data/missing","path":"/data/b"}]',
      ]) {
        const res = await patch(ops);
        expect([ops, res.status, JSON.parse(res.body.toString())]).toEqual([
          ops,
          422,
          expect.objectContaining({
            reason: 'Invalid',
            message: 'the server rejected our request due to an error in our request',
            details: {},
          }),
        ]);
      }
      const object = await patch('{"op":"add"}');
      expect([object.status, JSON.parse(object.body.toString()).message]).toEqual([
        400,
        'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
      ]);
      // null is no operations at all
      expect((await patch('null')).status).toBe(200);
      const after = (await send({ label: '', method: 'GET', path: `${cms}/existing`, mustFail: false })).body;
      expect(after.toString()).toBe(before.toString());
    });

    // a value of the wrong JSON type in a built-in kind is refused as Kubernetes' decoder refuses it
    it('a value of the wrong JSON type answers 400 in the decoder words, and nothing is written', async () => {
      const deployment = (spec: Record<string, unknown>, env: unknown[] = []) =>
        JSON.stringify({
          metadata: { name: 'typed' },
          spec: {
            selector: { matchLabels: { a: 'b' } },
            template: {
              metadata: { labels: { a: 'b' } },
              spec: { containers: [{ name: 'c', image: 'i', env }] },
            },
            ...spec,
          },
        });
      const handled = (kind: string) =>
        `${kind} in version "v1" cannot be handled as a ${kind}: json: cannot unmarshal `;
      const cases: [string, string, string][] = [
        [
          deploys,
          deployment({ replicas: 'two' }),
          `${handled('Deployment')}string into Go struct field DeploymentSpec.spec.replicas of type int32`,
        ],
        [
          deploys,
          deployment({ replicas: 1.5 }),
          `${handled('Deployment')}number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32`,
        ],
        [
          deploys,
          deployment({}, [{ name: 'PORT', value: 8080 }]),
          `${handled('Deployment')}number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string`,
        ],
        [
          cms,
          JSON.stringify({ metadata: { name: 'typed' }, data: { a: 1 } }),
          `${handled('ConfigMap')}number into Go struct field ConfigMap.data of type string`,
        ],
      ];
      for (const [path, body, message] of cases) {
        const res = await send({
          label: '',
          method: 'POST',
          path,
          headers: json,
          body: Buffer.from(body),
          mustFail: true,
        });
        expect([body, res.status, JSON.parse(res.body.toString())]).toEqual([
          body,
          400,
          expect.objectContaining({ reason: 'BadRequest', code: 400, message }),
        ]);
      }
      for (const path of [deploys, cms]) {
        const res = await send({ label: '', method: 'GET', path: `${path}/typed`, mustFail: true });
        expect(res.status).toBe(404);
      }
    });

    // the raw path is routed: configmaps/.. is a name, not the namespace
    it('dot segments in a path are not resolved', () => expect4xx({ method: 'GET', path: `${cms}/..` }, 404));

    // Kubernetes' mergeMap skips a $deleteFromPrimitiveList whose value is not of the list's type
    // (the parallel list is only merged into a value of the same JSON type): the patch is a no-op, 200.
    it('a strategic patch with a non-list $deleteFromPrimitiveList leaves the list as it is', async () => {
      const res = await send({
        label: 'known',
        method: 'PATCH',
        path: `${deploys}/existing`,
        headers: strategic,
        body: Buffer.from('{"spec":{"template":{"spec":{"$deleteFromPrimitiveList/containers":{"a":1}}}}}'),
        mustFail: false,
      });
      expect(res.status).toBe(200);
      const containers = JSON.parse(res.body.toString()).spec.template.spec.containers as { name: string }[];
      expect(containers.map((c) => c.name)).toEqual(['c']);
    });
  });
});
