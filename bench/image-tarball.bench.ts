/**
 * Image save and load throughput: MB/s of `GET /images/{name}/get` (the whole tarball read) and of
 * `POST /images/load?quiet=1` (the tarball sent, the answer read), for an image of about 100 MB,
 * against the reference (started in this process, on a Unix socket) and against a real dockerd,
 * through the same EngineClient over the wire. The image is imported into each target first: the
 * fixture busybox rootfs plus a file of random bytes (random, so that no layer of the target's store
 * and no compression can shortcut it). Before each load the image is deleted, so that every load
 * registers its layer again; it is the loaded image that the next run saves. Each target gets one
 * unmeasured save and load, then N runs; the figures are the median run and the runs' range. The
 * bench removes the image it imported, on failure too.
 *
 *   node --import tsx bench/image-tarball.bench.ts [runs=5] [MB=100] [dockerd=unix:///tmp/d/docker.sock]
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import { request } from 'undici';
import { buildBusyboxRootfs } from '../fixtures/busybox-rootfs.ts';
import type { ApiResponse } from '../harness/client/api-response.ts';
import { createDispatcher } from '../harness/client/dispatcher.ts';
import { EngineClient } from '../harness/client/engine-client.ts';
import { connectionOf, reach } from '../harness/run/prepare-target.ts';
import { readTar, writeTar } from '../reference/engine/filesystem/tar-io.ts';
import { measureReferenceThenDockerd } from './bench-targets.ts';

const runs = Number(process.argv[2] ?? 5);
const megabytes = Number(process.argv[3] ?? 100);
const dockerdUrl = process.argv[4] ?? 'unix:///tmp/d/docker.sock';
const API_VERSION = '1.25';
/** 1 MB = 10^6 bytes, as the frame-decode bench counts */
const MB = 1_000_000;
const IMAGE = `shipshape-bench-tarball:${process.pid}`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** A 200 whose JSON stream holds no error (load and import report failures inside a 200). */
function expectClean(res: ApiResponse): void {
  if (res.status !== 200 || /"error"/.test(res.text())) throw new Error(`expected a clean 200: ${res.describe()} ${res.text().slice(0, 300)}`);
}

/** The fixture rootfs with `data/random.bin` making it up to `megabytes`. */
async function rootfsOf(size: number): Promise<Buffer> {
  const busybox = await buildBusyboxRootfs(await fs.readFile(process.env.SHIPSHAPE_BUSYBOX ?? '/bin/busybox'));
  const members = await readTar(busybox);
  const padding = Math.max(0, size - busybox.length);
  const mtime = new Date(Date.UTC(2000, 0, 1));
  return writeTar([
    ...members,
    { header: { name: 'data/', type: 'directory', mode: 0o755, uid: 0, gid: 0, mtime }, data: Buffer.alloc(0) },
    { header: { name: 'data/random.bin', type: 'file', mode: 0o644, uid: 0, gid: 0, size: padding, mtime }, data: randomBytes(padding) },
  ]);
}

interface Figures {
  tarballBytes: number;
  save: number[];
  load: number[];
}

async function measure(url: string, rootfs: Buffer): Promise<Figures> {
  const connection = connectionOf(url);
  const dispatcher = createDispatcher(connection);
  const engine = new EngineClient(connection, dispatcher, API_VERSION);
  const [repo, tag] = IMAGE.split(':');
  try {
    await reach(engine, url);
    expectClean(await engine.post('/images/create', { query: { fromSrc: '-', repo, tag }, headers: { 'content-type': 'application/x-tar' }, body: rootfs }));
    try {
      // read as a stream, chunks joined once: undici's arrayBuffer(), which EngineClient uses, costs several times the transfer at 100 MB
      const saveOnce = async (): Promise<[Buffer, number]> => {
        const started = performance.now();
        const saved = await request(new URL(`/v${API_VERSION}/images/${IMAGE}/get`, connection.origin), { dispatcher });
        const chunks: Buffer[] = [];
        for await (const chunk of saved.body) chunks.push(chunk as Buffer);
        const seconds = (performance.now() - started) / 1000;
        const tarball = Buffer.concat(chunks);
        if (saved.statusCode !== 200) throw new Error(`save: ${saved.statusCode} ${tarball.toString().slice(0, 300)}`);
        return [tarball, tarball.length / MB / seconds];
      };
      const loadOnce = async (tarball: Buffer): Promise<number> => {
        const removed = await engine.delete(`/images/${IMAGE}`);
        if (removed.status !== 200) throw new Error(`delete before load: ${removed.describe()}`);
        const started = performance.now();
        const loaded = await engine.post('/images/load', { query: { quiet: 1 }, headers: { 'content-type': 'application/x-tar' }, body: tarball });
        const seconds = (performance.now() - started) / 1000;
        expectClean(loaded);
        return tarball.length / MB / seconds;
      };
      const [warmTarball] = await saveOnce();
      await loadOnce(warmTarball);
      const figures: Figures = { tarballBytes: warmTarball.length, save: [], load: [] };
      for (let run = 0; run < runs; run += 1) {
        const [tarball, saveRate] = await saveOnce();
        figures.save.push(saveRate);
        figures.load.push(await loadOnce(tarball));
        // The client keeps every exchange for failure messages; a bench has no use for them.
        engine.exchanges.length = 0;
      }
      return figures;
    } finally {
      await engine.delete(`/images/${IMAGE}`, { query: { force: 1 } });
    }
  } finally {
    await dispatcher.close();
  }
}

const rootfs = await rootfsOf(megabytes * MB);
const results = await measureReferenceThenDockerd(dockerdUrl, (url) => measure(url, rootfs));

const load = os.loadavg().map((value) => value.toFixed(1)).join(' ');
const rate = (values: number[]) => `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
console.log(`save and load of a ${(rootfs.length / MB).toFixed(1)} MB image (one layer), API ${API_VERSION}, median of ${runs} runs (min–max); Node ${process.version}, ${os.cpus().length} cores, load average ${load}`);
console.log('| target | tarball MB | save MB/s | load MB/s |');
console.log('|---|---|---|---|');
for (const [target, figures] of results) console.log(`| ${target} | ${(figures.tarballBytes / MB).toFixed(1)} | ${rate(figures.save)} | ${rate(figures.load)} |`);
