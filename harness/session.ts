/**
 * What every check needs to know about the run, decided once by the CLI (or by vitest's global setup)
 * and handed to the test workers as JSON: they cannot share the main process's memory.
 */
import type { DialectName } from '../protocol/dialect.ts';
import type { Connection } from './target.ts';

export interface RunSession {
  /** short id carried by every object a check creates (label `shipshape.run=<runId>`, name prefix) */
  runId: string;
  target: {
    /** as given, credentials removed */
    url: string;
    kind: 'reference' | 'live';
    connection: Connection;
  };
  dialect: DialectName;
  /** the busybox image checks run their commands in */
  fixtureImage: string;
  /** fast-check seed; the report records it and --seed replays it */
  seed: number;
  /** `run --repeat N`: each check runs N times, and one whose attempts differ is reported flaky (default 1) */
  repeat?: number;
  /** optional capabilities the target has (swarm, registry, network): checks that require others are skipped */
  capabilities: string[];
  accountServices?: AccountServices;
  /** `host:port` of a registry that trusts the token service, as the target reaches it: with a user, the `registry` capability */
  registry?: string;
}

/** The spec/3 services under test (harness/run/account-services.ts). */
export interface AccountServices {
  /** the token service's base URL: its endpoint is `{authUrl}/token` */
  authUrl?: string;
  /** the accounts API's base URL: its paths are under `{accountsUrl}/api/v1.1/` */
  accountsUrl?: string;
  /** the service (registry) name tokens are asked for */
  service: string;
  /** whom the checks act as; the password travels to the workers in the environment, never in a file */
  user?: { username: string; password: string };
  /** another user's name, for the accounts API's 403: known on the reference only */
  otherUsername?: string;
}

export const SESSION_ENV = 'SHIPSHAPE_SESSION';

declare module 'vitest' {
  interface ProvidedContext {
    session: RunSession;
    apiVersion: string;
  }
}
