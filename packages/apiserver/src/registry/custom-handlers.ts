import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { KindDeclaration } from '@orch/api';
import type { UserInfo } from '../authn/authenticator';
import type { GenericStore, RequestScope, WriteOptions } from './generic-store';
import type { ApiObject } from './object';

/** A request to a kind's own subresource (pods/binding, namespaces/finalize, ...) or to a virtual kind. */
export interface CustomRequest {
  verb: string;
  scope: RequestScope;
  name: string;
  subresource: string;
  /** The decoded body (create/update/patch), if any. */
  body?: ApiObject;
  query: URLSearchParams;
  user?: UserInfo;
  options: WriteOptions;
  /** The HTTP request itself, for handlers that proxy it (connect subresources: pods/exec). */
  http?: IncomingMessage;
}

export interface CustomResponse {
  code: number;
  object: unknown;
  /** An answer that is not an object (pods/log): its bytes, streamed as they come, instead of `object`. */
  stream?: {
    contentType: string;
    body: Readable;
    /** The answer's headers as they are (a proxied answer's), instead of the content type alone. */
    headers?: Record<string, string | string[]>;
  };
  /** The handler switched the connection's protocol and answered on its socket itself. */
  upgraded?: boolean;
}

/** Serves a kind's own subresource; `store` is the parent kind's store. */
export type SubresourceHandler = (store: GenericStore, request: CustomRequest) => Promise<CustomResponse>;

/** Serves a virtual kind (a review: nothing stored, the answer computed from the body). */
export type VirtualHandler = (
  declaration: KindDeclaration<any>,
  request: CustomRequest,
) => Promise<CustomResponse>;
