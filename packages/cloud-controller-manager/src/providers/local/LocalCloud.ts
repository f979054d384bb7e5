import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CloudProvider, Zone, Zones } from '../../cloudprovider/CloudProvider';
import { DEFAULT_ROUTES_FILE, parseLocalCloudConfig, type LocalCloudConfig } from './localCloudConfig';
import { LocalInventory } from './LocalInventory';
import { LocalLoadBalancers } from './LocalLoadBalancers';
import { LocalRoutes } from './LocalRoutes';

/** The config at `path` ('' for none: the defaults); errors name the file. */
function readLocalCloudConfig(path: string): LocalCloudConfig {
  let text: string;
  try {
    text = path ? readFileSync(path, 'utf8') : '';
  } catch (err) {
    throw new Error(`reading the cloud config ${path}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return parseLocalCloudConfig(text);
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`, { cause: err });
  }
}

/** The name --cloud-provider selects the built-in provider by. */
export const LOCAL_PROVIDER_NAME = 'local';

/**
 * The built-in `local` provider: instances from the inventory of its config file, load balancers
 * listening on loopback addresses, and a route table in memory (saved next to the config file).
 */
export class LocalCloud implements CloudProvider {
  readonly inventory: LocalInventory;
  readonly loadBalancers: LocalLoadBalancers;
  readonly routeTable: LocalRoutes;

  /** `configPath` '' runs without a config: every node is a running local instance. */
  constructor(configPath: string) {
    const path = configPath ? resolve(configPath) : '';
    const config = readLocalCloudConfig(path);
    this.inventory = new LocalInventory(path, config);
    this.loadBalancers = new LocalLoadBalancers(config.loadBalancerPool);
    const routesFile = path ? resolve(dirname(path), config.routesFile || DEFAULT_ROUTES_FILE) : '';
    this.routeTable = new LocalRoutes(routesFile);
  }

  providerName(): string {
    return LOCAL_PROVIDER_NAME;
  }

  instances(): LocalInventory {
    return this.inventory;
  }

  loadBalancer(): LocalLoadBalancers {
    return this.loadBalancers;
  }

  routes(): LocalRoutes {
    return this.routeTable;
  }

  zones(): Zones {
    const zoneOf = (match: (name: string, providerID: string) => boolean, what: string): Zone => {
      const config = this.inventory.current();
      const listed = config.instances.find((i) => match(i.name, i.providerID));
      if (!listed && config.unlistedInstances === 'absent') throw new Error(`instance not found: ${what}`);
      return { failureDomain: listed?.zone ?? config.zone, region: listed?.region ?? config.region };
    };
    return {
      getZoneByNodeName: async (nodeName) => zoneOf((name) => name === nodeName, nodeName),
      getZoneByProviderID: async (id) => zoneOf((_n, providerID) => providerID === id, id),
    };
  }

  hasClusterID(): boolean {
    return true;
  }

  async close(): Promise<void> {
    await this.loadBalancers.close();
  }
}
