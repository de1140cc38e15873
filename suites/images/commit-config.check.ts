/**
 * The config body of POST /commit (spec/2 §4.1), one check per field or group of flags: the image
 * committed with the field shows it in its image config (its inspect's Config, or ContainerConfig where it has none: imageConfig). The container is committed as created,
 * never started. `Mounts` belongs to no image config (an image keeps Volumes): a commit that carries it
 * is taken, and the image made.
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
}

const CASES: ConfigCase[] = [
  { name: 'hostname', body: { Hostname: 'committed-host' } },
  { name: 'domainname', body: { Domainname: 'committed.example.invalid' } },
  { name: 'user', body: { User: '1000:1000' } },
  { name: 'attach-flags', body: { AttachStdin: true, AttachStdout: true, AttachStderr: true } },
  { name: 'stdin-flags', body: { Tty: true, OpenStdin: true, StdinOnce: true } },
  { name: 'env', body: { Env: ['SHIPSHAPE_COMMITTED=yes'] }, shows: (expect) => ({ Env: expect.arrayContaining(['SHIPSHAPE_COMMITTED=yes']) }) },
  { name: 'network-disabled', body: { NetworkDisabled: true } },
  { name: 'exposed-ports', body: { ExposedPorts: { '7000/tcp': {} } }, shows: (expect) => ({ ExposedPorts: expect.objectContaining({ '7000/tcp': {} }) }) },
  { name: 'mounts', body: { Mounts: [{ Source: '/tmp', Destination: '/data', Mode: 'ro', RW: false }] }, shows: () => ({}) },
];

for (const { name, body, shows } of CASES) {
  const fields = Object.keys(body);
  check(`images.commit.config-${name}`, {
    title: fields.includes('Mounts')
      ? 'a commit whose config body carries Mounts answers 201 and makes the image'
      : `an image committed with ${fields.join(', ')} in the config body shows it in its Config`,
    spec: '2 §4.1',
    since: '1.18',
    tags: ['state'],
    covers: fields.map((field) => `2:POST /commit:body:${field}`),
  }, async (context) => {
    const container = await createdContainer(context);
    const res = await commit(context, container, { config: body });
    context.expect(res.status, `POST /commit status: ${res.describe()}`).toBe(201);
    const image = await inspectImage(context, res.json<{ Id: string }>().Id);
    context.expect(imageConfig(image), `the Config of the image committed with ${JSON.stringify(body)}`).toMatchObject(shows ? shows(context.expect) : body);
  });
}
