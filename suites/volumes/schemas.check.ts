/**
 * The shape of a volume per API version (spec/2 §2.3) as create, inspect and list answer it: Name,
 * Driver and Mountpoint, and Labels and Scope from 1.25. Other checks create volumes at the same
 * time, so the list check judges the whole answer and its own volume's item.
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { volumeListSchema, volumeSchema } from '../../harness/schemas/volume-schemas.ts';
import { createVolume, ownVolume, uniqueVolumeName, type VolumeView } from './volume-steps.ts';

/** spec/2 §2.3: what volumeSchema holds a volume to */
const VOLUME_FIELDS = [
  'Fields: Name (string), Driver (string), Mountpoint (string, host path), Status (object, driver-provided, omitted if unsupported), Labels (object string to string), Scope (string: `global` or `local`, default local).',
  'Empty or driver-unsupported fields may be omitted.',
  'Fields Labels and Scope appear from 1.25 (earlier: Name, Driver, Mountpoint).',
];

check('volumes.create.schema', {
  title: 'POST /volumes/create answers 201 with the volume: Name, Driver, Mountpoint, and Labels and Scope from 1.25',
  spec: '2 §2.3, §4.3',
  quote: ['| POST /volumes/create |', '| 201 volume | 201, 500 |', ...VOLUME_FIELDS],
  since: '1.18',
  tags: ['schema'],
  covers: ['2:POST /volumes/create', '2:POST /volumes/create:status:201', '2:version-rule:1.25:volume-labels-scope'],
}, async (context) => {
  const res = await createVolume(context, { Name: uniqueVolumeName(context) });
  context.expect(res.status, 'POST /volumes/create status').toBe(201);
  assertMatchesSchema(res.json(), volumeSchema(context.version), `the created volume at ${context.version}`);
});

check('volumes.inspect.schema', {
  title: 'GET /volumes/{name} answers the volume: Name, Driver, Mountpoint, and Labels and Scope from 1.25',
  spec: '2 §2.3, §4.3',
  quote: ['| GET /volumes/{name} | | none | 200 volume | 200, 404, 500 |', ...VOLUME_FIELDS],
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /volumes/{name}', '2:GET /volumes/{name}:status:200', '2:version-rule:1.25:volume-labels-scope'],
}, async (context) => {
  const name = await ownVolume(context);
  const res = await context.engine.get(`/volumes/${name}`);
  context.expect(res.status, 'GET /volumes/{name} status').toBe(200);
  assertMatchesSchema(res.json(), volumeSchema(context.version), `the volume at ${context.version}`);
});

check('volumes.list.schema', {
  title: 'GET /volumes answers {Volumes, Warnings}, each volume of the shape of the version',
  spec: '2 §2.3, §4.3',
  quote: ['| GET /volumes |', '| none | 200 {Volumes (array of volume), Warnings (array)} | 200, 500 |', ...VOLUME_FIELDS],
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /volumes', '2:GET /volumes:status:200'],
}, async (context) => {
  const name = await ownVolume(context);
  const res = await context.engine.get('/volumes');
  context.expect(res.status, 'GET /volumes status').toBe(200);
  assertMatchesSchema(res.json(), volumeListSchema(context.version), `the volume list at ${context.version}`);
  const own = res.json<{ Volumes: VolumeView[] }>().Volumes.filter((volume) => volume.Name === name);
  context.expect(own.length, `items named ${name} in the list`).toBe(1);
});
