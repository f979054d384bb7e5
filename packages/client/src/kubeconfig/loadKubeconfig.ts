import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { Kubeconfig, KubeconfigCluster, KubeconfigContext, KubeconfigUser, Named } from './Kubeconfig';

const clusterPathFields = ['certificate-authority'] as const;
const userPathFields = ['client-certificate', 'client-key', 'tokenFile'] as const;

function namedList<T>(raw: unknown, key: string, where: string): Named<T>[] {
  if (raw === undefined || raw === null) {
    return [];
  }
  if (!Array.isArray(raw)) {
    throw new Error(`${where}: ${key}s must be a list`);
  }
  return raw.map((entry: unknown) => {
    const e = entry as Record<string, unknown> | null;
    if (!e || typeof e.name !== 'string') {
      throw new Error(`${where}: every entry of ${key}s needs a name`);
    }
    return { name: e.name, value: ((e[key] as T | undefined) ?? {}) as T };
  });
}

function resolvePath(value: string | undefined, baseDir: string): string | undefined {
  if (!value) {
    return value;
  }
  const expanded = value.startsWith('~/') ? path.join(process.env.HOME ?? '', value.slice(2)) : value;
  return path.resolve(baseDir, expanded);
}

/**
 * Parses kubeconfig YAML text. Relative paths (certificate-authority, client-certificate,
 * client-key, tokenFile) are resolved against `baseDir`, the directory of the file they came from.
 */
export function parseKubeconfig(text: string, baseDir: string, where = 'kubeconfig'): Kubeconfig {
  const raw = (parse(text) ?? {}) as Record<string, unknown>;
  if (typeof raw !== 'object') {
    throw new Error(`${where}: not a kubeconfig document`);
  }
  const clusters = namedList<KubeconfigCluster>(raw.clusters, 'cluster', where);
  const users = namedList<KubeconfigUser>(raw.users, 'user', where);
  const contexts = namedList<KubeconfigContext>(raw.contexts, 'context', where);
  for (const c of clusters) {
    c.value = { ...c.value };
    for (const f of clusterPathFields) {
      c.value[f] = resolvePath(c.value[f], baseDir);
    }
  }
  for (const u of users) {
    u.value = { ...u.value };
    for (const f of userPathFields) {
      u.value[f] = resolvePath(u.value[f], baseDir);
    }
  }
  const current = raw['current-context'];
  return {
    clusters,
    users,
    contexts,
    ...(typeof current === 'string' && current !== '' ? { currentContext: current } : {}),
  };
}

/** Reads and parses a kubeconfig file. */
export function loadKubeconfigFile(file: string): Kubeconfig {
  const abs = path.resolve(file);
  return parseKubeconfig(fs.readFileSync(abs, 'utf8'), path.dirname(abs), abs);
}

/**
 * Loads several kubeconfig files and merges them as kubectl does for KUBECONFIG: the first
 * file defining a name wins, and the first non-empty current-context wins.
 */
export function loadKubeconfigFiles(files: string[]): Kubeconfig {
  const merged: Kubeconfig = { clusters: [], users: [], contexts: [] };
  const add = <T>(into: Named<T>[], from: Named<T>[]): void => {
    for (const entry of from) {
      if (!into.some((e) => e.name === entry.name)) {
        into.push(entry);
      }
    }
  };
  for (const file of files) {
    if (!file || !fs.existsSync(file)) {
      continue;
    }
    const kc = loadKubeconfigFile(file);
    add(merged.clusters, kc.clusters);
    add(merged.users, kc.users);
    add(merged.contexts, kc.contexts);
    if (!merged.currentContext && kc.currentContext) {
      merged.currentContext = kc.currentContext;
    }
  }
  return merged;
}

/** Files named by KUBECONFIG (path-list), else ~/.kube/config. */
export function defaultKubeconfigFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.KUBECONFIG) {
    return env.KUBECONFIG.split(path.delimiter).filter((f) => f !== '');
  }
  const home = env.HOME ?? env.USERPROFILE;
  return home ? [path.join(home, '.kube', 'config')] : [];
}
