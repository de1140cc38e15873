/**
 * The package validates reports against its own copy of the report contract (an installed package
 * cannot reach ../shared); that copy must be the contract, byte for byte.
 */
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SHIPPED = fileURLToPath(new URL('../../harness/report/report.schema.json', import.meta.url));
const CONTRACT = fileURLToPath(new URL('../../../shared/report.schema.json', import.meta.url));

it('harness/report/report.schema.json is ../shared/report.schema.json', async (context) => {
  const contract = await fs.readFile(CONTRACT, 'utf8').catch(() => undefined);
  if (contract === undefined) return context.skip(`the contract ${CONTRACT} is not beside this checkout`);
  expect(await fs.readFile(SHIPPED, 'utf8')).toBe(contract);
});
