/**
 * The layer cache: a second build of the same context reuses every step; `nocache` reuses none; a
 * changed file misses from its COPY on; the images of the steps are a chain of parents.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { EngineModel } from '../../../reference/engine/model/engine-model.ts';
import { runBuild } from './build-fixtures.ts';

let model: EngineModel;

beforeEach(() => {
  model = new EngineModel();
});

const DOCKERFILE = 'FROM busybox\nENV A=1\nRUN echo hi > /f\nCOPY . /ctx/\nCMD ["sh"]\n';
const cacheHits = (text: string) => text.split(' ---> Using cache\n').length - 1;

describe('the layer cache', () => {
  test('a second build of the same context reuses every step and gives the same image', async () => {
    const first = await runBuild(model, DOCKERFILE, { f: 'one' });
    const containers = model.containers.size;
    const second = await runBuild(model, DOCKERFILE, { f: 'one' });
    expect(cacheHits(first.output.text)).toBe(0);
    expect(cacheHits(second.output.text)).toBe(4);
    expect(second.output.text).not.toContain('Running in');
    expect(second.image.id).toBe(first.image.id);
    expect(model.containers.size).toBe(containers);
  });

  test('FROM scratch: the steps are looked for among the images without a parent, intermediate ones too', async () => {
    const dockerfile = 'FROM scratch\nCOPY f /f\nENV A=1\n';
    const first = await runBuild(model, dockerfile, { f: 'one' });
    const second = await runBuild(model, dockerfile, { f: 'one' });
    expect(cacheHits(second.output.text)).toBe(2);
    expect(second.image.id).toBe(first.image.id);
  });

  test('nocache builds every step anew', async () => {
    const first = await runBuild(model, DOCKERFILE, { f: 'one' });
    const second = await runBuild(model, DOCKERFILE, { f: 'one' }, { noCache: true });
    expect(cacheHits(second.output.text)).toBe(0);
    expect(second.image.id).not.toBe(first.image.id);
  });

  test("a changed file misses from the COPY of it on; the steps before still hit", async () => {
    await runBuild(model, DOCKERFILE, { f: 'one' });
    const { output } = await runBuild(model, DOCKERFILE, { f: 'two' });
    const steps = output.text.split(/Step \d\/5 : /).slice(1);
    expect(steps.map((step) => step.includes('Using cache'))).toEqual([false, true, true, false, false]);
  });

  test('build args take part in the key of the RUN steps that see them', async () => {
    const dockerfile = 'FROM busybox\nARG V\nRUN echo $V\n';
    await runBuild(model, dockerfile, {}, { buildArgs: new Map([['V', 'one']]) });
    const same = await runBuild(model, dockerfile, {}, { buildArgs: new Map([['V', 'one']]) });
    const other = await runBuild(model, dockerfile, {}, { buildArgs: new Map([['V', 'two']]) });
    expect(cacheHits(same.output.text)).toBe(2);
    expect(cacheHits(other.output.text)).toBe(1);
  });

  test("each step's image is the next one's parent, down to the FROM image", async () => {
    const { image } = await runBuild(model, DOCKERFILE, { f: 'one' });
    const chain: string[] = [];
    for (let id = image.id; id !== ''; id = model.images.byId(id)?.parent ?? '') chain.push(id);
    expect(chain).toHaveLength(5);
    expect(chain.at(-1)).toBe(model.images.find('busybox').id);
    expect(model.images.byId(image.parent)?.repoTags).toEqual([]);
  });
});
