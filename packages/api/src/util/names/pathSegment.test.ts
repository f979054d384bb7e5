import {
  isValidPathSegmentName,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validatePathSegmentName,
} from './pathSegment';

describe('validatePathSegmentName', () => {
  it.each<[string, boolean, string[]]>([
    ['abc', false, []],
    ['a.b', false, []],
    ['...', false, []],
    ['.', false, ["may not be '.'"]],
    ['..', false, ["may not be '..'"]],
    ['.', true, []],
    ['..', true, []],
    ['a/b', false, ["may not contain '/'"]],
    ['a%b', false, ["may not contain '%'"]],
    ['a/%b', false, ["may not contain '/'", "may not contain '%'"]],
    ['a/b', true, ["may not contain '/'"]],
    ['%', true, ["may not contain '%'"]],
  ])('%j prefix=%j', (name, prefix, expected) => {
    expect(validatePathSegmentName(name, prefix)).toEqual(expected);
    if (!prefix) expect(isValidPathSegmentName(name)).toEqual(expected);
  });
});

describe('name validators', () => {
  const subdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  const labelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  const dns1035Msg =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

  it.each<[string, boolean, string[]]>([
    ['web', false, []],
    ['web.example', false, []],
    ['web-', false, [subdomainMsg]],
    // A generateName prefix may end with '-': Kubernetes checks 'web-' as 'wea'.
    ['web-', true, []],
    ['w-', true, []],
    // Only the last two characters are replaced, so a '.' before the dash is dropped too.
    ['web.-', true, []],
    ['-', true, [subdomainMsg]],
    ['Web-', true, [subdomainMsg]],
    // The masking drops the character before the dash: 'a..-' is checked as 'a.a'.
    ['a..-', true, []],
    ['a..b-', true, [subdomainMsg]],
  ])('nameIsDNSSubdomain(%j, %j)', (name, prefix, expected) => {
    expect(nameIsDNSSubdomain(name, prefix)).toEqual(expected);
  });

  it.each<[string, boolean, string[]]>([
    ['kube-system', false, []],
    ['kube-', true, []],
    ['kube-', false, [labelMsg]],
    ['a.b', false, ['must not contain dots']],
    ['a'.repeat(64), false, ['must be no more than 63 characters']],
  ])('nameIsDNSLabel(%j, %j)', (name, prefix, expected) => {
    expect(nameIsDNSLabel(name, prefix)).toEqual(expected);
  });

  it.each<[string, boolean, string[]]>([
    ['my-svc', false, []],
    ['my-', true, []],
    ['1svc', false, [dns1035Msg]],
    // '1-' is checked as 'a' (the digit is dropped with the dash), '1a-' as '1a'.
    ['1-', true, []],
    ['1a-', true, [dns1035Msg]],
  ])('nameIsDNS1035Label(%j, %j)', (name, prefix, expected) => {
    expect(nameIsDNS1035Label(name, prefix)).toEqual(expected);
  });
});
