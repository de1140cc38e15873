import { check } from '../../harness/check.ts';
import type { CheckContext } from '../../harness/check.ts';
import { createContainer } from '../container-steps.ts';

/**
 * Whether GET /containers/json?all=<value> lists a created (never started) container; a refusal of
 * the value is the target's answer too, so it is shown (`refused 500`) and judged, not an error.
 */
async function listsStopped({ engine, make, session }: CheckContext): Promise<(value: string) => Promise<boolean | string>> {
  const id = await make.container({ Image: session.fixtureImage, Cmd: ['true'] });
  return async (value) => {
    const res = await engine.get('/containers/json', { query: { all: value } });
    if (res.status !== 200) return `refused ${res.status}`;
    return res.json<{ Id: string }[]>().some((item) => item.Id === id);
  };
}

async function readings(context: CheckContext, values: string[]): Promise<Record<string, boolean | string>> {
  const lists = await listsStopped(context);
  return Object.fromEntries(await Promise.all(values.map(async (value) => [value, await lists(value)] as const)));
}

check('system.query.booleans', {
  title: 'boolean query values 1, True, true read as true and 0, False, false as false',
  spec: '1 §4',
  quote: ['Boolean query parameters accept 1, True, true or 0, False, false.', 'all (boolean, default false: only running are listed)'],
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const seen = await readings(context, ['1', 'True', 'true', '0', 'False', 'false']);
  context.expect(seen, 'all=<value> lists a created container').toEqual({
    1: true, True: true, true: true, 0: false, False: false, false: false,
  });
});

check('system.query.booleans-other-values', {
  title: 'other boolean query values read as dockerd reads them: empty, no and none false, anything else true',
  spec: '1 §4',
  // The spec names 1, True, true, 0, False, false only: any other value is dockerd's reading.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const seen = await readings(context, ['yes', 'on', '2', 'no', 'none', '']);
  context.expect(seen, 'all=<value> lists a created container').toEqual({ yes: true, on: true, 2: true, no: false, none: false, '': false });
});

check('system.json.unknown-properties', {
  title: 'unknown properties in a JSON request body are ignored',
  spec: '1 §1',
  quote: ['Open schema: the daemon ignores unknown properties in incoming messages.'],
  since: '1.18',
  tags: ['schema'],
}, async (context) => {
  const res = await createContainer(context, {
    Image: context.session.fixtureImage,
    Cmd: ['true'],
    ShipshapeUnknownProperty: { nested: [1, 2, 3] },
    HostConfig: { ShipshapeUnknownHostConfigProperty: true },
  });
  context.expect(res.status, 'status').toBe(201);
});
