/**
 * How POST /containers/create reads its body: a field whose value is not of the JSON type spec/1 §2.3
 * gives it is a bad parameter (400, §7.2), and so is a Binds entry in none of §2.3's forms; each check
 * also sends the right value, so a target that refuses everything fails too. What dockerd adds (Go's
 * decoder: field names in any case, its words for a type error) is docker-level.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { before } from '../../protocol/versions.ts';
import { createContainer } from '../container-steps.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';

const SEEN = 'dockerd 20.10.24';

/** Creates `true` with each body's extra fields and compares the statuses with the expected ones, keyed by the JSON sent. */
async function expectStatuses(context: CheckContext, cases: [fields: Record<string, unknown>, status: number][]): Promise<void> {
  const seen: Record<string, number> = {};
  const expected: Record<string, number> = {};
  for (const [fields, status] of cases) {
    const key = JSON.stringify(fields);
    const res = await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'], ...fields });
    if (status === 400 && res.status === 400) expectErrorBodyOfVersion(context, res);
    seen[key] = res.status;
    expected[key] = status;
  }
  context.expect(seen, `create status per body: ${JSON.stringify(seen)}`).toEqual(expected);
}

check('containers.create.wrong-json-type', {
  title: 'a create whose fields are not of their JSON types (a string for a boolean, a fraction for an integer, a number for HostPort) answers 400',
  spec: '1 §2.3, §4.1, §7.1, §7.2',
  quote: [
    '| Tty | boolean |',
    '| Env | array of string |',
    '| Labels | object string to string |',
    '| Privileged | boolean |',
    '| CpuShares | integer |',
    'key `<port>/<protocol>` mapped to array of {HostPort: string}; the port is a string, not an integer',
    '400 bad parameter',
    '| POST /containers/create |',
    '201 {Id, Warnings}',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['1:POST /containers/create:status:400'],
}, async (context) => {
  await expectStatuses(context, [
    [{ Tty: 'yes' }, 400],
    [{ Env: 'A=1' }, 400],
    [{ Labels: { tier: 1 } }, 400],
    [{ HostConfig: { Privileged: 'yes' } }, 400],
    [{ HostConfig: { CpuShares: 1.5 } }, 400],
    // §2.3: "the port is a string, not an integer"
    [{ ExposedPorts: { '80/tcp': {} }, HostConfig: { PortBindings: { '80/tcp': [{ HostPort: 8080 }] } } }, 400],
    [{ Tty: false, Env: ['A=1'], Labels: { tier: 'web' }, HostConfig: { Privileged: false, CpuShares: 512 } }, 201],
  ]);
});

check('containers.create.bind-invalid', {
  title: 'a create whose HostConfig.Binds holds an entry in none of the forms of §2.3 (four colon-separated parts, only colons) answers 400',
  spec: '1 §2.3, §4.1, §7.1, §7.2',
  quote: [
    '| Binds | array of string | forms: host_path:container_path; host_path:container_path:ro; volume_name:container_path; volume_name:container_path:ro; up to 1.24 also a bare container_path creating a new volume |',
    '400 bad parameter',
    '| POST /containers/create |',
    '201 {Id, Warnings}',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['1:POST /containers/create:body:HostConfig.Binds', '1:POST /containers/create:status:400'],
}, async (context) => {
  await expectStatuses(context, [
    // Not a relative container path ("/tmp:relative"): §2.3 does not say container_path must be absolute.
    [{ HostConfig: { Binds: ['/tmp:/mnt/shipshape-bind:ro:ro'] } }, 400],
    [{ HostConfig: { Binds: ['::'] } }, 400],
    [{ HostConfig: { Binds: ['/tmp:/mnt/shipshape-bind:ro'] } }, 201],
  ]);
});

check('containers.create.field-names-any-case', {
  title: 'a create whose field names are written in another case (image, cmd, hostconfig.privileged) is read as Go reads JSON: the fields are taken',
  spec: '1 §2.3',
  // §2.3 names the fields; that other cases name them too is Go's encoding/json, which dockerd decodes with.
  level: 'docker',
  seen: SEEN,
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const res = await createContainer(context, { image: context.session.fixtureImage, cmd: ['true'], hostconfig: { privileged: true } });
  context.expect(res.status, `POST /containers/create status: ${res.describe()}`).toBe(201);
  const inspected = await context.engine.get(`/containers/${res.json<{ Id: string }>().Id}/json`);
  const { Config, HostConfig } = inspected.json<{ Config: { Cmd: string[] | null }; HostConfig: { Privileged: boolean } }>();
  context.expect({ Cmd: Config.Cmd, Privileged: HostConfig.Privileged }, 'inspect Config.Cmd and HostConfig.Privileged').toEqual({ Cmd: ['true'], Privileged: true });
});

check('containers.create.type-error-words', {
  title: "a create with HostConfig.Privileged \"yes\" is refused in Go's words: json: cannot unmarshal string into Go struct field HostConfig.HostConfig.Privileged of type bool",
  spec: '1 §7.1',
  // §7.1 fixes the body's format, not its words; these are encoding/json's, as dockerd answers (with 500 there, so the status is not asserted).
  level: 'docker',
  seen: SEEN,
  since: '1.18',
  tags: ['error'],
}, async (context) => {
  const res = await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'], HostConfig: { Privileged: 'yes' } });
  const message = before(context.version, '1.24') ? res.text().trim() : res.json<{ message?: unknown }>().message;
  context.expect(message, `error message: ${res.describe()}`).toBe('json: cannot unmarshal string into Go struct field HostConfig.HostConfig.Privileged of type bool');
});
