import type { CloudProvider } from './CloudProvider';

/** Makes a provider from the --cloud-config path ('' for none). */
export type CloudProviderFactory = (configPath: string) => CloudProvider;

const factories = new Map<string, CloudProviderFactory>();

/** Registers a provider under the name --cloud-provider selects it by; a second registration throws. */
export function registerCloudProvider(name: string, factory: CloudProviderFactory): void {
  if (factories.has(name)) throw new Error(`cloud provider "${name}" was registered twice`);
  factories.set(name, factory);
}

/** The names of the registered providers, sorted. */
export function cloudProviderNames(): string[] {
  return [...factories.keys()].sort();
}

/** The provider called `name` made from its config file; an unknown name throws. */
export function initCloudProvider(name: string, configPath: string): CloudProvider {
  const factory = factories.get(name);
  if (!factory) throw new Error(`unknown cloud provider "${name}"`);
  return factory(configPath);
}
