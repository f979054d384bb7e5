import type { IncomingMessage } from 'node:http';
import { statusErrors } from '../errors/status-error';

/** Request bodies larger than this are refused with 413 (Kubernetes' 3 MiB). */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/** Reads a request body, refusing bodies over the limit before reading them whole. */
export function readBody(req: IncomingMessage, limit = maxRequestBodyBytes): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.reject(statusErrors.tooLarge(`Request entity too large: limit is ${limit}`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(statusErrors.tooLarge(`Request entity too large: limit is ${limit}`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(statusErrors.badRequest(`error reading request body: ${e.message}`));
      failed = true;
    });
  });
}
