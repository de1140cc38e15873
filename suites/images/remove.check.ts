/**
 * DELETE /images/{name} (spec/2 §4.1, §2.1 remove response): a name comes off (Untagged), the image
 * goes when its last name does (Untagged and Deleted, in any order), force deletes an image named in
 * several repositories or used by a stopped container, an image a container uses is a 409 conflict
 * without force, and untagged parents go with their last child unless noprune. An Untagged entry may
 * carry the name taken off or the image id: §2.1 says "either Untagged or Deleted (string id)", and
 * the sample it comes from untags by id. At docker level what dockerd adds: the name in Untagged, the
 * Untagged entries first, 409 for an id named in several repositories, and for force with a running
 * container, and a forced delete leaving the stopped containers of the image in place.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { DELETE_RESPONSE_SCHEMA } from '../../harness/schemas/image-schemas.ts';
import { startContainer } from '../container-steps.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { bareImageId, committedImage, imageStatus, removeImage, tagImage, uniqueImageName } from '../image-steps.ts';

type RemoveItem = { Untagged?: string; Deleted?: string };

/** DELETE that must answer 200 with the remove response; returns its items. */
async function removed(context: CheckContext, name: string, query: Record<string, number> = {}): Promise<RemoveItem[]> {
  const res = await removeImage(context, name, query);
  context.expect(res.status, `DELETE /images/${name} status`).toBe(200);
  const items = res.json<RemoveItem[]>();
  assertMatchesSchema(items, DELETE_RESPONSE_SCHEMA, 'the remove response');
  return items;
}

/** An image of the check's own under `names` (the first given by the commit, the rest by tagging); returns its id. */
async function namedImage(context: CheckContext, names: string[]): Promise<string> {
  const [first, ...rest] = names;
  const id = await committedImage(context, { name: first });
  for (const name of rest) {
    const res = await tagImage(context, id, name);
    context.expect(res.status, `POST /images/{id}/tag status (naming ${name})`).toBe(201);
  }
  return id;
}

/** An image of the check's own with one name. */
async function imageWithOneName(context: CheckContext): Promise<{ id: string; name: string }> {
  const name = uniqueImageName(context);
  return { id: await namedImage(context, [name]), name };
}

/** The ids in Deleted entries, without the `sha256:` a target may or may not put before them. */
function deletedIds(items: RemoveItem[]): string[] {
  return items.flatMap((item) => (item.Deleted ? [bareImageId(item.Deleted)] : []));
}

/** The values of the Untagged entries, an image id among them as `<id>`, in order. */
function untaggedValues(items: RemoveItem[], id: string): string[] {
  return items.flatMap((item) => (item.Untagged === undefined ? [] : [bareImageId(item.Untagged) === bareImageId(id) ? '<id>' : item.Untagged]));
}

/** A delete that took the image's last name: one Untagged entry for it (by name or id), and the image among the Deleted entries, in any order. */
function expectUntaggedAndDeleted(context: CheckContext, items: RemoveItem[], name: string, id: string): void {
  const untagged = untaggedValues(items, id);
  context.expect(untagged.length === 1 && [name, '<id>'].includes(untagged[0] ?? ''), `one Untagged entry, for ${name} (by name or id): ${JSON.stringify(items)}`).toBe(true);
  context.expect(deletedIds(items), 'the Deleted entries').toContain(bareImageId(id));
}

/** A refused delete: 409 with the error body of the version, and the image still there. */
async function expectRefused(context: CheckContext, res: ApiResponse, id: string): Promise<void> {
  context.expect(res.status, 'status').toBe(409);
  expectErrorBodyOfVersion(context, res);
  context.expect(await imageStatus(context, id), 'GET /images/{id}/json status after').toBe(200);
}

check('images.delete.untag', {
  title: 'deleting one of two names of an image answers one Untagged entry (the name or the image id) and no Deleted, and keeps the image under the other',
  spec: '2 §4.1, §2.1, §6.3',
  quote: [
    '| DELETE /images/{name} |',
    '200 array of {Untagged} or {Deleted} | 200, 404, 409, 500 |',
    'Remove response item: an object with either Untagged or Deleted (string id).',
    'Removing an image name emits untag.',
  ],
  since: '1.18',
  tags: ['state', 'schema'],
  covers: ['2:DELETE /images/{name}', '2:DELETE /images/{name}:status:200'],
}, async (context) => {
  const [kept, dropped] = [uniqueImageName(context), uniqueImageName(context)];
  const id = await namedImage(context, [kept, dropped]);
  const items = await removed(context, dropped);
  const untagged = untaggedValues(items, id);
  context.expect({ items: items.length, untagged: untagged.length === 1 && [dropped, '<id>'].includes(untagged[0] ?? '') }, `the remove response ${JSON.stringify(items)}: one Untagged entry for ${dropped}`).toEqual({ items: 1, untagged: true });
  context.expect({ kept: await imageStatus(context, kept), dropped: await imageStatus(context, dropped) }, 'GET /images/{name}/json statuses after').toEqual({ kept: 200, dropped: 404 });
});

check('images.delete.last-name', {
  title: 'deleting the last name of an image answers an Untagged entry for the name and a Deleted one for the image (in any order), and the image is gone',
  spec: '2 §4.1, §2.1, §6.3',
  quote: [
    '| DELETE /images/{name} |',
    '200 array of {Untagged} or {Deleted} | 200, 404, 409, 500 |',
    'Remove response item: an object with either Untagged or Deleted (string id).',
    'Removing an image name emits untag.',
    'Deleting images by id, or deleting the last tag that refers to an image, may also emit delete.',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:DELETE /images/{name}', '2:DELETE /images/{name}:status:200'],
}, async (context) => {
  const { id, name } = await imageWithOneName(context);
  expectUntaggedAndDeleted(context, await removed(context, name), name, id);
  context.expect(await imageStatus(context, id), 'GET /images/{id}/json status after').toBe(404);
});

check('images.delete.untagged-before-deleted', {
  title: 'deleting the last name of an image answers {Untagged: name} first, then the Deleted entries, the image\'s among them (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const { id, name } = await imageWithOneName(context);
  const items = await removed(context, name);
  const [first, ...rest] = items;
  context.expect({ first, restKinds: rest.map((item) => Object.keys(item)).flat() }, `the remove response ${JSON.stringify(items)}`).toEqual({ first: { Untagged: name }, restKinds: rest.map(() => 'Deleted') });
  context.expect(deletedIds(rest), 'the Deleted entries').toContain(bareImageId(id));
});

/** An image named in two repositories, for the rules of deleting by id. */
async function imageInTwoRepositories(context: CheckContext): Promise<{ id: string; names: string[] }> {
  const names = [uniqueImageName(context, 'a'), uniqueImageName(context, 'b')];
  return { id: await namedImage(context, names), names };
}

check('images.delete.by-id-conflict', {
  title: 'deleting by id an image named in several repositories answers 409 without force, and the image stays (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state', 'error'],
}, async (context) => {
  const { id } = await imageInTwoRepositories(context);
  await expectRefused(context, await removeImage(context, id), id);
});

check('images.delete.by-id-force', {
  title: 'deleting by id with force an image named in several repositories untags each name (by name or id) and deletes it',
  spec: '2 §4.1, §2.1, §6.3',
  quote: [
    '| DELETE /images/{name} |',
    'force (default false), noprune (default false)',
    '200 array of {Untagged} or {Deleted} | 200, 404, 409, 500 |',
    'Remove response item: an object with either Untagged or Deleted (string id).',
    'Deleting images by id, or deleting the last tag that refers to an image, may also emit delete.',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:DELETE /images/{name}:query:force', '2:DELETE /images/{name}:status:200'],
}, async (context) => {
  const { id, names } = await imageInTwoRepositories(context);
  const items = await removed(context, id, { force: 1 });
  const untagged = untaggedValues(items, id);
  const byName = untagged.filter((value) => value !== '<id>');
  context.expect({ entries: untagged.length, byName: byName.every((value) => names.includes(value)) && new Set(byName).size === byName.length }, `the Untagged entries ${JSON.stringify(untagged)}: one for each of ${JSON.stringify(names)}`).toEqual({ entries: names.length, byName: true });
  context.expect(deletedIds(items), 'the Deleted entries').toContain(bareImageId(id));
  context.expect(await imageStatus(context, id), 'GET /images/{id}/json status after').toBe(404);
});

check('images.delete.in-use', {
  title: 'deleting the image a container was created from answers 409 without force, and the image stays',
  spec: '2 §4.1, 1 §7.1, §7.2',
  quote: [
    '| DELETE /images/{name} |',
    'force (default false), noprune (default false)',
    '200 array of {Untagged} or {Deleted} | 200, 404, 409, 500 |',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
    '409 conflict',
  ],
  since: '1.18',
  tags: ['state', 'error'],
  covers: ['2:DELETE /images/{name}:status:409'],
}, async (context) => {
  const { id, name } = await imageWithOneName(context);
  await context.make.container({ Image: name, Cmd: ['true'] });
  await expectRefused(context, await removeImage(context, name), id);
});

check('images.delete.in-use-running', {
  title: 'deleting with force the image of a running container answers 409 with the error body of the version, and the image stays (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state', 'error'],
}, async (context) => {
  const { id, name } = await imageWithOneName(context);
  await startContainer(context, await context.make.container({ Image: name, Cmd: ['sleep', '300'] }));
  await expectRefused(context, await removeImage(context, id, { force: 1 }), id);
});

check('images.delete.force-stopped-container', {
  title: 'deleting with force the image of a stopped container answers an Untagged and a Deleted entry for it (in any order), and it is gone',
  spec: '2 §4.1, §2.1',
  quote: [
    '| DELETE /images/{name} |',
    'force (default false), noprune (default false)',
    '200 array of {Untagged} or {Deleted} | 200, 404, 409, 500 |',
    'Remove response item: an object with either Untagged or Deleted (string id).',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:DELETE /images/{name}:query:force'],
}, async (context) => {
  const { id, name } = await imageWithOneName(context);
  // What a forced delete does to the containers of the image the spec does not say: dockerd's is the next check.
  await context.make.container({ Image: name, Cmd: ['true'] });
  expectUntaggedAndDeleted(context, await removed(context, name, { force: 1 }), name, id);
  context.expect(await imageStatus(context, id), 'GET /images/{id}/json status after').toBe(404);
});

check('images.delete.force-keeps-container', {
  title: 'deleting with force the image of a stopped container leaves the container in place (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const { id, name } = await imageWithOneName(context);
  const container = await context.make.container({ Image: name, Cmd: ['true'] });
  context.expect((await removeImage(context, name, { force: 1 })).status, `DELETE /images/${name}?force=1 status`).toBe(200);
  const after = { image: await imageStatus(context, id), container: (await context.engine.get(`/containers/${container}/json`)).status };
  context.expect(after, 'GET /images/{id}/json and GET /containers/{id}/json statuses after').toEqual({ image: 404, container: 200 });
});

/** A child image (named) of an untagged parent image, both the check's own. */
async function childOfUntaggedParent(context: CheckContext): Promise<{ parent: string; child: string; name: string }> {
  const parent = await committedImage(context, {});
  const name = uniqueImageName(context);
  const child = await committedImage(context, { from: parent, name });
  return { parent, child, name };
}

check('images.delete.prunes-parents', {
  title: 'deleting the last name of an image also deletes its untagged parent',
  spec: '2 §4.1, §2.1',
  quote: [
    '| DELETE /images/{name} |',
    'force (default false), noprune (default false)',
    '200 array of {Untagged} or {Deleted} | 200, 404, 409, 500 |',
    'Remove response item: an object with either Untagged or Deleted (string id).',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:DELETE /images/{name}'],
}, async (context) => {
  const { parent, child, name } = await childOfUntaggedParent(context);
  const items = await removed(context, name);
  // Deleted entries may also name the layers that went (dockerd lists them): only the images are judged.
  context.expect(deletedIds(items), 'the Deleted entries').toEqual(context.expect.arrayContaining([bareImageId(child), bareImageId(parent)]));
  context.expect(await imageStatus(context, parent), 'GET /images/{parent}/json status after').toBe(404);
});

check('images.delete.noprune', {
  title: 'deleting with noprune=1 the last name of an image deletes it and keeps its untagged parent',
  spec: '2 §4.1, §2.1',
  quote: [
    '| DELETE /images/{name} |',
    'force (default false), noprune (default false)',
    '200 array of {Untagged} or {Deleted} | 200, 404, 409, 500 |',
    'Remove response item: an object with either Untagged or Deleted (string id).',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:DELETE /images/{name}:query:noprune'],
}, async (context) => {
  const { parent, child, name } = await childOfUntaggedParent(context);
  const items = await removed(context, name, { noprune: 1 });
  const deleted = deletedIds(items);
  context.expect({ child: deleted.includes(bareImageId(child)), parent: deleted.includes(bareImageId(parent)) }, `the images among the Deleted entries ${JSON.stringify(deleted)}`).toEqual({ child: true, parent: false });
  context.expect(await imageStatus(context, parent), 'GET /images/{parent}/json status after').toBe(200);
});

check('images.delete.unknown', {
  title: 'deleting an image the target does not have answers 404 with the error body of the version',
  spec: '2 §4.1, 1 §7.1, §7.2',
  quote: [
    '| DELETE /images/{name} |',
    '200 array of {Untagged} or {Deleted} | 200, 404, 409, 500 |',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
    '404 no such container, image, exec instance, volume, network, service or task',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['2:DELETE /images/{name}:status:404'],
}, async (context) => {
  const res = await removeImage(context, uniqueImageName(context, 'missing'));
  context.expect(res.status, 'status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});
