/** An IANA name's components: letters, digits, '.', '-', '_' and '+', at most 14 characters each. */
const componentPattern = /^[A-Za-z.\-_0-9+]{1,14}$/;

/**
 * Whether `name` is a time zone of the IANA database (as Go's time.LoadLocation finds one): a name
 * of valid components that the runtime's time zone data knows. "Local" is not a name of the database.
 */
export function isTimeZoneName(name: string): boolean {
  for (const part of name.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !componentPattern.test(part)) return false;
  }
  if (name.toLowerCase() === 'local') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
