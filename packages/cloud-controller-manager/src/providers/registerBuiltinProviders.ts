import { cloudProviderNames, registerCloudProvider } from '../cloudprovider/cloudProviderRegistry';
import { LOCAL_PROVIDER_NAME, LocalCloud } from './local/LocalCloud';

/** Registers the providers built into orch (`local`); calling it again does nothing. */
export function registerBuiltinProviders(): void {
  if (!cloudProviderNames().includes(LOCAL_PROVIDER_NAME))
    registerCloudProvider(LOCAL_PROVIDER_NAME, (configPath) => new LocalCloud(configPath));
}
