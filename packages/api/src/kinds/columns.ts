import type { ColumnDeclaration } from '../schema/kind';

interface WithMeta {
  metadata?: { name?: string; creationTimestamp?: string };
}

/** The NAME column every table starts with. */
export function nameColumn(): ColumnDeclaration<WithMeta> {
  return {
    name: 'Name',
    type: 'string',
    format: 'name',
    description: 'Name must be unique within a namespace.',
    cell: (obj) => obj.metadata?.name ?? '',
  };
}

/** The AGE column: a short human duration since creation, as kubectl prints it. */
export function ageColumn(): ColumnDeclaration<WithMeta> {
  return {
    name: 'Age',
    type: 'string',
    description:
      'CreationTimestamp is a timestamp representing the server time when this object was created.',
    cell: (obj, now) => humanDuration(obj.metadata?.creationTimestamp, now),
  };
}

/** Kubernetes' HumanDuration of the time since `timestamp` ("<unknown>" when unset). */
export function humanDuration(timestamp: string | undefined, now: Date): string {
  if (!timestamp) return '<unknown>';
  const ms = now.getTime() - Date.parse(timestamp);
  if (Number.isNaN(ms)) return '<unknown>';
  return shortHumanDuration(ms);
}

/** duration.HumanDuration of apimachinery: 2 significant units, coarser as time passes. */
export function shortHumanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(seconds / 3600);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}
