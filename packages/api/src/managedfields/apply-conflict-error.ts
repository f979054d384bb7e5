import { printPath, type Path } from './path-element';
import { printManager, type ManagerIdentity } from './managed-fields';

export interface FieldConflict {
  manager: ManagerIdentity;
  path: Path;
}

/** A cause of a 409 apply conflict, as Kubernetes reports it. */
export interface ConflictCause {
  reason: 'FieldManagerConflict';
  message: string;
  field: string;
}

/**
 * An apply that would change fields other managers own: Kubernetes answers 409 Conflict with one cause
 * per field and a message kubectl shows as is.
 */
export class ApplyConflictError extends Error {
  readonly causes: ConflictCause[];

  constructor(readonly conflicts: FieldConflict[]) {
    super(conflictMessage(conflicts));
    this.causes = conflicts.map((c) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${printManager(c.manager)}`,
      field: printPath(c.path),
    }));
  }
}

function conflictMessage(conflicts: FieldConflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0]!;
    return `Apply failed with 1 conflict: conflict with ${printManager(c.manager)}: ${printPath(c.path)}`;
  }
  const lines: string[] = [];
  let last = '';
  for (const c of conflicts) {
    const who = printManager(c.manager);
    if (who !== last) lines.push(`conflicts with ${who}:`);
    last = who;
    lines.push(`- ${printPath(c.path)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}
