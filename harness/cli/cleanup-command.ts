/**
 * `shipshape cleanup --target …`: removes what crashed runs left behind — containers labelled
 * `shipshape.run`, and fixture images this tool imported that nothing uses any more.
 */
import type { CommandSpec } from './command-help.ts';
import { parseFlags } from './parse-flags.ts';
import { parseTarget, TargetError } from '../target.ts';
import { EngineClient } from '../client/engine-client.ts';
import { createDispatcher } from '../client/dispatcher.ts';
import { removeLeftovers } from '../run/leftover-removal.ts';
import { reach } from '../run/prepare-target.ts';

export const CLEANUP_COMMAND = {
  name: 'cleanup',
  description: ['Removes the containers labelled shipshape.run that killed runs left on a live daemon, and the fixture images this tool imported that nothing uses any more. Exits 1 when something could not be removed.'],
  flags: {
    target: { type: 'string', value: 'ADDR', defaultText: '$DOCKER_HOST', help: 'the daemon: unix:///PATH, tcp://HOST:PORT or https://HOST:PORT' },
    'tls-ca': { type: 'string', value: 'PEM', defaultText: '$DOCKER_CERT_PATH/ca.pem when there', help: 'the CA that signed an https:// target\'s certificate' },
    'tls-cert': { type: 'string', value: 'PEM', defaultText: '$DOCKER_CERT_PATH/cert.pem when there', help: 'the client certificate for an https:// target' },
    'tls-key': { type: 'string', value: 'PEM', defaultText: '$DOCKER_CERT_PATH/key.pem when there', help: 'the client certificate\'s key' },
    'tls-skip-verify': { type: 'boolean', default: false, help: "accept an https:// target's certificate unverified" },
  },
  examples: ['shipshape cleanup --target unix:///var/run/docker.sock'],
} as const satisfies CommandSpec;

export async function cleanupCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, CLEANUP_COMMAND);
  const target = parseTarget(values.target, { ca: values['tls-ca'], cert: values['tls-cert'], key: values['tls-key'], skipVerify: values['tls-skip-verify'] });
  if (target.kind === 'reference') throw new TargetError('--target: cleanup is for live daemons; the embedded reference keeps nothing');
  if (target.kind === 'container') throw new TargetError('--target: cleanup is for live daemons; a run removes the container it started');
  const dispatcher = createDispatcher(target.connection);
  const engine = new EngineClient(target.connection, dispatcher, undefined);
  try {
    await reach(engine, target.url);
    const { removed, failed } = await removeLeftovers(engine, undefined, { images: true });
    for (const line of failed) console.error(`could not remove ${line}`);
    console.log(`cleanup: removed ${removed.length} leftover object(s) from ${target.url}${removed.length ? `: ${removed.join(', ')}` : ''}`);
    return failed.length === 0 ? 0 : 1;
  } finally {
    await dispatcher.close();
  }
}
