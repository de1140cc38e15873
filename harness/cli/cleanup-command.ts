/**
 * `shipshape cleanup --target …`: removes what crashed runs left behind — containers labelled
 * `shipshape.run`, and fixture images this tool imported that nothing uses any more.
 */
import { parseFlags } from './parse-flags.ts';
import { parseTarget, TargetError } from '../target.ts';
import { EngineClient } from '../client/engine-client.ts';
import { createDispatcher } from '../client/dispatcher.ts';
import { removeLeftovers } from '../run/leftover-removal.ts';
import { reach } from '../run/prepare-target.ts';

export async function cleanupCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    target: { type: 'string' },
    'tls-ca': { type: 'string' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'tls-skip-verify': { type: 'boolean', default: false },
  });
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
