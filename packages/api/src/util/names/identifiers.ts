import { emptyError, maxLenError, regexError } from './messages';

/*
 * Kubernetes' syntactic name and key rules (apimachinery util/validation). Each function returns the
 * list of problems with the exact messages Kubernetes reports; an empty list means valid.
 * Regexes are compiled once; lengths are byte lengths as in Go.
 */

const NONE: readonly string[] = Object.freeze([]);

function byteLength(s: string): number {
  // Fast path: ASCII strings (the overwhelming majority) have as many bytes as code units.
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) return Buffer.byteLength(s, 'utf8');
  }
  return s.length;
}

const qnameCharFmt = '[A-Za-z0-9]';
const qnameExtCharFmt = '[-A-Za-z0-9_.]';
const qualifiedNameFmt = `(${qnameCharFmt}${qnameExtCharFmt}*)?${qnameCharFmt}`;
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
/** Maximum length of the name part of a qualified name. */
export const QUALIFIED_NAME_MAX_LENGTH = 63;
const qualifiedNameRegexp = new RegExp(`^${qualifiedNameFmt}$`);

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
/** Maximum length of a label value. */
export const LABEL_VALUE_MAX_LENGTH = 63;
const labelValueRegexp = new RegExp(`^${labelValueFmt}$`);

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
/** Maximum length of an RFC 1123 label. */
export const DNS1123_LABEL_MAX_LENGTH = 63;
const dns1123LabelRegexp = new RegExp(`^${dns1123LabelFmt}$`);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
/** Maximum length of an RFC 1123 subdomain. */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const dns1123SubdomainRegexp = new RegExp(`^${dns1123SubdomainFmt}$`);

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
/** Maximum length of an RFC 1035 label. */
export const DNS1035_LABEL_MAX_LENGTH = 63;
const dns1035LabelRegexp = new RegExp(`^${dns1035LabelFmt}$`);

const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';
const cIdentifierErrMsg =
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const cIdentifierRegexp = new RegExp(`^${cIdentifierFmt}$`);

const envVarNameFmt = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const envVarNameErrMsg =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const envVarNameRegexp = new RegExp(`^${envVarNameFmt}$`);

/**
 * A label or annotation key: an optional DNS subdomain prefix and '/', then a name of at most 63
 * characters (`example.com/MyName`).
 */
export function isQualifiedName(value: string): readonly string[] {
  const slash = value.indexOf('/');
  let name = value;
  let errs: string[] | undefined;
  if (slash >= 0) {
    if (value.indexOf('/', slash + 1) >= 0) {
      return [
        'a qualified name ' +
          regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc') +
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ];
    }
    const prefix = value.slice(0, slash);
    name = value.slice(slash + 1);
    if (prefix.length === 0) {
      errs = ['prefix part ' + emptyError()];
    } else {
      const msgs = isDNS1123Subdomain(prefix);
      if (msgs.length > 0) errs = msgs.map((m) => 'prefix part ' + m);
    }
  }
  if (name.length === 0) {
    (errs ??= []).push('name part ' + emptyError());
  } else if (byteLength(name) > QUALIFIED_NAME_MAX_LENGTH) {
    (errs ??= []).push('name part ' + maxLenError(QUALIFIED_NAME_MAX_LENGTH));
  }
  if (!qualifiedNameRegexp.test(name)) {
    (errs ??= []).push(
      'name part ' + regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc'),
    );
  }
  return errs ?? NONE;
}

/** A label value: empty, or at most 63 characters of `[-A-Za-z0-9_.]` starting and ending alphanumeric. */
export function isValidLabelValue(value: string): readonly string[] {
  let errs: string[] | undefined;
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs = [maxLenError(LABEL_VALUE_MAX_LENGTH)];
  if (!labelValueRegexp.test(value)) {
    (errs ??= []).push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  }
  return errs ?? NONE;
}

/** An RFC 1123 label (most resource names that become DNS labels, namespaces, container names). */
export function isDNS1123Label(value: string): readonly string[] {
  let errs: string[] | undefined;
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs = [maxLenError(DNS1123_LABEL_MAX_LENGTH)];
  if (!dns1123LabelRegexp.test(value)) {
    // A valid subdomain that is not a valid label (the length was checked above) must contain dots.
    (errs ??= []).push(
      dns1123SubdomainRegexp.test(value)
        ? 'must not contain dots'
        : regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'),
    );
  }
  return errs ?? NONE;
}

/** An RFC 1123 subdomain (most resource names). */
export function isDNS1123Subdomain(value: string): readonly string[] {
  let errs: string[] | undefined;
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs = [maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH)];
  if (!dns1123SubdomainRegexp.test(value)) {
    (errs ??= []).push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  }
  return errs ?? NONE;
}

const wildcardDNS1123SubdomainFmt = `\\*\\.${dns1123SubdomainFmt}`;
const wildcardDNS1123SubdomainErrMsg =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const wildcardDNS1123SubdomainRegexp = new RegExp(`^${wildcardDNS1123SubdomainFmt}$`);

/** An RFC 1123 subdomain behind a wildcard first label (`*.example.com`: Ingress hosts). */
export function isWildcardDNS1123Subdomain(value: string): readonly string[] {
  let errs: string[] | undefined;
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs = [maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH)];
  if (!wildcardDNS1123SubdomainRegexp.test(value)) {
    (errs ??= []).push(
      regexError(wildcardDNS1123SubdomainErrMsg, wildcardDNS1123SubdomainFmt, '*.example.com'),
    );
  }
  return errs ?? NONE;
}

/** An RFC 1035 label (service names). */
export function isDNS1035Label(value: string): readonly string[] {
  let errs: string[] | undefined;
  if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) errs = [maxLenError(DNS1035_LABEL_MAX_LENGTH)];
  if (!dns1035LabelRegexp.test(value)) {
    (errs ??= []).push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  }
  return errs ?? NONE;
}

/** A C identifier (`[A-Za-z_][A-Za-z0-9_]*`). */
export function isCIdentifier(value: string): readonly string[] {
  if (cIdentifierRegexp.test(value)) return NONE;
  return [regexError(cIdentifierErrMsg, cIdentifierFmt, 'my_name', 'MY_NAME', 'MyName')];
}

/**
 * An environment variable name as Kubernetes validates container env names (IsEnvVarName):
 * `[-._a-zA-Z][-._a-zA-Z0-9]*`, and not `.`, `..` or starting with `..`.
 */
export function isEnvVarName(value: string): readonly string[] {
  let errs: string[] | undefined;
  if (!envVarNameRegexp.test(value)) {
    errs = [regexError(envVarNameErrMsg, envVarNameFmt, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1')];
  }
  const chdir = chDirPrefixError(value);
  if (chdir !== undefined) (errs ??= []).push(chdir);
  return errs ?? NONE;
}

/** Kubernetes' hasChDirPrefix: `.`, `..` and names starting with `..` would move up a directory. */
function chDirPrefixError(value: string): string | undefined {
  if (value === '.') return "must not be '.'";
  if (value === '..') return "must not be '..'";
  if (value.startsWith('..')) return "must not start with '..'";
  return undefined;
}

/** Alias of {@link isEnvVarName} under the name used by callers validating env var names. */
export const isValidEnvVarName = isEnvVarName;

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRegexp = new RegExp(`^${configMapKeyFmt}$`);

/** A key of ConfigMap data and binaryData and of Secret data (IsConfigMapKey). */
export function isConfigMapKey(value: string): readonly string[] {
  let errs: string[] | undefined;
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs = [maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH)];
  if (!configMapKeyRegexp.test(value)) {
    (errs ??= []).push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  }
  const chdir = chDirPrefixError(value);
  if (chdir !== undefined) (errs ??= []).push(chdir);
  return errs ?? NONE;
}
