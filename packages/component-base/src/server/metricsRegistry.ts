import type { Registry as PromRegistry } from 'prom-client';

/**
 * prom-client's Registry, loaded from its own module. The package's entry point also loads the
 * default process metrics, the push gateway client and the OpenTelemetry API (some ninety modules,
 * about 4 MB resident) that a daemon which only registers its own metrics never uses. It is the
 * same class the entry point exports, so metrics made with either register in either.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const Registry = require('prom-client/lib/registry') as typeof PromRegistry;
export type Registry = PromRegistry;
