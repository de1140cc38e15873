/** Image endpoints (spec/2 §4.1) but build and the tarballs: list, inspect, history, create (import, pull), push, tag, delete, search. */
import { readBody } from '../../request-limits.ts';
import { atLeast } from '../../../protocol/versions.ts';
import { EngineError, InvalidParameterError } from '../model/common/errors.ts';
import { imageHistory } from '../model/images/image-history.ts';
import { BadArchiveError, importArchive, planImport, type ImportPlan } from '../model/images/image-import.ts';
import { checkedImageReference, checkedTag, familiarAsGiven, type ImageReference } from '../model/images/image-reference.ts';
import type { Image } from '../model/images/image.ts';
import { preparePull } from '../model/images/image-pull.ts';
import { preparePush } from '../model/images/image-push.ts';
import { pushAnnouncement } from '../model/images/image-registry.ts';
import { DEFAULT_SEARCH_LIMIT, searchImages } from '../model/images/image-search.ts';
import type { EngineModel } from '../model/engine-model.ts';
import type { Filters } from './filters-query.ts';
import { historyItem, imageInspect, imageSummary } from './image-views.ts';
import { downloadImportSource } from './import-download.ts';
import { JsonMessageStream } from './json-messages.ts';
import { readBodyText } from './json-body.ts';
import { listRoute } from './list-route.ts';
import { registryAuth, registryCredentials } from './registry-auth-header.ts';
import { streamProgress } from './registry-progress.ts';
import { sendEmpty, sendJson } from './replies.ts';
import type { Route, RouteContext } from './route-table.ts';

/** dockerd's image list filters; those it knows that the reference does not apply yet answer 501. */
const LIST_FILTERS = ['before', 'dangling', 'label', 'reference', 'since'] as const;
const SEARCH_FILTERS = ['is-automated', 'is-official', 'stars'] as const;

export const imageRoutes: Route[] = [
  listRoute({
    path: '/images/json',
    filterNames: LIST_FILTERS,
    // before and since apply at every version, as on dockerd (the spec lists them from 1.24)
    list: ({ model, query, personality }, filters) =>
      model.images.list({
        all: personality.booleanQuery(query.get('all'), false),
        dangling: danglingFilter(filters.dangling ?? []),
        label: filters.label,
        reference: referencePatterns(filters, query),
        before: lastImageOf(model, filters.before),
        since: lastImageOf(model, filters.since),
      }),
    view: (context, filters) => {
      const withDigests = context.personality.booleanQuery(context.query.get('digests'), false);
      const shown = context.personality.narrowsFilteredNames ? referencePatterns(filters, context.query) : undefined;
      return (image) => imageSummary(image, context.model.images.listedNames(image, shown), context, withDigests);
    },
  }),
  { method: 'POST', path: '/images/create', handle: createImage },
  listRoute({
    path: '/images/search',
    filterNames: SEARCH_FILTERS,
    list: ({ query }, filters) => {
      const limit = query.get('limit');
      if (limit && !/^[+-]?\d+$/.test(limit)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(limit)}: invalid syntax`);
      return searchImages(query.get('term') ?? '', limit ? Number(limit) : DEFAULT_SEARCH_LIMIT, filters);
    },
  }),
  {
    method: 'GET',
    path: '/images/{name*}/json',
    handle: ({ response, model, params, version, personality }) => sendJson(response, 200, imageInspect(model.images.find(params.name ?? ''), { version, personality })),
  },
  listRoute({
    path: '/images/{name*}/history',
    list: ({ model, params }) => imageHistory(model.images, model.images.find(params.name ?? '')),
    view: (context) => (step) => historyItem(step, context),
  }),
  { method: 'POST', path: '/images/{name*}/push', handle: push },
  { method: 'POST', path: '/images/{name*}/tag', handle: tag },
  {
    method: 'DELETE',
    path: '/images/{name*}',
    handle: ({ response, model, params, query, personality }) => {
      const options = { force: personality.booleanQuery(query.get('force'), false), noprune: personality.booleanQuery(query.get('noprune'), false) };
      sendJson(response, 200, personality.unordered(model.images.remove(params.name ?? '', options, (imageId) => model.containers.imageUsers(imageId))));
    },
  },
];

/**
 * The name is checked before the image is looked up, as dockerd does (which answers 500 for a
 * malformed one; the spec says 400). Up to 1.23 a name another image has moves only with force.
 */
function tag({ response, model, params, query, version, personality }: RouteContext): void {
  const given = checkedImageReference(query.get('repo') ?? '');
  const tagName = query.get('tag');
  const reference = tagName ? { repository: given.repository, tag: checkedTag(tagName) } : given;
  if (reference.digest !== undefined) throw new InvalidParameterError('refusing to create a tag with a digest reference');
  const image = model.images.find(params.name ?? '');
  const force = atLeast(version, '1.24') || personality.booleanQuery(query.get('force'), false);
  model.images.tag(image, familiarAsGiven(reference), { force });
  sendEmpty(response, 201);
}

/** A before/since filter names an image (404 when there is none); of several, the last counts. */
function lastImageOf(model: EngineModel, names: string[] | undefined): Image | undefined {
  const name = names?.at(-1);
  return name === undefined ? undefined : model.images.find(name);
}

/** fromImage pulls from a registry; otherwise fromSrc imports, `-` from the body. */
async function createImage({ request, response, model, query, version }: RouteContext): Promise<void> {
  const fromImage = query.get('fromImage');
  if (fromImage) {
    // what fails before the first line (no manifest, credentials refused) is the answer's status
    const credentials = registryCredentials(registryAuth(request.headers['x-registry-auth']), version);
    const pull = await preparePull(model.registries, model.images, pullReference(fromImage, query.get('tag') ?? ''), credentials);
    return streamProgress(response, (report) => pull.run(report));
  }
  const source = query.get('fromSrc') ?? '';
  // dockerd tries to download from "http://" (500 `Get "http:": http: no Host in request URL`); the row lists no 400, so a 500 that says why
  if (source === '') throw new EngineError('POST /images/create needs fromImage (to pull) or fromSrc (to import): neither was given');
  const plan = planImport({
    source: source === '-' || source.includes('://') ? source : `http://${source}`,
    repo: query.get('repo') ?? '',
    tag: query.get('tag') ?? '',
    message: query.get('message') ?? '',
    changes: query.getAll('changes'),
  });
  const messages = new JsonMessageStream(response);
  if (source === '-') {
    const image = await importArchive(model.images, plan, await readBody(request, 'tar'));
    messages.begin();
    messages.status(image.id);
    return messages.end();
  }
  const download = await downloadImportSource(source);
  messages.begin();
  messages.status(`Downloading from ${download.url}`);
  messages.progress('Importing', '', download.archive.length, download.total);
  await importFromStream(model, plan, download.archive, messages);
}

/** Once the stream has begun, a bad tar is reported in it. */
async function importFromStream(model: EngineModel, plan: ImportPlan, archive: Buffer, messages: JsonMessageStream): Promise<void> {
  try {
    messages.status((await importArchive(model.images, plan, archive)).id);
  } catch (error) {
    if (!(error instanceof BadArchiveError)) throw error;
    messages.error(error.message);
  }
  messages.end();
}

/** dockerd drops a trailing `:`; `tag` may be a digest. */
function pullReference(fromImage: string, tag: string): ImageReference {
  const reference = checkedImageReference(fromImage.replace(/:$/, ''));
  if (tag === '') return reference;
  if (/^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-fA-F0-9]{32,}$/.test(tag)) return { repository: reference.repository, digest: tag };
  return { repository: reference.repository, tag: checkedTag(tag) };
}

/**
 * A push needs credentials: the header, or (older clients) an AuthConfig body, and an image of the
 * name here (else 404). The stream begins with the repository pushed to; what fails after that
 * (credentials refused, the registry unreachable) is the stream's last line.
 */
async function push({ request, response, model, params, query, version }: RouteContext): Promise<void> {
  let auth = registryAuth(request.headers['x-registry-auth']);
  if (auth === undefined) {
    const body = await readBodyText(request);
    if (body.trim() === '') throw new InvalidParameterError('Bad parameters and missing X-Registry-Auth: EOF');
    auth = registryAuth(Buffer.from(body).toString('base64url'));
  }
  const named = checkedImageReference(params.name ?? '');
  const tag = query.get('tag');
  const reference = tag ? { repository: named.repository, tag: checkedTag(tag) } : named;
  const push = preparePush(model.registries, model.images, reference, registryCredentials(auth, version));
  await streamProgress(response, async (report) => {
    report({ kind: 'message', text: pushAnnouncement(reference) });
    await push.run(report);
  });
}

/** The name patterns of a list: the reference filter's, and `filter`, the older spelling of one; none is no such filter. */
function referencePatterns(filters: Filters, query: URLSearchParams): string[] | undefined {
  const legacyFilter = query.get('filter');
  const patterns = [...(filters.reference ?? []), ...(legacyFilter ? [legacyFilter] : [])];
  return patterns.length > 0 ? patterns : undefined;
}

/** dockerd takes `true`/`1` and `false`/`0` only, and several values must agree; none is no filter. */
function danglingFilter(values: string[]): boolean | undefined {
  const wanted = new Set(
    values.map((value) => {
      const word = value.toLowerCase();
      if (word === 'true' || word === '1') return true;
      if (word === 'false' || word === '0') return false;
      throw new InvalidParameterError(`Invalid filter 'dangling=${value}'`);
    }),
  );
  if (wanted.size > 1) throw new InvalidParameterError('Invalid filter: dangling cannot be both true and false');
  return [...wanted][0];
}
