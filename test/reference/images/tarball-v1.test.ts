/**
 * The v1 documents of image tarballs against what dockerd 20.10 wrote and made of them: the v1 ids
 * and jsons its save writes for an image, and the config documents its legacy load makes of v1 jsons.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { configFromV1Json, diffIdsOf, historyOf, parseJsonObject, v1LayersOf, type JsonObject } from '../../../reference/engine/model/images/image-tarball-v1.ts';
import { COMMITTED, IMPORTED, LEGACY_LOADED } from './dockerd-saved-documents.ts';

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const textOf = (layers: Array<{ id: string; json: Buffer }>) => layers.map(({ id, json }) => ({ id, json: json.toString() }));

describe('the v1 layers a save writes', () => {
  test('are the ids and jsons dockerd wrote for an imported image (one layer, a top-level comment)', () => {
    expect(textOf(v1LayersOf(Buffer.from(IMPORTED.config)))).toEqual(IMPORTED.v1Layers);
  });

  test('are the ids and jsons dockerd wrote for a committed image (the layer below has creation time 0 and no config)', () => {
    expect(textOf(v1LayersOf(Buffer.from(COMMITTED.config)))).toEqual(COMMITTED.v1Layers);
  });

  test('change with the layers below: the same top config on another base layer gets other ids', () => {
    const document = parseJsonObject(Buffer.from(COMMITTED.config));
    const rebased = { ...document, rootfs: { type: 'layers', diff_ids: [sha256('another base'), ...diffIdsOf(document).slice(1)] } };
    const ids = v1LayersOf(Buffer.from(JSON.stringify(rebased))).map(({ id }) => id);
    expect(ids).toHaveLength(2);
    expect(ids).not.toContain(COMMITTED.v1Layers[0]?.id);
    expect(ids).not.toContain(COMMITTED.v1Layers[1]?.id);
  });

  test('a document without rootfs is refused', () => {
    expect(() => v1LayersOf(Buffer.from('{"os":"linux"}'))).toThrow('invalid image JSON, no RootFS key');
  });
});

describe('the config documents a legacy load makes of v1 jsons', () => {
  test('are byte for byte those dockerd made, layer by layer, with the ids dockerd gave them', () => {
    const diffIds = diffIdsOf(parseJsonObject(Buffer.from(COMMITTED.config)));
    let history: JsonObject[] = [];
    COMMITTED.v1Layers.forEach(({ json }, index) => {
      const config = configFromV1Json(parseJsonObject(Buffer.from(json)), diffIds.slice(0, index + 1), history);
      expect(config.toString()).toBe(LEGACY_LOADED[index]?.config);
      expect(sha256(config.toString())).toBe(LEGACY_LOADED[index]?.id);
      history = historyOf(parseJsonObject(config));
    });
  });

  test('a json written before docker 1.8.3 keeps only the v1 image fields', () => {
    const config = parseJsonObject(configFromV1Json({ id: 'x', created: '2015-01-01T00:00:00Z', docker_version: '1.6.0', Size: 12, extra: true, os: 'linux' }, ['sha256:a'], []));
    expect(Object.keys(config)).toEqual(['container_config', 'created', 'docker_version', 'history', 'os', 'rootfs']);
  });

  test('a newer json keeps its other keys, drops the v1 bookkeeping ones, and sorts them', () => {
    const config = parseJsonObject(configFromV1Json({ id: 'x', parent: 'y', layer_id: 'z', throwaway: true, docker_version: '1.10.0', zeta: 1, created: '2016-01-01T00:00:00Z' }, ['sha256:a'], []));
    expect(Object.keys(config)).toEqual(['created', 'docker_version', 'history', 'rootfs', 'zeta']);
  });
});
