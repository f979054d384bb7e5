import { flag, type FlagSpec } from '../flagSpec';

/** `--help`, `--version` and the container registry config path. */
export function miscFlags(): FlagSpec[] {
  return [
    flag({
      name: 'cloudx-container-registry-config',
      type: 'string',
      help: 'Path to the file containing container registry configuration information of the cloud vendor.',
    }),
    flag({ name: 'help', shorthand: 'h', type: 'bool', help: 'help for this command' }),
    flag({ name: 'version', type: 'version', default: 'false', help: 'Print version information and quit' }),
  ];
}
