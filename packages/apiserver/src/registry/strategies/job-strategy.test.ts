import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { httpsRequest } from '../../testing/https-request';

describe('JobStrategy', () => {
  let s: TestAPIServer;
  const jobs = '/apis/batch/v1/namespaces/default/jobs';
  const job = (name: string, labels?: Record<string, string>, templateLabels?: Record<string, string>) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: {
      template: {
        ...(templateLabels ? { metadata: { labels: templateLabels } } : {}),
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
      },
    },
  });
  const create = async (body: unknown) => {
    const r = await httpsRequest(s.url + jobs, { ca: s.ca, method: 'POST', body });
    expect(r.status).toBe(201);
    return r.json;
  };

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(() => s.close());

  it("labels a job without labels with its template's, the generated ones included (SetDefaults_Job)", async () => {
    for (const [name, template] of [
      ['with-template-labels', { app: 'batch' }],
      ['without', undefined],
    ] as const) {
      const created = await create(job(name, undefined, template));
      const uid = created.metadata.uid as string;
      const expected = {
        ...(template ?? {}),
        'batch.kubernetes.io/controller-uid': uid,
        'batch.kubernetes.io/job-name': name,
        'controller-uid': uid,
        'job-name': name,
      };
      expect(created.spec.template.metadata.labels).toEqual(expected);
      expect(created.metadata.labels).toEqual(expected);
    }
  });

  it('keeps the labels a job has', async () => {
    const created = await create(job('own', { team: 'a' }, { app: 'batch' }));
    expect(created.metadata.labels).toEqual({ team: 'a' });
  });
});
