/**
 * GET /system/df (Docker's, API 1.25; the spec does not describe it): the bytes the layers take, and
 * per image, container and volume what they use. Checked on objects of the check's own: a shared
 * daemon holds others.
 */
import { check } from '../../harness/check.ts';
import { inspectContainer } from '../container-steps.ts';
import { bareImageId } from '../image-steps.ts';
import { outlastingRaces } from '../prune-steps.ts';
import { containerWithBinds, ownVolume } from '../volumes/volume-steps.ts';

interface DiskUsage {
  LayersSize: number;
  Images: { Id: string; Containers: number; SharedSize: number; Size: number }[] | null;
  Containers: { Id: string; SizeRw?: number; SizeRootFs?: number }[] | null;
  Volumes: { Name: string; UsageData?: { Size: number; RefCount: number } }[] | null;
}

check('system.df.usage', {
  title: 'GET /system/df answers LayersSize, the images with the count of their containers, the containers with SizeRootFs (SizeRw left out while 0), and the volumes with UsageData {Size, RefCount}',
  spec: '2 §4.2',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['state'],
}, async (context) => {
  const volume = await ownVolume(context);
  const container = await containerWithBinds(context, [`${volume}:/data`]);
  const { Image } = await inspectContainer<{ Image: string }>(context, container);
  const res = await outlastingRaces(() => context.engine.get('/system/df'));
  context.expect(res.status, `GET /system/df status: ${res.describe()}`).toBe(200);
  const usage = res.json<DiskUsage>();
  context.expect(typeof usage.LayersSize, 'LayersSize').toBe('number');
  const image = usage.Images?.find((item) => bareImageId(item.Id) === bareImageId(Image));
  context.expect(image !== undefined && image.Containers >= 1, `the image of the container (${Image}) with Containers ≥ 1: ${JSON.stringify(image)}`).toBe(true);
  const listed = usage.Containers?.find((item) => item.Id === container);
  // dockerd leaves SizeRw out while it is 0 (Go omitempty): this container never ran
  context.expect(typeof listed?.SizeRootFs === 'number' && ['number', 'undefined'].includes(typeof listed.SizeRw), `the container with SizeRootFs (and SizeRw, 0 when absent): ${JSON.stringify(listed)}`).toBe(true);
  const volumeUsage = usage.Volumes?.find((item) => item.Name === volume)?.UsageData;
  context.expect(volumeUsage?.RefCount, `the volume's UsageData.RefCount: ${JSON.stringify(volumeUsage)}`).toBe(1);
  context.expect(typeof volumeUsage?.Size, 'the volume\'s UsageData.Size').toBe('number');
});
