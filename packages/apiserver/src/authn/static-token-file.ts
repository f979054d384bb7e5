import { readFileSync } from 'node:fs';
import type { UserInfo } from './authenticator';
import { intersectAudiences, type TokenAuthenticator, type TokenResult } from './token-authenticator';

/** The records of a CSV text (RFC 4180 quoting; leading spaces of fields trimmed, as Go's csv.Reader with TrimLeadingSpace). */
export function parseCSV(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let atFieldStart = true;
  const endField = (): void => {
    record.push(field);
    field = '';
    atFieldStart = true;
  };
  const endRecord = (): void => {
    endField();
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
      continue;
    }
    if (atFieldStart && (c === ' ' || c === '\t')) continue;
    if (atFieldStart && c === '"') {
      quoted = true;
      atFieldStart = false;
      continue;
    }
    atFieldStart = false;
    if (c === ',') endField();
    else if (c === '\n') endRecord();
    else if (c !== '\r') field += c;
  }
  if (field !== '' || record.length) endRecord();
  return records;
}

/**
 * `--token-auth-file`: static bearer tokens from a CSV file of `token,user,uid[,"group1,group2"]`
 * records (Kubernetes' token file format).
 */
export class StaticTokenAuthenticator implements TokenAuthenticator {
  private readonly users = new Map<string, UserInfo>();

  constructor(
    csv: string,
    private readonly implicitAudiences: readonly string[] = [],
    source = 'token file',
  ) {
    for (const record of parseCSV(csv)) {
      if (record.length < 3) {
        throw new Error(
          `token file '${source}' must have at least 3 columns (token, user name, user uid), found ${record.length}`,
        );
      }
      const [token, username, uid, groups] = record as [string, string, string, string | undefined];
      if (!token) continue;
      this.users.set(token, { username, uid, groups: groups ? groups.split(',') : [] });
    }
  }

  static fromFile(path: string, implicitAudiences: readonly string[] = []): StaticTokenAuthenticator {
    return new StaticTokenAuthenticator(readFileSync(path, 'utf8'), implicitAudiences, path);
  }

  async authenticateToken(token: string, audiences?: string[]): Promise<TokenResult | undefined> {
    const user = this.users.get(token);
    if (!user) return undefined;
    // the tokens know no audience: they are valid for the server's own audiences only
    if (!audiences || !this.implicitAudiences.length)
      return { user: copyUser(user), audiences: [...this.implicitAudiences] };
    const valid = intersectAudiences(this.implicitAudiences, audiences);
    return valid.length ? { user: copyUser(user), audiences: valid } : undefined;
  }
}

/** A copy the caller may change (the file's users hold only strings and a list of them). */
function copyUser(user: UserInfo): UserInfo {
  return { ...user, groups: [...user.groups] };
}
