import { quotaEvaluatorFor, quotaEvaluatorsFor } from './evaluator-registry';
import { objectCountResourceName, parseObjectCountResourceName } from './object-count-evaluator';
import { formatResourceList } from './resource-list';

describe('object count evaluators', () => {
  it('name counts count/<resource> in the core group and count/<resource>.<group> elsewhere', () => {
    expect(objectCountResourceName('', 'configmaps')).toBe('count/configmaps');
    expect(objectCountResourceName('apps', 'deployments')).toBe('count/deployments.apps');
    expect(parseObjectCountResourceName('count/deployments.apps')).toEqual({
      group: 'apps',
      resource: 'deployments',
    });
    expect(parseObjectCountResourceName('count/secrets')).toEqual({ group: '', resource: 'secrets' });
    expect(parseObjectCountResourceName('requests.cpu')).toBeUndefined();
  });

  it('count legacy core kinds under their plain plural too', () => {
    for (const r of ['configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas']) {
      expect(formatResourceList(quotaEvaluatorFor('', r).usage({}, 0))).toEqual({
        [`count/${r}`]: '1',
        [r]: '1',
      });
    }
  });

  it('count any other kind, on create only, without scopes', () => {
    const e = quotaEvaluatorFor('apps', 'deployments');
    expect(formatResourceList(e.usage({}, 0))).toEqual({ 'count/deployments.apps': '1' });
    expect([e.handles('CREATE'), e.handles('UPDATE')]).toEqual([true, false]);
    expect(e.matchesScope({ scopeName: 'Terminating', operator: 'Exists' }, {})).toBe(false);
    expect(e.matchingResources(['count/deployments.apps', 'pods'])).toEqual(['count/deployments.apps']);
    expect(quotaEvaluatorFor('apps', 'deployments')).toBe(e);
  });

  it('the evaluators of a quota are the built-in ones and one per other counted resource', () => {
    const names = quotaEvaluatorsFor(['pods', 'count/deployments.apps', 'count/configmaps']).map(
      (e) => `${e.group}/${e.resource}`,
    );
    expect(names).toEqual([
      '/pods',
      '/services',
      '/persistentvolumeclaims',
      '/configmaps',
      '/resourcequotas',
      '/replicationcontrollers',
      '/secrets',
      'apps/deployments',
    ]);
  });
});
