import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Route, Routes } from '../../cloudprovider/CloudProvider';

/** The name of a route: the cluster name, the hint (the node's UID) and the destination. */
export function localRouteName(clusterName: string, nameHint: string, destinationCIDR: string): string {
  return `${clusterName}-${nameHint}-${destinationCIDR.replace(/[./:]/g, '-')}`;
}

/**
 * The local provider's route table: kept in memory and, when a file is given, saved to it (as a
 * JSON list of routes) after every change and loaded from it at start. A cluster's routes are
 * those named `<cluster name>-...`.
 */
export class LocalRoutes implements Routes {
  private readonly table = new Map<string, Route>();

  constructor(private readonly file = '') {
    if (file && existsSync(file)) {
      const saved: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (!Array.isArray(saved)) throw new Error(`${file}: not a list of routes`);
      for (const r of saved as Route[]) this.table.set(r.name, { ...r });
    }
  }

  async listRoutes(clusterName: string): Promise<Route[]> {
    return [...this.table.values()]
      .filter((r) => r.name.startsWith(`${clusterName}-`))
      .map((r) => ({ ...r }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async createRoute(clusterName: string, nameHint: string, route: Omit<Route, 'name'>): Promise<void> {
    const name = localRouteName(clusterName, nameHint, route.destinationCIDR);
    this.table.set(name, { name, targetNode: route.targetNode, destinationCIDR: route.destinationCIDR });
    this.save();
  }

  async deleteRoute(_clusterName: string, route: Route): Promise<void> {
    if (this.table.delete(route.name)) this.save();
  }

  private save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify([...this.table.values()], null, 2) + '\n');
    renameSync(tmp, this.file);
  }
}
