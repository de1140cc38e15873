/**
 * `npm run review:stamp -- ID...` (or `-- --all`): records the current fingerprint of checks whose
 * reading is current, after a reader who saw only the spec and the check has read them as they are
 * now. The ratchet (readings-ratchet.test.ts) fails for a spec-level check changed since.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { currentFingerprints, readReadings, REPO_ROOT } from './review-readings.ts';

const args = process.argv.slice(2);
const all = args.includes('--all');
const wanted = new Set(args.filter((arg) => arg !== '--all'));
if (!all && wanted.size === 0) {
  process.stderr.write('usage: npm run review:stamp -- ID... | --all\n');
  process.exit(2);
}
let stamped = 0;
for (const file of await readReadings()) {
  const fingerprints = await currentFingerprints(file);
  const readings = file.readings.map((reading) => {
    if (!all && !wanted.has(reading.id)) return reading;
    wanted.delete(reading.id);
    if (reading.fingerprint !== fingerprints.get(reading.id)) stamped++;
    return { ...reading, fingerprint: fingerprints.get(reading.id) };
  });
  await fs.writeFile(path.join(REPO_ROOT, file.file), `${JSON.stringify(readings, null, 2)}\n`);
}
if (wanted.size > 0) {
  process.stderr.write(`no reading recorded for: ${[...wanted].join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`${stamped} fingerprint${stamped === 1 ? '' : 's'} recorded\n`);
