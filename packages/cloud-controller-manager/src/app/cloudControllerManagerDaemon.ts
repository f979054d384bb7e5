import {
  COMMON_NOTICE_ONLY_FLAGS,
  cloudControllerManagerFlagSets,
  daemonValidators,
  withDelegatedAuth,
  type DaemonSpec,
  type FlagSetSpec,
  type FlagValidator,
} from '@orch/component-base';
import { cloudProviderNames } from '../cloudprovider/cloudProviderRegistry';
import { registerBuiltinProviders } from '../providers/registerBuiltinProviders';
import { COMPONENT_NAME, runCloudControllerManager } from './runCloudControllerManager';

const CLOUD_PROVIDER_HELP =
  "The provider for cloud services; required. orch's built-in provider is 'local' (instances, loopback load balancers and routes on this machine, configured by --cloud-config).";

/** The flag sets, with the help of --cloud-provider saying it is required here. */
function flagSets(): FlagSetSpec[] {
  return cloudControllerManagerFlagSets().map((set) => ({
    ...set,
    flags: set.flags.map((f) => (f.name === 'cloud-provider' ? { ...f, help: CLOUD_PROVIDER_HELP } : f)),
  }));
}

/** --cloud-provider must name a registered provider, as Kubernetes' cloud controller manager requires. */
const cloudProviderRule: FlagValidator = (flags) => {
  const name = flags.string('cloud-provider');
  if (!name) return ['--cloud-provider cannot be empty'];
  registerBuiltinProviders();
  return cloudProviderNames().includes(name)
    ? []
    : [`--cloud-provider: unknown cloud provider "${name}" (known: ${cloudProviderNames().join(', ')})`];
};

/**
 * The orch-cloud-controller-manager daemon for runDaemon; its secure port authenticates and
 * authorizes through the apiserver (--authentication-kubeconfig, --authorization-kubeconfig).
 */
export function cloudControllerManagerDaemon(): DaemonSpec<Record<string, unknown>> {
  return withDelegatedAuth({
    name: COMPONENT_NAME,
    description:
      'The Cloud controller manager is a daemon that embeds the cloud specific control loops shipped with orch.',
    flagSets: flagSets(),
    validators: [...daemonValidators('cloud-controller-manager'), cloudProviderRule],
    run: (ctx) => runCloudControllerManager(ctx),
    noticeOnlyFlags: {
      ...COMMON_NOTICE_ONLY_FLAGS,
      'cidr-allocator-type': "node CIDRs are allocated by orch-controller-manager's nodeipam controller",
      'cloud-provider-x-lb-src-cidrs': "the local cloud's load balancers have no firewall to open",
      'external-cloud-volume-plugin': 'there are no in-tree cloud volume plugins',
    },
  });
}
