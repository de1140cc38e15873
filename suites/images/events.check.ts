/**
 * The image events (spec/2 §6): tag when an image gets a name, untag when a name comes off (delete
 * only where rule 3 allows it; at docker level untag then delete when the last name goes), import
 * when one is imported. Read from GET /events as it streams, from a time
 * the daemon itself gave (GET /info SystemTime) so that no event falls between subscribing and acting.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { StreamedResponse } from '../../harness/client/streamed-response.ts';
import { eventsFromNow, eventsUntil, receivedEvents, type EventView } from '../daemon-events.ts';
import { committedImage, exportedRootfs, importImage, inspectImage, removeImage, streamError, streamMessages, tagImage, uniqueImageName } from '../image-steps.ts';

/** Image events carry their action and subject twice, as Action/Actor.ID and the legacy status/id: either counts. */
function actionOf(event: EventView): string | undefined {
  return event.Action ?? event.status;
}

function subjectOf(event: EventView): string | undefined {
  return event.Actor?.ID ?? event.id;
}

/** Image events from the daemon's present second, read as they stream; `image` narrows them to one image id. */
function imageEvents(context: CheckContext, image?: string): Promise<StreamedResponse> {
  return eventsFromNow(context, { type: ['image'], ...(image ? { image: [image] } : {}) });
}

/** Waits until the events of `subject` include `last`; returns their actions in order. */
async function actionsUntil(stream: StreamedResponse, subject: string, last: string): Promise<string[]> {
  const events = await eventsUntil(stream, (event) => subjectOf(event) === subject, (event) => actionOf(event) === last);
  return events.map((event) => actionOf(event) ?? '');
}

check('images.events.tag-untag', {
  title: 'tagging an image emits tag and taking that name off emits untag, with the image id, and no delete while it keeps a name',
  spec: '2 §6, §4.2',
  quote: [
    '| image | delete, import, load, pull, push, save, tag, untag |',
    'Removing an image name emits untag.',
    'Deleting images by id, or deleting the last tag that refers to an image, may also emit delete.',
    'Event filters: container=<string>, event=<string>, image=<string>',
    'type=<string> (container, image, volume, network or daemon)',
    'since (timestamp; show events since then and keep streaming)',
  ],
  since: '1.18',
  tags: ['stream', 'state'],
  covers: ['2:GET /events', '2:GET /events:query:filters.image'],
}, async (context) => {
  const id = await committedImage(context, { name: uniqueImageName(context) });
  const stream = await imageEvents(context, id);
  try {
    const extra = uniqueImageName(context, 'extra');
    context.expect((await tagImage(context, id, extra)).status, 'POST /images/{id}/tag status').toBe(201);
    context.expect((await removeImage(context, extra)).status, `DELETE /images/${extra} status`).toBe(200);
    // A last tag marks the end: a delete the removal emitted comes before it, however late it streams.
    const marker = uniqueImageName(context, 'marker');
    context.expect((await tagImage(context, id, marker)).status, 'POST /images/{id}/tag status (the marker)').toBe(201);
    // The marker's tag is the first tag after an untag: image events need carry no attributes (spec/2 §6 rule 1 gives container ones only).
    const actionsSoFar = () => receivedEvents(stream).filter((event) => subjectOf(event) === id).map((event) => actionOf(event) ?? '');
    await stream.waitFor(() => {
      const seen = actionsSoFar();
      return seen.includes('untag') && seen.lastIndexOf('tag') > seen.indexOf('untag');
    });
    const actions = actionsSoFar();
    context.expect({ tagThenUntag: actions.lastIndexOf('untag') > actions.indexOf('tag') && actions.includes('tag'), delete: actions.includes('delete') }, `actions of the image's events: ${JSON.stringify(actions)}`).toEqual({ tagThenUntag: true, delete: false });
  } finally {
    stream.close();
  }
});

/** Commits an image with one name, deletes that name, and gives the image's event actions up to `last`. */
async function actionsOnDeletingLastName(context: CheckContext, last: string): Promise<string[]> {
  const name = uniqueImageName(context);
  const id = await committedImage(context, { name });
  const stream = await imageEvents(context, id);
  try {
    context.expect((await removeImage(context, name)).status, `DELETE /images/${name} status`).toBe(200);
    return await actionsUntil(stream, id, last);
  } finally {
    stream.close();
  }
}

check('images.events.delete', {
  title: 'deleting the last name of an image emits untag with the image id (spec/2 §6 rule 3: delete may follow)',
  spec: '2 §6, §4.2',
  quote: [
    '| image | delete, import, load, pull, push, save, tag, untag |',
    'Removing an image name emits untag.',
    'Deleting images by id, or deleting the last tag that refers to an image, may also emit delete.',
    'Event filters: container=<string>, event=<string>, image=<string>',
    'type=<string> (container, image, volume, network or daemon)',
    'since (timestamp; show events since then and keep streaming)',
  ],
  since: '1.18',
  tags: ['stream', 'state'],
  covers: ['2:GET /events', '2:GET /events:query:filters.image'],
}, async (context) => {
  const actions = await actionsOnDeletingLastName(context, 'untag');
  context.expect(actions, `actions of the image's events: ${JSON.stringify(actions)}`).toContain('untag');
});

check('images.events.untag-then-delete', {
  title: 'deleting the last name of an image emits untag, then delete, with the image id (as dockerd)',
  spec: '2 §6',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream', 'state'],
}, async (context) => {
  const actions = await actionsOnDeletingLastName(context, 'delete');
  context.expect(actions.filter((action) => action !== 'tag'), `actions of the image's events: ${JSON.stringify(actions)}`).toEqual(['untag', 'delete']);
});

check('images.events.import', {
  title: 'an import that succeeds emits import with the new image id (which body an import takes the spec does not say: a refused root filesystem is no failure here)',
  spec: '2 §6, §4.2, §4.1',
  quote: [
    '| image | delete, import, load, pull, push, save, tag, untag |',
    'type=<string> (container, image, volume, network or daemon)',
    'since (timestamp; show events since then and keep streaming)',
    'fromSrc (URL to import, or `-` to read the request body), repo, tag',
    'body when fromSrc is `-`',
    '200 JSON stream of {status}, {status, progress, progressDetail {current, total}}, {error} | 200, 500 |',
  ],
  since: '1.18',
  tags: ['stream', 'state'],
  covers: ['2:GET /events'],
}, async (context) => {
  const rootfs = await exportedRootfs(context, 'true');
  const stream = await imageEvents(context);
  try {
    const name = uniqueImageName(context, 'import');
    const res = await importImage(context, rootfs, name);
    context.expect([200, 500], `POST /images/create?fromSrc=- status: ${res.describe()}`).toContain(res.status);
    // spec/2 §4.1 gives no format for the body of an import: a daemon may refuse an exported root filesystem.
    if (res.status === 500 || streamError(streamMessages(res)) !== undefined) return;
    const { Id } = await inspectImage(context, name);
    const actions = await actionsUntil(stream, Id, 'import');
    context.expect(actions, `actions of the imported image's events: ${JSON.stringify(actions)}`).toContain('import');
  } finally {
    stream.close();
  }
});
