/**
 * A container's files as tar archives (spec/1 §4.1 archive, export and copy rows, §2.4 path stat):
 * HEAD and GET /containers/{id}/archive with their path rules, PUT to extract a tar, the export of the
 * whole filesystem, and the old copy endpoint. Most containers are created and never started: the
 * archive endpoints work on the container's filesystem, and no process is needed to read or write it.
 * Tars are parsed and built with tar-stream.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { NonConformingResponse, type ApiResponse } from '../../harness/client/api-response.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { atLeast, before } from '../../protocol/versions.ts';
import { createdContainer, exitedContainer } from '../container-steps.ts';
import { buildTar, readTar, relativeName, TAR_MODES, type TarSource } from '../tar-files.ts';

/** The path stat (spec/1 §2.4): base64 JSON in the dialect's path-stat header. */
interface PathStat {
  name: string;
  size: number;
  mode: number;
  mtime: string;
  linkTarget: string;
}

const PATH_STAT_SCHEMA = {
  type: 'object',
  required: ['name', 'size', 'mode', 'mtime', 'linkTarget'],
  properties: {
    name: { type: 'string' },
    size: { type: 'integer' },
    mode: { type: 'integer' },
    mtime: { type: 'string', format: 'date-time' },
    linkTarget: { type: 'string' },
  },
} as const;

const TAR = 'application/x-tar';

/** A file the fixture image has on every target (DESIGN.md, "The fixture image"). */
const FIXTURE_FILE = '/etc/passwd';

/** A created container of the fixture image, never started. */
function container(context: CheckContext, hostConfig: Record<string, unknown> = {}): Promise<string> {
  return createdContainer(context, { HostConfig: hostConfig });
}

function archivePath(id: string): string {
  return `/containers/${id}/archive`;
}

/** Decodes the path-stat header of an archive answer; an absent or undecodable header fails the check. */
function pathStat(res: ApiResponse, headerName: string): PathStat {
  const header = res.headers[headerName.toLowerCase()];
  if (header === undefined) throw new NonConformingResponse(`${res.describe()}: no ${headerName} header`);
  let stat: unknown;
  try {
    stat = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    throw new NonConformingResponse(`${res.describe()}: ${headerName} is not base64 of JSON: ${JSON.stringify(header)}`);
  }
  assertMatchesSchema(stat, PATH_STAT_SCHEMA, `the ${headerName} object`);
  return stat as PathStat;
}

function putTar({ engine }: CheckContext, id: string, query: Record<string, string | number>, body: Buffer): Promise<ApiResponse> {
  return engine.put(archivePath(id), { query, headers: { 'content-type': TAR }, body });
}

/** PUT that must succeed because it prepares what the check looks at. */
async function extracted(context: CheckContext, id: string, path: string, sources: TarSource[]): Promise<void> {
  const res = await putTar(context, id, { path }, await buildTar(sources));
  context.expect(res.status, `PUT archive?path=${path} status`).toBe(200);
}

/** The one file a GET of a file's path returns. */
async function fileContent(context: CheckContext, id: string, path: string): Promise<Buffer> {
  const res = await context.engine.get(archivePath(id), { query: { path } });
  context.expect(res.status, `GET archive?path=${path} status`).toBe(200);
  const files = (await readTar(res)).filter((entry) => entry.type === 'file');
  context.expect(files.map((entry) => entry.name), `file entries of the tar of ${path}`).toHaveLength(1);
  return files[0]?.data ?? Buffer.alloc(0);
}

check('archive.head.stat', {
  title: 'HEAD archive of a file answers 200 with the path-stat header: base64 JSON {name, size, mode, mtime, linkTarget}',
  spec: '1 §2.4, §4.1',
  quote: ['Archive path stat (response header, see 4): base64 of a JSON object {name: string, size: integer, mode: integer, mtime: timestamp, linkTarget: string}.', '| HEAD /containers/{id_or_name}/archive | path (required) | none | response header `X-Engine-Container-Path-Stat` only | as GET |', '200; 400 (path empty, or path asserted to be a directory but is a file; JSON body gives the detail); 404 (no such container, or no such file or directory); 500'],
  since: '1.20',
  tags: ['schema'],
  covers: [
    '1:HEAD /containers/{id_or_name}/archive',
    '1:HEAD /containers/{id_or_name}/archive:query:path',
    '1:HEAD /containers/{id_or_name}/archive:status:200',
    '1:HEAD /containers/{id_or_name}/archive:header:X-Engine-Container-Path-Stat',
    '1:version-rule:1.20:archive-endpoints',
  ],
}, async (context) => {
  const id = await container(context);
  const res = await context.engine.head(archivePath(id), { query: { path: FIXTURE_FILE } });
  context.expect(res.status, 'status').toBe(200);
  const stat = pathStat(res, context.dialect.pathStatHeader);
  // §2.4 gives name as a string: the base name or the path asked for are both readings (archive.stat.names has dockerd's).
  context.expect(['passwd', FIXTURE_FILE], `name in the stat ${JSON.stringify(stat)}`).toContain(stat.name);
  context.expect(stat.size, 'size of /etc/passwd').toBeGreaterThan(0);
  context.expect(res.body.length, 'body length').toBe(0);
});

check('archive.stat.names', {
  title: 'the path stat names the last element of the path: passwd for /etc/passwd (linkTarget empty), "." for /.',
  // spec/1 §2.4 gives name and linkTarget as strings and no more: which name, and linkTarget of a file that is no link, are dockerd's
  spec: '1 §2.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.20',
  tags: ['schema'],
}, async (context) => {
  const id = await container(context);
  const stat = async (path: string) => {
    const res = await context.engine.head(archivePath(id), { query: { path } });
    context.expect(res.status, `HEAD archive?path=${path} status`).toBe(200);
    const { name, linkTarget } = pathStat(res, context.dialect.pathStatHeader);
    return { name, linkTarget };
  };
  context.expect({ file: await stat(FIXTURE_FILE), root: (await stat('/.')).name }, 'name and linkTarget of /etc/passwd, name of /.')
    .toEqual({ file: { name: 'passwd', linkTarget: '' }, root: '.' });
});

check('archive.get.tar', {
  title: 'GET archive of a file answers 200 application/x-tar holding the file, with the path-stat header',
  spec: '1 §4.1, §2.4',
  quote: ['| GET /containers/{id_or_name}/archive |', 'path (required; relative paths are relative to the container root; must exist; a trailing `/` or `/.` asserts a directory; `/.` copies only the directory contents; symlinks are resolved to the target; system files under /proc, /sys, /dev and user mounts cannot be copied)', '200 `application/x-tar` stream plus header `X-Engine-Container-Path-Stat` (base64 JSON, see 2.4)', 'Archive path stat (response header, see 4): base64 of a JSON object {name: string, size: integer, mode: integer, mtime: timestamp, linkTarget: string}.'],
  since: '1.20',
  tags: ['schema'],
  covers: [
    '1:GET /containers/{id_or_name}/archive',
    '1:GET /containers/{id_or_name}/archive:query:path',
    '1:GET /containers/{id_or_name}/archive:status:200',
    '1:GET /containers/{id_or_name}/archive:header:X-Engine-Container-Path-Stat',
    '1:version-rule:1.20:archive-endpoints',
  ],
}, async (context) => {
  const id = await container(context);
  const res = await context.engine.get(archivePath(id), { query: { path: FIXTURE_FILE } });
  context.expect(res.status, 'status').toBe(200);
  context.expect(res.contentType, 'Content-Type').toBe(TAR);
  const stat = pathStat(res, context.dialect.pathStatHeader);
  const entries = (await readTar(res)).map(({ name, type, size }) => ({ name: relativeName(name), type, size }));
  context.expect(entries, `tar entries (stat: ${JSON.stringify(stat)})`).toEqual([{ name: 'passwd', type: 'file', size: stat.size }]);
});

/** The path stat of /bin/sh, which the fixture image links to busybox in the same directory. */
async function shellStat(context: CheckContext): Promise<PathStat> {
  const id = await container(context);
  const res = await context.engine.head(archivePath(id), { query: { path: '/bin/sh' } });
  context.expect(res.status, 'status').toBe(200);
  return pathStat(res, context.dialect.pathStatHeader);
}

check('archive.stat.symlink', {
  title: 'the path stat of a symlink either names the link with its target (/bin/sh → busybox or /bin/busybox) or, the link resolved, is the target\'s (linkTarget empty, the target\'s size)',
  spec: '1 §4.1, §2.4',
  quote: ['| HEAD /containers/{id_or_name}/archive | path (required) | none | response header `X-Engine-Container-Path-Stat` only | as GET |', 'path (required; relative paths are relative to the container root; must exist; a trailing `/` or `/.` asserts a directory; `/.` copies only the directory contents; symlinks are resolved to the target; system files under /proc, /sys, /dev and user mounts cannot be copied)', 'Archive path stat (response header, see 4): base64 of a JSON object {name: string, size: integer, mode: integer, mtime: timestamp, linkTarget: string}.'],
  since: '1.20',
  tags: ['schema'],
  covers: ['1:HEAD /containers/{id_or_name}/archive:query:path', '1:HEAD /containers/{id_or_name}/archive:header:X-Engine-Container-Path-Stat'],
}, async (context) => {
  // §2.4 gives the stat a linkTarget, while §4.1 says symlinks are resolved to the target: either reading.
  // The name (§2.4: "name: string") may be the link's or the target's, base name or path; the link's
  // target as the link has it or resolved in the container. The stat of the link names its target; the
  // stat of the resolved target may name the link target too or leave it empty (what linkTarget holds for
  // a path that is not a link §2.4 does not say), and then it is the target's: the target's size.
  const id = await container(context);
  const statOf = async (path: string) => {
    const res = await context.engine.head(archivePath(id), { query: { path } });
    context.expect(res.status, `HEAD archive?path=${path} status`).toBe(200);
    return pathStat(res, context.dialect.pathStatHeader);
  };
  const { name, linkTarget, size } = await statOf('/bin/sh');
  const named = ['sh', '/bin/sh', 'busybox', '/bin/busybox'].includes(name);
  const theLink = ['busybox', '/bin/busybox'].includes(linkTarget);
  const theTarget = linkTarget === '' && size === (await statOf('/bin/busybox')).size;
  context.expect(named && (theLink || theTarget), `the stat of /bin/sh names the link with its target, or is the target's: ${JSON.stringify({ name, linkTarget, size })}`).toBe(true);
});

check('archive.stat.symlink-link-target', {
  title: 'the path stat of a symlink names the link and gives its target resolved in the container: /bin/sh → /bin/busybox (as dockerd)',
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.20',
  tags: ['schema'],
}, async (context) => {
  const { name, linkTarget } = await shellStat(context);
  context.expect({ name, linkTarget }, 'name and linkTarget of /bin/sh').toEqual({ name: 'sh', linkTarget: '/bin/busybox' });
});

check('archive.get.symlink-resolved', {
  title: 'a path through a symlinked directory resolves to the target: /tmp/link/passwd with link → /etc gives /etc/passwd',
  spec: '1 §4.1',
  quote: ['| GET /containers/{id_or_name}/archive |', 'path (required; relative paths are relative to the container root; must exist; a trailing `/` or `/.` asserts a directory; `/.` copies only the directory contents; symlinks are resolved to the target; system files under /proc, /sys, /dev and user mounts cannot be copied)', '200 `application/x-tar` stream plus header `X-Engine-Container-Path-Stat` (base64 JSON, see 2.4)', '| PUT /containers/{id_or_name}/archive |', 'path (required, an existing directory), noOverwriteDirNonDir (1, true or True makes replacing a directory by a non-directory or the reverse an error); header Content-Type `application/x-tar`', '| tar stream | 200 empty |'],
  since: '1.20',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/archive:query:path'],
}, async (context) => {
  const id = await container(context);
  await extracted(context, id, '/tmp', [{ kind: 'symlink', name: 'link', target: '/etc' }]);
  const throughLink = await fileContent(context, id, '/tmp/link/passwd');
  const direct = await fileContent(context, id, FIXTURE_FILE);
  context.expect(throughLink.toString('utf8'), 'content of /tmp/link/passwd').toBe(direct.toString('utf8'));
});

check('archive.get.directory-contents', {
  title: 'GET archive of DIR holds DIR itself, a directory entry, with everything else under it; of DIR/. only the contents',
  spec: '1 §4.1',
  quote: ['| GET /containers/{id_or_name}/archive |', 'path (required; relative paths are relative to the container root; must exist; a trailing `/` or `/.` asserts a directory; `/.` copies only the directory contents; symlinks are resolved to the target; system files under /proc, /sys, /dev and user mounts cannot be copied)', '200 `application/x-tar` stream plus header `X-Engine-Container-Path-Stat` (base64 JSON, see 2.4)'],
  since: '1.20',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/archive:query:path'],
}, async (context) => {
  const id = await container(context);
  const entries = async (path: string) => {
    const res = await context.engine.get(archivePath(id), { query: { path } });
    context.expect(res.status, `GET archive?path=${path} status`).toBe(200);
    return (await readTar(res)).map((entry) => ({ name: relativeName(entry.name), type: entry.type })).filter(({ name }) => name !== '' && name !== '.');
  };
  const whole = await entries('/etc');
  const contents = (await entries('/etc/.')).map((entry) => entry.name);
  context.expect({
    wholeTop: whole.filter((entry) => entry.name === 'etc'),
    wholeUnderEtc: whole.every(({ name }) => name === 'etc' || name.startsWith('etc/')),
    wholeHasPasswd: whole.some(({ name }) => name === 'etc/passwd'),
    contentsUnderEtc: contents.some((name) => name === 'etc' || name.startsWith('etc/')),
    contentsHasPasswd: contents.includes('passwd'),
  }, `entries of /etc: ${JSON.stringify(whole.map((entry) => entry.name))}; of /etc/.: ${JSON.stringify(contents)}`).toEqual({
    wholeTop: [{ name: 'etc', type: 'directory' }],
    wholeUnderEtc: true,
    wholeHasPasswd: true,
    contentsUnderEtc: false,
    contentsHasPasswd: true,
  });
});

check('archive.get.trailing-slash-file', {
  title: 'GET archive of a file path with a trailing / (asserting a directory) answers 400, with a JSON message from 1.24',
  spec: '1 §4.1, §7.1',
  quote: ['| GET /containers/{id_or_name}/archive |', 'path (required; relative paths are relative to the container root; must exist; a trailing `/` or `/.` asserts a directory; `/.` copies only the directory contents; symlinks are resolved to the target; system files under /proc, /sys, /dev and user mounts cannot be copied)', '200; 400 (path empty, or path asserted to be a directory but is a file; JSON body gives the detail); 404 (no such container, or no such file or directory); 500', 'From 1.24 the response body is JSON: an object with a single string field `message`.'],
  since: '1.20',
  tags: ['error'],
  covers: ['1:GET /containers/{id_or_name}/archive:query:path', '1:GET /containers/{id_or_name}/archive:status:400', '1:version-rule:1.24:json-errors'],
}, async (context) => {
  const id = await container(context);
  const res = await context.engine.get(archivePath(id), { query: { path: `${FIXTURE_FILE}/` } });
  context.expect(res.status, 'status').toBe(400);
  // Before 1.24 error bodies are plain text (spec/1 §7), whatever the archive row says about JSON.
  if (atLeast(context.version, '1.24')) {
    context.expect(typeof res.json<{ message?: unknown }>().message, 'type of the message field').toBe('string');
  }
});

/**
 * Request → status: a path the archive rows (spec/1 §4.1) refuse, or a container that cannot take the
 * tar, answers the row's status. One request to a created container of the fixture image (with
 * `hostConfig`), after `prepared` is extracted into its /tmp; a PUT sends `tar`, by default a file hello.txt.
 */
for (const { id, hostConfig, prepared, method, query, tar, status, ...meta } of [
  { id: 'archive.get.missing-path', title: 'GET archive of a path that does not exist answers 404', method: 'get', query: { path: '/no-such-file' }, status: 404,
    spec: '1 §4.1', quote: ['| GET /containers/{id_or_name}/archive |', '200; 400 (path empty, or path asserted to be a directory but is a file; JSON body gives the detail); 404 (no such container, or no such file or directory); 500'], covers: ['1:GET /containers/{id_or_name}/archive:query:path', '1:GET /containers/{id_or_name}/archive:status:404'] },
  { id: 'archive.get.empty-path', title: 'GET archive with an empty path answers 400', method: 'get', query: { path: '' }, status: 400,
    spec: '1 §4.1', quote: ['| GET /containers/{id_or_name}/archive |', '200; 400 (path empty, or path asserted to be a directory but is a file; JSON body gives the detail); 404 (no such container, or no such file or directory); 500'], covers: ['1:GET /containers/{id_or_name}/archive:query:path', '1:GET /containers/{id_or_name}/archive:status:400'] },
  { id: 'archive.head.empty-path', title: 'HEAD archive with an empty path answers 400', method: 'head', query: { path: '' }, status: 400,
    spec: '1 §4.1', quote: ['| HEAD /containers/{id_or_name}/archive | path (required) | none | response header `X-Engine-Container-Path-Stat` only | as GET |', '200; 400 (path empty, or path asserted to be a directory but is a file; JSON body gives the detail); 404 (no such container, or no such file or directory); 500'], covers: ['1:HEAD /containers/{id_or_name}/archive:query:path', '1:HEAD /containers/{id_or_name}/archive:status:400'] },
  { id: 'archive.put.file-path', title: 'PUT archive to a path that is a file answers 400', method: 'put', query: { path: FIXTURE_FILE }, status: 400,
    spec: '1 §4.1', quote: ['| PUT /containers/{id_or_name}/archive |', '200; 400 (path empty, path is a file, or overwrite refused); 403 (volume or container rootfs is read-only); 404 (no such container or path); 500'], covers: ['1:PUT /containers/{id_or_name}/archive:query:path', '1:PUT /containers/{id_or_name}/archive:status:400'] },
  { id: 'archive.put.missing-dir', title: 'PUT archive to a directory that does not exist answers 404', method: 'put', query: { path: '/no-such-dir' }, status: 404,
    spec: '1 §4.1', quote: ['| PUT /containers/{id_or_name}/archive |', '200; 400 (path empty, path is a file, or overwrite refused); 403 (volume or container rootfs is read-only); 404 (no such container or path); 500'], covers: ['1:PUT /containers/{id_or_name}/archive:query:path', '1:PUT /containers/{id_or_name}/archive:status:404'] },
  { id: 'archive.put.no-overwrite-dir', title: 'PUT archive with noOverwriteDirNonDir=1 that would replace a directory by a file answers 400', prepared: [{ kind: 'directory', name: 'entry' }], method: 'put', query: { path: '/tmp', noOverwriteDirNonDir: 1 }, tar: [{ kind: 'file', name: 'entry', data: 'not a directory\n' }], status: 400,
    spec: '1 §4.1', quote: ['| PUT /containers/{id_or_name}/archive |', 'path (required, an existing directory), noOverwriteDirNonDir (1, true or True makes replacing a directory by a non-directory or the reverse an error); header Content-Type `application/x-tar`', '200; 400 (path empty, path is a file, or overwrite refused); 403 (volume or container rootfs is read-only); 404 (no such container or path); 500'], covers: ['1:PUT /containers/{id_or_name}/archive:query:noOverwriteDirNonDir', '1:PUT /containers/{id_or_name}/archive:status:400'] },
  { id: 'archive.put.readonly-rootfs', title: 'PUT archive into a container with ReadonlyRootfs answers 403', hostConfig: { ReadonlyRootfs: true }, method: 'put', query: { path: '/tmp' }, status: 403,
    spec: '1 §4.1, §2.3', quote: ['| PUT /containers/{id_or_name}/archive |', '200; 400 (path empty, path is a file, or overwrite refused); 403 (volume or container rootfs is read-only); 404 (no such container or path); 500', '| ReadonlyRootfs | boolean | |'], covers: ['1:PUT /containers/{id_or_name}/archive:status:403', '1:POST /containers/create:body:HostConfig.ReadonlyRootfs'] },
] satisfies { id: string; title: string; spec: string; quote: string[]; covers: string[]; hostConfig?: Record<string, unknown>; prepared?: TarSource[]; method: 'get' | 'head' | 'put'; query: Record<string, string | number>; tar?: TarSource[]; status: number }[]) {
  check(id, { ...meta, since: '1.20', tags: ['error'] }, async (context) => {
    const containerId = await container(context, hostConfig);
    if (prepared) await extracted(context, containerId, '/tmp', prepared);
    const res = method === 'put' ? await putTar(context, containerId, query, await buildTar(tar ?? [{ kind: 'file', name: 'hello.txt', data: 'hello\n' }])) : await context.engine[method](archivePath(containerId), { query });
    context.expect(res.status, 'status').toBe(status);
  });
}

check('archive.put.extract', {
  title: 'PUT archive into an existing directory answers 200 and the file is then readable by GET',
  spec: '1 §4.1',
  quote: ['| PUT /containers/{id_or_name}/archive |', 'path (required, an existing directory), noOverwriteDirNonDir (1, true or True makes replacing a directory by a non-directory or the reverse an error); header Content-Type `application/x-tar`', '| tar stream | 200 empty |', '200; 400 (path empty, path is a file, or overwrite refused); 403 (volume or container rootfs is read-only); 404 (no such container or path); 500', '| GET /containers/{id_or_name}/archive |', '200 `application/x-tar` stream plus header `X-Engine-Container-Path-Stat` (base64 JSON, see 2.4)'],
  since: '1.20',
  tags: ['state'],
  covers: [
    '1:PUT /containers/{id_or_name}/archive',
    '1:PUT /containers/{id_or_name}/archive:query:path',
    '1:PUT /containers/{id_or_name}/archive:body:tar',
    '1:PUT /containers/{id_or_name}/archive:header:Content-Type',
    '1:PUT /containers/{id_or_name}/archive:status:200',
    '1:version-rule:1.20:archive-endpoints',
  ],
}, async (context) => {
  const id = await container(context);
  const text = `extracted by ${context.make.runId}\n`;
  const res = await putTar(context, id, { path: '/tmp' }, await buildTar([{ kind: 'file', name: 'hello.txt', data: text }]));
  context.expect(res.status, 'status').toBe(200);
  const content = await fileContent(context, id, '/tmp/hello.txt');
  context.expect(content.toString('utf8'), 'content of /tmp/hello.txt').toBe(text);
});

check('archive.put.member-outside-refused', {
  title: 'PUT archive with a member whose name climbs out of the destination (`../../x`) is refused (400, or dockerd\'s 500) and nothing is written where it points',
  // spec/1 §4.1 lists no status for it: any refusal (4xx, or the row's 500) is one; a 2xx is not
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.20',
  tags: ['error'],
}, async (context) => {
  const id = await container(context);
  const name = `shipshape-outside-${context.make.runId}`;
  const res = await putTar(context, id, { path: '/tmp' }, await buildTar([{ kind: 'file', name: `../../${name}`, data: 'out\n' }]));
  context.expect([400, 500], `status: ${res.text().trim()}`).toContain(res.status);
  const climbed = await context.engine.head(archivePath(id), { query: { path: `/${name}` } });
  context.expect(climbed.status, `HEAD archive?path=/${name} after the refusal`).toBe(404);
});

check('archive.copy.resource', {
  title: 'POST /containers/{id}/copy returns the Resource as application/x-tar up to 1.23 (deprecated from 1.20) and errors out from 1.24',
  spec: '1 §4.1',
  quote: ['| POST /containers/{id_or_name}/copy | | JSON {Resource: string} | 200 `application/x-tar` stream; deprecated from 1.20; removed at 1.24 and later (the call errors out) | 200, 404, 500 |'],
  since: '1.18',
  tags: ['version'],
  covers: [
    '1:POST /containers/{id_or_name}/copy',
    '1:POST /containers/{id_or_name}/copy:body:Resource',
    '1:POST /containers/{id_or_name}/copy:status:200',
    '1:version-rule:1.20:copy-deprecated',
    '1:version-rule:1.24:copy-removed',
  ],
}, async (context) => {
  const id = await container(context);
  const res = await context.engine.post(`/containers/${id}/copy`, { json: { Resource: FIXTURE_FILE } });
  if (before(context.version, '1.24')) {
    context.expect(res.status, 'status').toBe(200);
    context.expect(res.contentType, 'Content-Type').toBe(TAR);
    // The row gives no naming of the entry: the file's base name, or its path, with or without the leading /.
    const entries = (await readTar(res)).map(({ name, type }) => ({ name: relativeName(name).replace(/^\/+/, ''), type }));
    context.expect(entries.length === 1 && ['passwd', 'etc/passwd'].includes(entries[0]?.name ?? '') && entries[0]?.type === 'file', `tar entries: ${JSON.stringify(entries)}`).toBe(true);
  } else {
    // "Removed at 1.24 and later (the call errors out)": no status is given, only that it fails.
    context.expect(res.status, 'status (an error)').toBeGreaterThanOrEqual(400);
  }
});

check('archive.get.root-contents', {
  title: 'GET archive of /. answers the contents of the root: bin/busybox and etc/passwd at the top of the tar, with the path-stat header',
  spec: '1 §4.1, §2.4',
  quote: ['| GET /containers/{id_or_name}/archive |', 'path (required; relative paths are relative to the container root; must exist; a trailing `/` or `/.` asserts a directory; `/.` copies only the directory contents; symlinks are resolved to the target; system files under /proc, /sys, /dev and user mounts cannot be copied)', '200 `application/x-tar` stream plus header `X-Engine-Container-Path-Stat` (base64 JSON, see 2.4)', 'Archive path stat (response header, see 4): base64 of a JSON object {name: string, size: integer, mode: integer, mtime: timestamp, linkTarget: string}.'],
  since: '1.20',
  tags: ['stream'],
  covers: [
    '1:GET /containers/{id_or_name}/archive:query:path',
    '1:GET /containers/{id_or_name}/archive:status:200',
    '1:GET /containers/{id_or_name}/archive:header:X-Engine-Container-Path-Stat',
  ],
}, async (context) => {
  const id = await container(context);
  const res = await context.engine.get(archivePath(id), { query: { path: '/.' } });
  context.expect(res.status, 'status').toBe(200);
  const stat = pathStat(res, context.dialect.pathStatHeader);
  const names = (await readTar(res)).map((entry) => relativeName(entry.name));
  // The stat's name for /. §2.4 does not give (archive.stat.names has dockerd's).
  context.expect({
    hasBusybox: names.includes('bin/busybox'),
    hasPasswd: names.includes('etc/passwd'),
  }, `stat ${JSON.stringify(stat)}; first entries ${JSON.stringify(names.slice(0, 8))}`).toEqual({ hasBusybox: true, hasPasswd: true });
});

interface RoundTripEntry {
  name: string;
  type: string;
  mode: number;
  linkname: string;
  data: string;
}

/**
 * Extracts a tree (directories, files, a relative symlink) into /tmp of a created container and reads
 * it back by GET: the entries of each, sorted by name, and the order the GET tar had them in.
 */
async function roundTrip(context: CheckContext): Promise<{ back: RoundTripEntry[]; sent: RoundTripEntry[]; order: string[] }> {
  const id = await container(context);
  const tree: TarSource[] = [
    { kind: 'directory', name: 'tree/' },
    { kind: 'file', name: 'tree/file', data: `round trip of ${context.make.runId}\n` },
    { kind: 'symlink', name: 'tree/link', target: 'file' },
    { kind: 'directory', name: 'tree/sub/' },
    { kind: 'file', name: 'tree/sub/deep', data: 'deeper\n' },
  ];
  await extracted(context, id, '/tmp', tree);
  const res = await context.engine.get(archivePath(id), { query: { path: '/tmp/tree' } });
  context.expect(res.status, 'GET archive?path=/tmp/tree status').toBe(200);
  const got = (await readTar(res)).map(({ name, type, mode, linkname, data }) => ({ name: relativeName(name), type, mode, linkname, data: data.toString('utf8') }));
  const sent = tree.map((source) => ({
    name: relativeName(source.name),
    type: source.kind,
    mode: TAR_MODES[source.kind],
    linkname: source.kind === 'symlink' ? source.target : '',
    data: source.kind === 'file' ? Buffer.from(source.data).toString('utf8') : '',
  }));
  const byName = (a: RoundTripEntry, b: RoundTripEntry) => a.name.localeCompare(b.name);
  return { back: [...got].sort(byName), sent: [...sent].sort(byName), order: got.map((entry) => entry.name) };
}

check('archive.put.round-trip', {
  title: 'what PUT archive extracts, GET archive gives back: names, types, contents and link targets of a tree (in any order)',
  spec: '1 §4.1',
  quote: ['| PUT /containers/{id_or_name}/archive |', 'path (required, an existing directory), noOverwriteDirNonDir (1, true or True makes replacing a directory by a non-directory or the reverse an error); header Content-Type `application/x-tar`', '| tar stream | 200 empty |', '| GET /containers/{id_or_name}/archive |', 'path (required; relative paths are relative to the container root; must exist; a trailing `/` or `/.` asserts a directory; `/.` copies only the directory contents; symlinks are resolved to the target; system files under /proc, /sys, /dev and user mounts cannot be copied)', '200 `application/x-tar` stream plus header `X-Engine-Container-Path-Stat` (base64 JSON, see 2.4)'],
  since: '1.20',
  tags: ['state'],
  covers: [
    '1:PUT /containers/{id_or_name}/archive:query:path',
    '1:PUT /containers/{id_or_name}/archive:body:tar',
    '1:GET /containers/{id_or_name}/archive:query:path',
  ],
}, async (context) => {
  // The spec gives no order of the entries, and does not say that an extraction keeps modes (archive.put.round-trip-modes has dockerd's).
  const { back, sent } = await roundTrip(context);
  const withoutMode = (entries: RoundTripEntry[]) => entries.map(({ mode: _mode, ...rest }) => rest);
  context.expect(withoutMode(back), 'entries of the tar of /tmp/tree, by name').toEqual(withoutMode(sent));
});

check('archive.put.round-trip-modes', {
  title: 'what PUT archive extracts, GET archive gives back with the modes the tar had, in the order it had them',
  // spec/1 §4.1 gives neither an order of a tar's entries nor that an extraction keeps their modes
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.20',
  tags: ['state'],
}, async (context) => {
  const { back, sent, order } = await roundTrip(context);
  context.expect({ entries: back, order }, 'entries of the tar of /tmp/tree, and their order').toEqual({ entries: sent, order: sent.map((entry) => entry.name) });
});

check('archive.export.tar', {
  title: 'GET /containers/{id}/export answers 200 application/octet-stream: a tar of the whole filesystem with /bin/busybox and the files the container wrote',
  spec: '1 §4.1',
  quote: ['| GET /containers/{id_or_name}/export | | none | 200 `application/octet-stream` tar stream | 200, 404, 500 |'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/export', '1:GET /containers/{id_or_name}/export:status:200'],
}, async (context) => {
  const text = `written by ${context.make.runId}`;
  const id = await exitedContainer(context, { Cmd: ['sh', '-c', `echo ${text} > /tmp/written`] });
  const res = await context.engine.get(`/containers/${id}/export`);
  context.expect(res.status, 'status').toBe(200);
  context.expect(res.contentType, 'Content-Type').toBe('application/octet-stream');
  const entries = new Map((await readTar(res)).map((entry) => [relativeName(entry.name), entry]));
  // busybox:latest stores its applets as hard links, so /bin/busybox may be a link to the first of them
  context.expect({
    busybox: ['file', 'link'].includes(entries.get('bin/busybox')?.type ?? 'missing'),
    written: entries.get('tmp/written')?.data.toString('utf8'),
  }, `bin/busybox and tmp/written among ${entries.size} entries`).toEqual({ busybox: true, written: `${text}\n` });
});

check('archive.unknown-container', {
  title: 'HEAD, GET and PUT archive, export and copy of a container that does not exist answer 404',
  spec: '1 §4.1, §7.2',
  quote: ['| HEAD /containers/{id_or_name}/archive | path (required) | none | response header `X-Engine-Container-Path-Stat` only | as GET |', '200; 400 (path empty, or path asserted to be a directory but is a file; JSON body gives the detail); 404 (no such container, or no such file or directory); 500', '200; 400 (path empty, path is a file, or overwrite refused); 403 (volume or container rootfs is read-only); 404 (no such container or path); 500', '| GET /containers/{id_or_name}/export | | none | 200 `application/octet-stream` tar stream | 200, 404, 500 |', '| POST /containers/{id_or_name}/copy | | JSON {Resource: string} | 200 `application/x-tar` stream; deprecated from 1.20; removed at 1.24 and later (the call errors out) | 200, 404, 500 |', '404 no such container, image, exec instance, volume, network, service or task'],
  since: '1.20',
  tags: ['error'],
  covers: [
    '1:HEAD /containers/{id_or_name}/archive:status:404',
    '1:GET /containers/{id_or_name}/archive:status:404',
    '1:PUT /containers/{id_or_name}/archive:status:404',
    '1:GET /containers/{id_or_name}/export:status:404',
    '1:POST /containers/{id_or_name}/copy:status:404',
  ],
}, async (context) => {
  const missing = context.make.uniqueName('missing');
  const body = await buildTar([{ kind: 'file', name: 'hello.txt', data: 'hello\n' }]);
  const statuses = {
    head: (await context.engine.head(archivePath(missing), { query: { path: FIXTURE_FILE } })).status,
    get: (await context.engine.get(archivePath(missing), { query: { path: FIXTURE_FILE } })).status,
    put: (await putTar(context, missing, { path: '/tmp' }, body)).status,
    export: (await context.engine.get(`/containers/${missing}/export`)).status,
    copy: (await context.engine.post(`/containers/${missing}/copy`, { json: { Resource: FIXTURE_FILE } })).status,
  };
  // Up to 1.23 copy answers 404 because this container does not exist; from 1.24 the call "errors out",
  // with no status given: any error will do.
  const copyRemoved = atLeast(context.version, '1.24');
  const seen = { ...statuses, copy: copyRemoved && statuses.copy >= 400 ? 'an error' : statuses.copy };
  context.expect(seen, `statuses for the container ${missing}`).toEqual({ head: 404, get: 404, put: 404, export: 404, copy: copyRemoved ? 'an error' : 404 });
});
