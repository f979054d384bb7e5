import type { FlagSetSpec, FlagSpec } from './flagSpec';
import { flagCodec, zeroValue } from './flagTypes';

function defaultText(spec: FlagSpec): string {
  const codec = flagCodec(spec.type);
  const value = (spec.default ?? zeroValue(spec.type)) as never;
  if (codec.isZero(value)) return '';
  const printed = codec.format(value);
  return ` (default ${codec.quoteDefault ? JSON.stringify(printed) : printed})`;
}

/** The pflag-style usage lines of one flag set (hidden flags are left out; deprecated ones are marked). */
export function formatFlagUsages(flags: readonly FlagSpec[]): string {
  const visible = flags.filter((f) => !f.hidden);
  const heads = visible.map((spec) => {
    const typeName = flagCodec(spec.type).typeName;
    const short = spec.shorthand ? `  -${spec.shorthand}, ` : '      ';
    return `${short}--${spec.name}${typeName ? ' ' + typeName : ''}`;
  });
  const width = Math.max(0, ...heads.map((h) => h.length));
  return visible
    .map((spec, i) => {
      const help = spec.deprecated !== undefined ? `DEPRECATED: ${spec.help}` : spec.help;
      const indented = help.replace(/\n/g, `\n${' '.repeat(width + 3)}`);
      return `${heads[i].padEnd(width)}   ${indented}${defaultText(spec)}\n`;
    })
    .join('');
}

/** Kubernetes-style help: description, usage and one `<Name> flags:` section per flag set. */
export function formatHelp(command: string, description: string, sets: readonly FlagSetSpec[]): string {
  let out = description ? `${description.trim()}\n\n` : '';
  out += `Usage:\n  ${command} [flags]\n`;
  for (const set of sets) {
    const usages = formatFlagUsages(set.flags);
    if (usages === '') continue;
    out += `\n${set.name} flags:\n\n${usages}`;
  }
  return out;
}
