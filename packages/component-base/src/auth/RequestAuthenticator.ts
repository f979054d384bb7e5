import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../server/delegatedAuth';

/**
 * One way of authenticating a request: a user, `undefined` when the request does not carry this
 * kind of credential (the next authenticator is asked), or an Error when the credential is present
 * but invalid (401).
 */
export type RequestAuthenticator = (req: IncomingMessage) => Promise<UserInfo | undefined | Error>;
