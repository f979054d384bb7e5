import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { AuthenticationError } from './authentication-error';
import type { Authenticator, UserInfo } from './authenticator';

/** What one connection's certificate says: a user, a reason it is refused, or nothing (no certificate). */
interface X509Outcome {
  user?: UserInfo;
  problem?: string;
}

const clientAuthUsage = '1.3.6.1.5.5.7.3.2';
const anyExtendedKeyUsage = '2.5.29.37.0';
const maxChainLength = 8;
/** How many chains' outcomes are remembered across connections. */
const chainsKept = 1024;

/** The certificates of a PEM bundle (`--client-ca-file`), in file order. */
export function parseCertificateBundle(pem: string | Buffer): X509Certificate[] {
  const blocks = pem.toString().match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b));
}

/**
 * The leaf certificate a client presented followed by the intermediates it sent, as the TLS layer
 * parsed them (no copy of their DER is parsed again).
 */
function peerChain(socket: TLSSocket): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  let cert: X509Certificate | undefined = socket.getPeerX509Certificate();
  while (cert && !seen.has(cert.fingerprint256) && chain.length < maxChainLength) {
    seen.add(cert.fingerprint256);
    chain.push(cert);
    cert = cert.issuerCertificate;
  }
  return chain;
}

/** Subject attributes of a certificate: every value of each attribute (a subject may name several O). */
function subjectValues(cert: X509Certificate, attribute: string): string[] {
  const v = (cert.toLegacyObject().subject as unknown as Record<string, string | string[] | undefined>)[
    attribute
  ];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function usableForClientAuth(cert: X509Certificate): boolean {
  const usages = cert.keyUsage as string[] | undefined;
  return (
    !usages || usages.length === 0 || usages.includes(clientAuthUsage) || usages.includes(anyExtendedKeyUsage)
  );
}

function timeText(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * `--client-ca-file`: a client certificate chaining up to one of the bundle's authorities, valid now
 * and usable for client authentication, authenticates as its common name with its organizations as
 * groups (Kubernetes' x509 request authenticator with CommonNameUserConversion). A presented
 * certificate that fails verification is a 401 unless another credential authenticates the request.
 */
export class X509Authenticator implements Authenticator {
  private readonly roots: X509Certificate[];
  /**
   * A TLS connection presents one certificate chain for its whole life, so the outcome of verifying it
   * is kept per connection (until the chain's validity ends) instead of parsed again per request.
   */
  private readonly byConnection = new WeakMap<TLSSocket, { outcome: X509Outcome; until: number }>();
  /**
   * The outcomes of the chains last verified, by their certificates' fingerprints: a client's new
   * connections present the chain its earlier ones did (kept as long as each outcome holds; bounded).
   */
  private readonly byChain = new Map<string, { outcome: X509Outcome; until: number }>();

  constructor(
    caBundle: string | Buffer,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.roots = parseCertificateBundle(caBundle);
  }

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const socket = req.socket as TLSSocket | undefined;
    if (!socket || typeof socket.getPeerX509Certificate !== 'function') return undefined;
    const now = this.now().getTime();
    let cached = this.byConnection.get(socket);
    if (!cached || now > cached.until) {
      cached = this.chainOutcome(peerChain(socket), now);
      this.byConnection.set(socket, cached);
    }
    const { outcome } = cached;
    if (outcome.problem) throw new AuthenticationError(outcome.problem);
    return outcome.user;
  }

  /** The outcome of verifying `chain`: remembered from another connection, or worked out now. */
  private chainOutcome(chain: X509Certificate[], now: number): { outcome: X509Outcome; until: number } {
    const key = chain.map((c) => c.fingerprint256).join(',');
    let known = this.byChain.get(key);
    if (!known || now > known.until) {
      known = this.outcomeOf(chain);
      if (this.byChain.size >= chainsKept) this.byChain.clear();
      this.byChain.set(key, known);
    }
    return known;
  }

  private outcomeOf(chain: X509Certificate[]): { outcome: X509Outcome; until: number } {
    const leaf = chain[0];
    const until = Math.min(...chain.map((c) => new Date(c.validTo).getTime()), Number.MAX_SAFE_INTEGER);
    if (!leaf) return { outcome: {}, until };
    const problem = this.verify(leaf, chain.slice(1));
    if (problem) {
      // a refusal may end (a certificate not valid yet): it is kept for a moment only
      const reason = `verifying certificate SN=${BigInt(`0x${leaf.serialNumber}`)} failed: x509: ${problem}`;
      return { outcome: { problem: reason }, until: this.now().getTime() + 1000 };
    }
    const commonName = subjectValues(leaf, 'CN')[0];
    if (!commonName) return { outcome: {}, until };
    return { outcome: { user: { username: commonName, groups: subjectValues(leaf, 'O') } }, until };
  }

  /** Why the chain does not verify (Go's x509 wording), or undefined when it does. */
  verify(leaf: X509Certificate, intermediates: X509Certificate[]): string | undefined {
    const path = this.pathToRoot(leaf, intermediates, 0);
    if (!path) return 'certificate signed by unknown authority';
    const now = this.now();
    for (const cert of path) {
      const from = new Date(cert.validFrom);
      const to = new Date(cert.validTo);
      if (now < from)
        return `certificate has expired or is not yet valid: current time ${timeText(now)} is before ${timeText(from)}`;
      if (now > to)
        return `certificate has expired or is not yet valid: current time ${timeText(now)} is after ${timeText(to)}`;
    }
    if (!path.every(usableForClientAuth)) return 'certificate specifies an incompatible key usage';
    return undefined;
  }

  /** `cert` and the certificates above it up to a trusted root, or undefined when there is no such path. */
  private pathToRoot(
    cert: X509Certificate,
    intermediates: X509Certificate[],
    depth: number,
  ): X509Certificate[] | undefined {
    if (depth > maxChainLength) return undefined;
    if (this.roots.some((r) => r.fingerprint256 === cert.fingerprint256)) return [cert];
    for (const root of this.roots) {
      if (cert.checkIssued(root) && cert.verify(root.publicKey)) return [cert, root];
    }
    for (const i of intermediates) {
      if (i.fingerprint256 === cert.fingerprint256 || !i.ca) continue;
      if (!cert.checkIssued(i) || !cert.verify(i.publicKey)) continue;
      const rest = this.pathToRoot(i, intermediates, depth + 1);
      if (rest) return [cert, ...rest];
    }
    return undefined;
  }
}
