/**
 * `shipshape cleanup --target …`: removes what crashed runs left behind — containers labelled
 * `shipshape.run`, and fixture images this tool imported that nothing uses any more.
 */
import { parseFlags } from './parse-flags.ts';
import { parseTarget, TargetError } from '../target.ts';
import { EngineClient } from '../client/engine-client.ts';
import { createDispatcher } from '../client/dispatcher.ts';
import { RUN_LABEL } from '../resources.ts';
import { FIXTURE_REPOSITORY } from '../../fixtures/busybox-rootfs.ts';

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
  const dispatcher = createDispatcher(target.connection);
  const engine = new EngineClient(target.connection, dispatcher, undefined);
  try {
    const listed = await engine.get('/containers/json', { query: { all: 1, filters: JSON.stringify({ label: [RUN_LABEL] }) } }).catch((error: { cause?: { code?: string } }) => {
      throw new TargetError(`cannot reach ${target.url}: ${error.cause?.code ?? String(error)}`);
    });
    if (listed.status !== 200) throw new TargetError(`listing containers failed: ${listed.describe()}`);
    let removed = 0;
    for (const { Id } of listed.json<{ Id: string }[]>()) {
      const res = await engine.delete(`/containers/${Id}`, { query: { force: 1, v: 1 } });
      if (res.status === 204 || res.status === 404) removed += 1;
      else console.error(`could not remove container ${Id.slice(0, 12)}: ${res.describe()}`);
    }
    const images = await engine.get('/images/json', { query: { filter: FIXTURE_REPOSITORY } });
    for (const image of images.status === 200 ? images.json<{ Id: string }[]>() : []) {
      // Without force: an image a container still uses is someone's, not a leftover.
      const res = await engine.delete(`/images/${image.Id}`);
      if (res.status === 200) removed += 1;
    }
    console.log(`cleanup: removed ${removed} leftover object(s) from ${target.url}`);
    return 0;
  } finally {
    await dispatcher.close();
  }
}
