/**
 * The config body of POST /commit (spec/2 §4.1), one check per field or group of flags: the image
 * committed with the field shows it in its image config (its inspect's Config, or ContainerConfig where it has none: imageConfig). The container is committed as created,
 * never started. `Mounts` belongs to no image config (an image keeps Volumes), and Domainname,
 * NetworkDisabled and ExposedPorts are not among the ContainerConfig fields of image inspect (spec/2
 * §2.1): a commit that carries one of those is taken, and the image made. At docker level: the image's
 * Config shows those three (as dockerd).
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { createdContainer } from '../container-steps.ts';
import { commit, imageConfig, inspectImage } from '../image-steps.ts';

interface ConfigCase {
  /** the check id's last part */
  name: string;
  /** the body's fields */
  body: Record<string, unknown>;
  /** what the image's Config must hold: the body's fields unless told */
  shows?: (expect: CheckContext['expect']) => Record<string, unknown>;
  /** false for a field image inspect has no place for (spec/2 §2.1): the commit is only taken */
  shown?: false;
}

const CASES: ConfigCase[] = [
  { name: 'hostname', body: { Hostname: 'committed-host' } },
  { name: 'domainname', body: { Domainname: 'committed.example.invalid' }, shown: false },
  { name: 'user', body: { User: '1000:1000' } },
  { name: 'attach-flags', body: { AttachStdin: true, AttachStdout: true, AttachStderr: true } },
  { name: 'stdin-flags', body: { Tty: true, OpenStdin: true, StdinOnce: true } },
  { name: 'env', body: { Env: ['SHIPSHAPE_COMMITTED=yes'] }, shows: (expect) => ({ Env: expect.arrayContaining(['SHIPSHAPE_COMMITTED=yes']) }) },
  { name: 'network-disabled', body: { NetworkDisabled: true }, shown: false },
  { name: 'exposed-ports', body: { ExposedPorts: { '7000/tcp': {} } }, shown: false },
  { name: 'mounts', body: { Mounts: [{ Source: '/tmp', Destination: '/data', Mode: 'ro', RW: false }] }, shown: false },
];

for (const { name, body, shows, shown } of CASES) {
  const fields = Object.keys(body);
  check(`images.commit.config-${name}`, {
    title: shown === false
      ? `a commit whose config body carries ${fields.join(', ')} answers 201 and makes the image (image inspect has no field for it)`
      : `an image committed with ${fields.join(', ')} in the config body shows it in its Config`,
    spec: '2 §4.1, §2.1',
    quote: [
      '| POST /commit |',
      'JSON container configuration (Hostname, Domainname, User, Attach flags, Tty, OpenStdin, StdinOnce, Env, Cmd, Mounts, Labels, WorkingDir, NetworkDisabled, ExposedPorts)',
      '201 {Id} | 201, 404, 500 |',
      'ContainerConfig (object with Hostname, User, AttachStdin, AttachStdout, AttachStderr, Tty, OpenStdin, StdinOnce, Env, Cmd, Dns, Image, Labels, Volumes, VolumesFrom, WorkingDir)',
    ],
    since: '1.18',
    tags: ['state'],
    covers: fields.map((field) => `2:POST /commit:body:${field}`),
  }, async (context) => {
    const container = await createdContainer(context);
    const res = await commit(context, container, { config: body });
    context.expect(res.status, `POST /commit status: ${res.describe()}`).toBe(201);
    const image = await inspectImage(context, res.json<{ Id: string }>().Id);
    context.expect(imageConfig(image), `the Config of the image committed with ${JSON.stringify(body)}`).toMatchObject(shown === false ? {} : shows ? shows(context.expect) : body);
  });
}

check('images.commit.config-not-in-inspect-shown', {
  title: 'an image committed with Domainname, NetworkDisabled and ExposedPorts in the config body shows them in its Config (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const container = await createdContainer(context);
  const body = { Domainname: 'committed.example.invalid', NetworkDisabled: true, ExposedPorts: { '7000/tcp': {} } };
  const res = await commit(context, container, { config: body });
  context.expect(res.status, `POST /commit status: ${res.describe()}`).toBe(201);
  const config = imageConfig(await inspectImage(context, res.json<{ Id: string }>().Id)) as Record<string, unknown>;
  context.expect({ Domainname: config.Domainname, NetworkDisabled: config.NetworkDisabled, ExposedPorts: config.ExposedPorts }, `the Config of the image committed with ${JSON.stringify(body)}`).toEqual(body);
});
