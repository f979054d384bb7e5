import type { ClusterRole, PolicyRule } from '@orch/api';
import { aggregatedRules, sameRules } from './aggregatedRules';

const role = (
  name: string,
  labels: Record<string, string>,
  rules: PolicyRule[],
  selectors?: Record<string, string>[],
): ClusterRole => ({
  metadata: { name, labels },
  rules,
  ...(selectors
    ? { aggregationRule: { clusterRoleSelectors: selectors.map((m) => ({ matchLabels: m })) } }
    : {}),
});

const r = (verb: string, resource: string): PolicyRule => ({
  verbs: [verb],
  apiGroups: [''],
  resources: [resource],
});

describe('the rules of an aggregated cluster role', () => {
  it('is undefined for a role without an aggregation rule', () => {
    expect(aggregatedRules(role('plain', {}, [r('get', 'pods')]), [])).toBeUndefined();
  });

  it('unions the selected roles sorted by name, rules in order, each rule once, never the role itself', () => {
    const target = role('target', { a: 'x' }, [r('own', 'stale')], [{ a: 'x' }]);
    const all = [
      target,
      role('zeta', { a: 'x' }, [r('get', 'pods'), r('list', 'pods')]),
      role('Alpha', { a: 'x' }, [r('get', 'secrets')]),
      role('beta', { a: 'x' }, [r('list', 'pods'), r('get', 'nodes')]),
      role('unselected', { a: 'y' }, [r('delete', 'pods')]),
    ];
    // byte order: upper case before lower case
    expect(aggregatedRules(target, all)).toEqual([
      r('get', 'secrets'),
      r('list', 'pods'),
      r('get', 'nodes'),
      r('get', 'pods'),
    ]);
  });

  it('goes selector by selector, and treats missing and empty lists as the same rule', () => {
    const target = role('target', {}, [], [{ s: '2' }, { s: '1' }]);
    const all = [
      target,
      role('a', { s: '1' }, [r('get', 'pods')]),
      role('b', { s: '2' }, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }]),
      role('c', { s: '2' }, [r('watch', 'pods')]),
    ];
    expect(aggregatedRules(target, all)).toEqual([
      { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] },
      r('watch', 'pods'),
    ]);
  });

  it('takes the stored rules of aggregated roles it selects (the bootstrap admin ← edit ← view chain)', () => {
    const view = role('view', { 'to-edit': 'true' }, [r('get', 'pods')], [{ 'to-view': 'true' }]);
    const edit = role(
      'edit',
      { 'to-admin': 'true' },
      [r('get', 'pods'), r('create', 'pods')],
      [{ 'to-edit': 'true' }],
    );
    const admin = role('admin', {}, [], [{ 'to-admin': 'true' }]);
    const extra = role('zz-extra', { 'to-admin': 'true' }, [r('create', 'pods'), r('create', 'roles')]);
    expect(aggregatedRules(admin, [admin, edit, view, extra])).toEqual([
      r('get', 'pods'),
      r('create', 'pods'),
      r('create', 'roles'),
    ]);
  });

  it('is empty when nothing is selected', () => {
    const target = role('target', {}, [r('get', 'pods')], [{ none: 'x' }]);
    expect(aggregatedRules(target, [target])).toEqual([]);
  });

  it('compares rule lists in order, missing lists as empty', () => {
    expect(sameRules(undefined, [])).toBe(true);
    expect(sameRules([r('get', 'pods')], [{ ...r('get', 'pods'), nonResourceURLs: [] }])).toBe(true);
    expect(sameRules([r('get', 'pods'), r('list', 'pods')], [r('list', 'pods'), r('get', 'pods')])).toBe(
      false,
    );
    expect(sameRules([r('get', 'pods')], [])).toBe(false);
  });
});
