import { readFileSync } from 'node:fs';
import type { ServerOptions } from 'node:https';
import { createSecureContext, type SecureContext, type SecureContextOptions } from 'node:tls';
import type { NamedCertKey } from '../options/flagTypes';
import { ensureSelfSignedCertKey, generateSelfSignedCertKey, type CertKeyPair } from './selfSignedCert';
import type { SecureServingOptions } from './secureServingOptions';
import { SniSelector } from './sniSelector';
import { tlsServerTuning } from './tlsSettings';

function readPair(certFile: string, keyFile: string): CertKeyPair {
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}

/** The public address used in a generated certificate. */
function publicHost(bindAddress: string): string {
  return bindAddress === '' || bindAddress === '0.0.0.0' || bindAddress === '::' ? 'localhost' : bindAddress;
}

/** The default serving pair: the given files, else one reused from or saved to certDir, else in memory. */
export function servingCertKey(options: SecureServingOptions): CertKeyPair {
  if (options.certFile !== '' && options.keyFile !== '') return readPair(options.certFile, options.keyFile);
  const host = publicHost(options.bindAddress);
  if (options.certDir !== '') return ensureSelfSignedCertKey(options.certDir, options.pairName, host);
  return generateSelfSignedCertKey(host);
}

/**
 * Node's SNICallback for --tls-sni-cert-key pairs (undefined for none): the pair chosen for the server
 * name a client asks for (see SniSelector), else the default certificate. `tuning` is the serving
 * TLS settings (version, suites) each pair's context gets too.
 */
export function sniCallback(
  sniCertKeys: readonly NamedCertKey[],
  tuning: SecureContextOptions,
): ServerOptions['SNICallback'] {
  if (sniCertKeys.length === 0) return undefined;
  const sni = sniCertKeys.map((n) => ({ ...readPair(n.certFile, n.keyFile), names: n.names }));
  const selector = new SniSelector(sni);
  const contexts: SecureContext[] = sni.map((c) =>
    createSecureContext({ cert: c.cert, key: c.key, ...tuning }),
  );
  return (serverName, done) => {
    const index = selector.select(serverName);
    done(null, index === undefined ? undefined : contexts[index]);
  };
}

/** Node https options for the secure serving options: certificate, SNI, minimum version, ciphers, client CA. */
export function tlsServerOptions(options: SecureServingOptions): ServerOptions {
  const tuning = tlsServerTuning(options.minVersion, options.cipherSuites);
  const pair = servingCertKey(options);
  const result: ServerOptions = { cert: pair.cert, key: pair.key, ...tuning };
  const SNICallback = sniCallback(options.sniCertKeys, tuning);
  if (SNICallback) result.SNICallback = SNICallback;
  if (options.clientCAFile !== '') {
    result.ca = readFileSync(options.clientCAFile, 'utf8');
    result.requestCert = true;
    result.rejectUnauthorized = false;
  } else if (options.requestClientCertificates) {
    result.requestCert = true;
    result.rejectUnauthorized = false;
  }
  return result;
}
