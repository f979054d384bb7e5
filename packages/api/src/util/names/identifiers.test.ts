import {
  isCIdentifier,
  isConfigMapKey,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isEnvVarName,
  isQualifiedName,
  isValidEnvVarName,
  isValidLabelValue,
  isWildcardDNS1123Subdomain,
} from './identifiers';

const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const QNAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const C_IDENT_MSG =
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')";
const ENV_MSG =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

describe('isDNS1123Label', () => {
  it.each<[string, string[]]>([
    ['a', []],
    ['ab', []],
    ['abc', []],
    ['a1', []],
    ['a-1', []],
    ['a--1--2--b', []],
    ['0', []],
    ['01', []],
    ['012', []],
    ['1a', []],
    ['1-a', []],
    ['1--a--b--2', []],
    ['a'.repeat(63), []],
    ['', [DNS1123_LABEL_MSG]],
    ['A', [DNS1123_LABEL_MSG]],
    ['ABC', [DNS1123_LABEL_MSG]],
    ['aBc', [DNS1123_LABEL_MSG]],
    ['A1', [DNS1123_LABEL_MSG]],
    ['A-1', [DNS1123_LABEL_MSG]],
    ['1-A', [DNS1123_LABEL_MSG]],
    ['-', [DNS1123_LABEL_MSG]],
    ['a-', [DNS1123_LABEL_MSG]],
    ['-a', [DNS1123_LABEL_MSG]],
    ['1-', [DNS1123_LABEL_MSG]],
    ['_', [DNS1123_LABEL_MSG]],
    ['a_b', [DNS1123_LABEL_MSG]],
    ['a b', [DNS1123_LABEL_MSG]],
    ['a@b', [DNS1123_LABEL_MSG]],
    ['a.b', ['must not contain dots']],
    ['a.b.c', ['must not contain dots']],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    ['A'.repeat(64), ['must be no more than 63 characters', DNS1123_LABEL_MSG]],
  ])('%j', (value, expected) => {
    expect(isDNS1123Label(value)).toEqual(expected);
  });
});

describe('isDNS1123Subdomain', () => {
  it.each<[string, string[]]>([
    ['a', []],
    ['a.b.c.d.e', []],
    ['aaa.bbb.ccc', []],
    ['a-1.b-2', []],
    ['11.22.33.44.55', []],
    ['a--1.b--2', []],
    [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`, []],
    ['', [DNS1123_SUBDOMAIN_MSG]],
    ['A', [DNS1123_SUBDOMAIN_MSG]],
    ['a.B', [DNS1123_SUBDOMAIN_MSG]],
    ['a..b', [DNS1123_SUBDOMAIN_MSG]],
    ['.a', [DNS1123_SUBDOMAIN_MSG]],
    ['a.', [DNS1123_SUBDOMAIN_MSG]],
    ['a-.b', [DNS1123_SUBDOMAIN_MSG]],
    ['a.-b', [DNS1123_SUBDOMAIN_MSG]],
    ['a_b', [DNS1123_SUBDOMAIN_MSG]],
    ['a'.repeat(254), ['must be no more than 253 characters']],
  ])('%j', (value, expected) => {
    expect(isDNS1123Subdomain(value)).toEqual(expected);
  });
});

describe('isDNS1035Label', () => {
  it.each<[string, string[]]>([
    ['a', []],
    ['ab', []],
    ['a1', []],
    ['a-1', []],
    ['a--1--2--b', []],
    ['a'.repeat(63), []],
    ['0', [DNS1035_MSG]],
    ['1a', [DNS1035_MSG]],
    ['', [DNS1035_MSG]],
    ['A', [DNS1035_MSG]],
    ['a-', [DNS1035_MSG]],
    ['a.b', [DNS1035_MSG]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
  ])('%j', (value, expected) => {
    expect(isDNS1035Label(value)).toEqual(expected);
  });
});

describe('isCIdentifier', () => {
  it.each<[string, string[]]>([
    ['a', []],
    ['A', []],
    ['_', []],
    ['a0', []],
    ['_a0_', []],
    ['A_B_C', []],
    ['', [C_IDENT_MSG]],
    ['1', [C_IDENT_MSG]],
    ['a-b', [C_IDENT_MSG]],
    ['a.b', [C_IDENT_MSG]],
    ['a b', [C_IDENT_MSG]],
  ])('%j', (value, expected) => {
    expect(isCIdentifier(value)).toEqual(expected);
  });
});

describe('isQualifiedName', () => {
  const slashMsg =
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
  it.each<[string, string[]]>([
    ['simple', []],
    ['now-with-dashes', []],
    ['1-starts-with-num', []],
    ['1234', []],
    ['simple/simple', []],
    ['now-with-dashes/simple', []],
    ['now-with-dashes/now-with-dashes', []],
    ['now.with.dots/now-with-dashes', []],
    ['now-with.dashes-and.dots/now_with.dashes-and_dots', []],
    ['1.2.3.4/5678', []],
    ['Uppercase_Is_OK_123', []],
    ['example.com/Uppercase_Is_OK_123', []],
    ['requests.storage-foo', []],
    ['a'.repeat(63), []],
    [`${'a'.repeat(253)}/${'b'.repeat(63)}`, []],
    ['', ['name part must be non-empty', `name part ${QNAME_MSG}`]],
    ['nospecialchars%^=@', [`name part ${QNAME_MSG}`]],
    ['cantendwithadash-', [`name part ${QNAME_MSG}`]],
    ['-cantstartwithadash-', [`name part ${QNAME_MSG}`]],
    ['only/one/slash', [slashMsg]],
    ['Example.com/abc', [`prefix part ${DNS1123_SUBDOMAIN_MSG}`]],
    ['example_com/abc', [`prefix part ${DNS1123_SUBDOMAIN_MSG}`]],
    ['/abc', ['prefix part must be non-empty']],
    ['example.com/', ['name part must be non-empty', `name part ${QNAME_MSG}`]],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
    [`${'a'.repeat(254)}/abc`, ['prefix part must be no more than 253 characters']],
    ['é', [`name part ${QNAME_MSG}`]],
  ])('%j', (value, expected) => {
    expect(isQualifiedName(value)).toEqual(expected);
  });
});

describe('isValidLabelValue', () => {
  it.each<[string, string[]]>([
    ['', []],
    ['simple', []],
    ['now-with-dashes', []],
    ['1-starts-with-num', []],
    ['end-with-num-1', []],
    ['1234', []],
    ['a'.repeat(63), []],
    ['Uppercase_Is_OK_123', []],
    ['nospecialchars%^=@', [LABEL_VALUE_MSG]],
    ['Tama-nui-te-rā.is.Māori.sun', [LABEL_VALUE_MSG]],
    ['\\backslashes\\are\\bad', [LABEL_VALUE_MSG]],
    ['-starts-with-dash', [LABEL_VALUE_MSG]],
    ['ends-with-dash-', [LABEL_VALUE_MSG]],
    ['.starts.with.dot', [LABEL_VALUE_MSG]],
    ['ends.with.dot.', [LABEL_VALUE_MSG]],
    ['a/b', [LABEL_VALUE_MSG]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    ['-'.repeat(64), ['must be no more than 63 characters', LABEL_VALUE_MSG]],
  ])('%j', (value, expected) => {
    expect(isValidLabelValue(value)).toEqual(expected);
  });
});

describe('isEnvVarName', () => {
  it.each<[string, string[]]>([
    ['A', []],
    ['ABC', []],
    ['AbC_123', []],
    ['_', []],
    ['_a', []],
    ['a-b', []],
    ['a.b', []],
    ['.a', []],
    ['-a', []],
    ['my.env-name', []],
    ['1', [ENV_MSG]],
    ['1a', [ENV_MSG]],
    ['', [ENV_MSG]],
    ['a b', [ENV_MSG]],
    ['a=b', [ENV_MSG]],
    ['.', ["must not be '.'"]],
    ['..', ["must not be '..'"]],
    ['..a', ["must not start with '..'"]],
    ['...', ["must not start with '..'"]],
    ['..=', [ENV_MSG, "must not start with '..'"]],
  ])('%j', (value, expected) => {
    expect(isEnvVarName(value)).toEqual(expected);
    expect(isValidEnvVarName(value)).toEqual(expected);
  });
});

describe('isWildcardDNS1123Subdomain', () => {
  const msg =
    "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  it.each<[string, string[]]>([
    ['*.example.com', []],
    ['*.a', []],
    ['*.a-1.b-2', []],
    ['example.com', [msg]],
    ['*', [msg]],
    ['*.', [msg]],
    ['a.*.com', [msg]],
    ['*.*.com', [msg]],
    ['*.Example.com', [msg]],
    [
      `*.${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
      ['must be no more than 253 characters'],
    ],
  ])('%j', (value, expected) => {
    expect(isWildcardDNS1123Subdomain(value)).toEqual(expected);
  });
});

describe('isConfigMapKey', () => {
  const msg =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
  it.each<[string, string[]]>([
    ['key.name', []],
    ['KEY_NAME', []],
    ['key-name', []],
    ['.dotfile', []],
    ['a..b', []],
    ['k'.repeat(253), []],
    ['', [msg]],
    ['a/b', [msg]],
    ['a b', [msg]],
    ['.', ["must not be '.'"]],
    ['..', ["must not be '..'"]],
    ['..a', ["must not start with '..'"]],
    ['../a', [msg, "must not start with '..'"]],
    ['k'.repeat(254), ['must be no more than 253 characters']],
  ])('%j', (value, expected) => {
    expect(isConfigMapKey(value)).toEqual(expected);
  });
});
