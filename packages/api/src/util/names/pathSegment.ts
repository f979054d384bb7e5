import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from './identifiers';

/*
 * Object name validators as the generic registry applies them (apimachinery api/validation).
 * `prefix` is true when validating metadata.generateName: a trailing '-' is then allowed because
 * random characters will follow it.
 */

/** Names that may not be used as an object name, since they are path segments with a meaning. */
export const NAME_MAY_NOT_BE: readonly string[] = ['.', '..'];
/** Substrings an object name may not contain, since the name is a URL path segment. */
export const NAME_MAY_NOT_CONTAIN: readonly string[] = ['/', '%'];

/** A name usable as one URL path segment: not `.` or `..`, no `/` or `%`. */
export function isValidPathSegmentName(name: string): readonly string[] {
  for (const illegal of NAME_MAY_NOT_BE) {
    if (name === illegal) return [`may not be '${illegal}'`];
  }
  return isValidPathSegmentPrefix(name);
}

/** A generateName prefix usable in a URL path segment: no `/` or `%`. */
export function isValidPathSegmentPrefix(name: string): readonly string[] {
  const errs: string[] = [];
  for (const illegal of NAME_MAY_NOT_CONTAIN) {
    if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  }
  return errs;
}

/** Path-segment name validation of a name (`prefix` false) or a generateName prefix (`prefix` true). */
export function validatePathSegmentName(name: string, prefix: boolean): readonly string[] {
  return prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);
}

/**
 * Kubernetes replaces a trailing '-' of a generateName prefix before validating it. It drops the
 * last two characters and appends 'a' (so `ab-` is checked as `aa`), and we keep that exact rule
 * since it decides which prefixes are accepted.
 */
function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return name.slice(0, name.length - 2) + 'a';
  return name;
}

/** Name validation for kinds whose names are RFC 1123 subdomains (most kinds). */
export function nameIsDNSSubdomain(name: string, prefix: boolean): readonly string[] {
  return isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
}

/** Name validation for kinds whose names are RFC 1123 labels (e.g. namespaces). */
export function nameIsDNSLabel(name: string, prefix: boolean): readonly string[] {
  return isDNS1123Label(prefix ? maskTrailingDash(name) : name);
}

/** Name validation for kinds whose names are RFC 1035 labels (e.g. services). */
export function nameIsDNS1035Label(name: string, prefix: boolean): readonly string[] {
  return isDNS1035Label(prefix ? maskTrailingDash(name) : name);
}
