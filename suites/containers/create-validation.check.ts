/**
 * What POST /containers/create refuses (spec/1 §2.3, §7.3, §8): a missing command, resource values
 * outside their limits, an invalid hostname; and the one value with a special meaning, Entrypoint [""].
 * Each range check also sends the limits themselves, so a target that refuses everything fails too.
 */
import tar from 'tar-stream';
import { check, type CheckContext } from '../../harness/check.ts';
import { CLEAN_UP } from '../../harness/resources.ts';
import { NonConformingResponse } from '../../harness/client/api-response.ts';
import { before, type ApiVersion } from '../../protocol/versions.ts';
import { containerState, createContainer, exitedContainer, loggedStdout } from '../container-steps.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { imageConfig, type ImageInspect } from '../image-steps.ts';

const MIB = 1024 * 1024;

/** The status of a create of `true` with this HostConfig. */
async function statusWith(context: CheckContext, hostConfig: Record<string, unknown>): Promise<number> {
  return (await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'], HostConfig: hostConfig })).status;
}

type StatusCase = [hostConfig: Record<string, unknown>, status: number];

/** Creates with each HostConfig and compares the statuses with the expected ones, keyed by the JSON sent. */
async function expectStatuses(context: CheckContext, cases: StatusCase[]): Promise<void> {
  const seen: Record<string, number> = {};
  const expected: Record<string, number> = {};
  for (const [hostConfig, status] of cases) {
    const key = `HostConfig ${JSON.stringify(hostConfig)}`;
    seen[key] = await statusWith(context, hostConfig);
    expected[key] = status;
  }
  context.expect(seen, `create status per HostConfig: ${JSON.stringify(seen)}`).toEqual(expected);
}

/** A one-directory image without Cmd or Entrypoint, removed after the check. */
async function importImageWithoutCmd({ engine, make }: CheckContext): Promise<string> {
  const pack = tar.pack();
  pack.entry({ name: 'tmp/', type: 'directory', mode: 0o1777, mtime: new Date(0) });
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  const repository = make.uniqueName('nocmd').toLowerCase();
  const res = await engine.post('/images/create', {
    query: { fromSrc: '-', repo: repository, tag: 'latest' },
    headers: { 'content-type': 'application/x-tar' },
    body: Buffer.concat(chunks),
  });
  make.track(`image ${repository}:latest`, async () => {
    await engine.unversioned(CLEAN_UP).delete(`/images/${repository}:latest`, { query: { force: 1 } });
  });
  // The import answers 200 with a JSON progress stream; a failure can hide inside it.
  if (res.status !== 200 || /"error"/.test(res.text())) {
    throw new NonConformingResponse(`no image without Cmd to create from: the fixture image has a Cmd and importing one failed: ${res.describe()}`);
  }
  return `${repository}:latest`;
}

/** The fixture image when it has no Cmd (an imported rootfs has none), else an imported one that has none. */
async function imageWithoutCmd(context: CheckContext): Promise<string> {
  const { fixtureImage } = context.session;
  const res = await context.engine.get(`/images/${encodeURIComponent(fixtureImage)}/json`);
  if (res.status !== 200) throw new Error(`setup: GET /images/${fixtureImage}/json answered ${res.status}`);
  const config = imageConfig(res.json<ImageInspect>());
  if (!config.Cmd?.length && !config.Entrypoint?.length) return fixtureImage;
  return importImageWithoutCmd(context);
}

check('containers.create.no-cmd', {
  title: 'creating a container with no command, on an image without one, answers 400 from 1.24 and 500 before',
  spec: '1 §7.3',
  quote: ['From 1.24, creating a container without a command returns 400 (earlier 500).'],
  since: '1.18',
  tags: ['error', 'version'],
  covers: ['1:POST /containers/create:status:400', '1:POST /containers/create:status:500', '1:version-rule:1.24:create-without-command-400'],
}, async (context) => {
  const image = await imageWithoutCmd(context);
  const res = await createContainer(context, { Image: image });
  context.expect(res.status, `status at ${context.version}`).toBe(before(context.version, '1.24') ? 500 : 400);
});

/** Range rules of HostConfig fields: each sends values outside the range and the limits themselves. */
const RANGE_RULES: { id: string; title: string; covers: string[]; spec: string; quote: string[]; since: ApiVersion; requires?: string[]; cases: StatusCase[] }[] = [
  {
    id: 'containers.create.blkio-weight-range',
    title: 'HostConfig.BlkioWeight outside 10–1000 answers 400; 10 and 1000 are accepted',
    covers: ['1:POST /containers/create:body:HostConfig.BlkioWeight', '1:POST /containers/create:status:400'],
    spec: '1 §8, §4.1, §7.2',
    quote: ['| BlkioWeight | 10 to 1000 |', '400 bad parameter', '| POST /containers/create |', '201 {Id, Warnings}'],
    since: '1.18',
    // Only a host with a block I/O weight keeps one: elsewhere a daemon may drop the field with a warning.
    requires: ['blkio-weight'],
    cases: [
      [{ BlkioWeight: 9 }, 400],
      [{ BlkioWeight: 1001 }, 400],
      [{ BlkioWeight: 10 }, 201],
      [{ BlkioWeight: 1000 }, 201],
    ],
  },
  {
    id: 'containers.create.memory-swappiness-range',
    title: 'HostConfig.MemorySwappiness outside 0–100 answers 400; 0 and 100 are accepted',
    covers: ['1:POST /containers/create:body:HostConfig.MemorySwappiness', '1:POST /containers/create:status:400'],
    spec: '1 §8, §4.1, §7.2',
    quote: ['| MemorySwappiness | 0 to 100 |', '400 bad parameter', '| POST /containers/create |', '201 {Id, Warnings}'],
    since: '1.18',
    // Not -1: Docker clients up to 1.13 send it by default, meaning "not set", and daemons accept it.
    cases: [
      [{ MemorySwappiness: -2 }, 400],
      [{ MemorySwappiness: 101 }, 400],
      [{ MemorySwappiness: 0 }, 201],
      [{ MemorySwappiness: 100 }, 201],
    ],
  },
  {
    id: 'containers.create.kernel-memory-minimum',
    title: 'HostConfig.KernelMemory below 4M (under either reading of 4M) answers 400 from 1.22; 4 MiB is accepted',
    covers: ['1:POST /containers/create:body:HostConfig.KernelMemory', '1:POST /containers/create:status:400', '1:version-rule:1.22:kernel-memory-minimum'],
    spec: '1 §8, §4.1, §7.2',
    quote: ['| KernelMemory minimum (from 1.22) | 4M |', '400 bad parameter', '| POST /containers/create |', '201 {Id, Warnings}'],
    since: '1.22',
    // "4M" may be 4 000 000 bytes or 4 MiB: below the one, or at the other, the answer is the same under both.
    cases: [
      [{ KernelMemory: 1 * MIB }, 400],
      [{ KernelMemory: 4_000_000 - 1 }, 400],
      [{ KernelMemory: 4 * MIB }, 201],
    ],
  },
  {
    id: 'containers.create.memory-swap-below-memory',
    title: 'HostConfig.MemorySwap smaller than Memory answers 400; a larger one and -1 (unlimited) are accepted',
    covers: ['1:POST /containers/create:body:HostConfig.Memory', '1:POST /containers/create:body:HostConfig.MemorySwap', '1:POST /containers/create:status:400'],
    spec: '1 §2.3, §4.1, §7.2',
    quote: ['| MemorySwap | integer | memory plus swap; -1 means unlimited swap; must be used with Memory and be larger than it |', '400 bad parameter', '| POST /containers/create |', '201 {Id, Warnings}'],
    since: '1.18',
    cases: [
      [{ Memory: 64 * MIB, MemorySwap: 32 * MIB }, 400],
      [{ Memory: 64 * MIB, MemorySwap: 128 * MIB }, 201],
      [{ Memory: 64 * MIB, MemorySwap: -1 }, 201],
    ],
  },
  {
    id: 'containers.create.shm-size-negative',
    title: 'HostConfig.ShmSize below 0 answers 400 at 1.25; a positive size is accepted',
    covers: ['1:POST /containers/create:body:HostConfig.ShmSize', '1:POST /containers/create:status:400'],
    spec: '1 §8, §4.1, §7.2',
    quote: ['| ShmSize | greater than 0; default 64 MB |', '400 bad parameter', '| POST /containers/create |', '201 {Id, Warnings}'],
    since: '1.25',
    // Not 0: Go clients always send ShmSize, 0 when the user set none, and daemons read it as the 64 MB default.
    cases: [
      [{ ShmSize: -1 }, 400],
      [{ ShmSize: 1 * MIB }, 201],
    ],
  },
];

for (const { id, cases, ...meta } of RANGE_RULES) {
  check(id, { ...meta, tags: ['error'] }, (context) => expectStatuses(context, cases));
}

check('containers.create.hostname-invalid', {
  title: 'a Hostname that is not a valid RFC 1123 hostname answers 400 from 1.24; a valid one is accepted',
  spec: '1 §2.3, §4.1, §7.2',
  quote: ['| Hostname | string | hostname; from 1.24 it must be a valid RFC 1123 hostname', '400 bad parameter', '| POST /containers/create |', '201 {Id, Warnings}'],
  since: '1.24',
  tags: ['error', 'version'],
  covers: ['1:POST /containers/create:body:Hostname', '1:POST /containers/create:status:400', '1:version-rule:1.24:hostname-validation'],
}, async (context) => {
  const statuses: Record<string, number> = {};
  for (const hostname of ['bad_host!', 'good-host']) {
    statuses[hostname] = (await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'], Hostname: hostname })).status;
  }
  context.expect(statuses, `create status per Hostname: ${JSON.stringify(statuses)}`).toEqual({ 'bad_host!': 400, 'good-host': 201 });
});

check('containers.create.entrypoint-reset', {
  title: 'Entrypoint [""] resets the entrypoint to the system default at 1.25: the container runs as one created with no Entrypoint',
  spec: '1 §2.3, §4.1, §4.4',
  quote: [
    '| Entrypoint | string or array of string | entry point; [1.25] an array of exactly one empty string resets it to the system default |',
    '| LogConfig | object | {Type, Config}; Type values: json-file,',
    '| GET /containers/{id_or_name}/logs |',
    'stream, see 4.4; only for containers using the json-file or journald log drivers',
    'When Tty is disabled, the stream is multiplexed into frames.',
  ],
  since: '1.25',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:Entrypoint', '1:POST /containers/create:body:Cmd', '1:version-rule:1.25:entrypoint-reset'],
}, async (context) => {
  // What "the system default" entrypoint is the spec does not say: whatever it is, a container of Entrypoint [""] runs as
  // one given no Entrypoint at all. The fixture image has no entrypoint of its own; an entrypoint "" not taken as the reset
  // would be run as a command, and fail. The json-file log driver is named: logs serve only json-file and journald.
  const run = async (entrypoint: Record<string, unknown>) => {
    const id = await exitedContainer(context, { ...entrypoint, Cmd: ['echo', 'hi'], Tty: false, HostConfig: { LogConfig: { Type: 'json-file', Config: {} } } });
    return { stdout: await loggedStdout(context, id), ExitCode: (await containerState(context, id)).ExitCode };
  };
  const reset = await run({ Entrypoint: [''] });
  const unset = await run({});
  context.expect(reset, `the container of Entrypoint [""] and Cmd ["echo", "hi"] (${JSON.stringify(reset)}) against one of no Entrypoint (${JSON.stringify(unset)})`).toEqual(unset);
});

check('containers.create.unknown-image', {
  title: 'creating a container of an image the target does not have answers 404 with the error body of the version',
  spec: '1 §4.1, §7.1, §7.2',
  quote: [
    '| POST /containers/create | name (must match `/?[a-zA-Z0-9_-]+`) | creation body (2.3) | 201 {Id, Warnings} | 201, 400, 404, 406, 409, 500 |',
    '404 no such container, image, exec instance, volume, network, service or task',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['1:POST /containers/create:body:Image', '1:POST /containers/create:status:404'],
}, async (context) => {
  const image = `${context.make.uniqueName('noimage').toLowerCase()}:latest`;
  const res = await createContainer(context, { Image: image, Cmd: ['true'] });
  context.expect(res.status, `create status for Image ${image}: ${res.text().trim()}`).toBe(404);
  expectErrorBodyOfVersion(context, res);
});
