/**
 * `shipshape serve`: the reference servers as a standalone fake daemon, until SIGINT or SIGTERM.
 * Prints each server's URL on start so scripts can read it.
 */
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';
import { parseDialect } from '../dialect.ts';
import { startReference } from '../../reference/serve.ts';

const FLAGS = {
  engine: { type: 'string', default: 'tcp://127.0.0.1:0' },
  token: { type: 'string' },
  accounts: { type: 'string' },
  registry: { type: 'string' },
  dialect: { type: 'string', default: 'engine' },
  swarm: { type: 'string', default: 'true' },
  users: { type: 'string' },
  'token-issuer': { type: 'string' },
  'token-service': { type: 'string' },
  'token-key': { type: 'string' },
  'token-cert': { type: 'string' },
} as const;

/** Flags of servers that are not built yet: refused by name rather than silently ignored. */
const NOT_YET = ['token', 'accounts', 'registry', 'users', 'token-issuer', 'token-service', 'token-key', 'token-cert'] as const;

function checkAddress(flag: string, address: string): void {
  if (!/^unix:\/\/\/.+|^tcp:\/\/127\.0\.0\.1:\d+$/.test(address)) {
    throw new UsageError(`--${flag}: expected unix:///PATH or tcp://127.0.0.1:PORT, got ${JSON.stringify(address)}`);
  }
}

export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, FLAGS);
  const unbuilt = NOT_YET.filter((flag) => values[flag] !== undefined);
  if (unbuilt.length > 0) throw new UsageError(`--${unbuilt[0]}: the token service, accounts API and registry are not in the reference yet`);
  if (values.swarm !== 'true' && values.swarm !== 'false') throw new UsageError(`--swarm: expected true or false, got ${JSON.stringify(values.swarm)}`);
  checkAddress('engine', values.engine);
  const dialect = parseDialect(values.dialect);
  const reference = await startReference({ engine: values.engine, dialect: dialect.name, swarm: values.swarm === 'true' });
  console.log(`engine: ${reference.engineUrl}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await reference.close();
  return 0;
}
