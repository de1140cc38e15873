import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { chains, chainScript, expectedStatus, quotedEcho, words } from './shell-scripts.ts';
import { sh } from './run-process.ts';

const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);

describe('sh properties', () => {
  test('the reference evaluator itself: a few known chains', () => {
    const t = { kind: 'true' } as const;
    const f = { kind: 'false' } as const;
    expect(expectedStatus([{ first: f, rest: [{ operator: '&&', command: t }] }])).toBe(1);
    expect(expectedStatus([{ first: f, rest: [{ operator: '||', command: { kind: 'exit', code: 300 } }] }, { first: t, rest: [] }])).toBe(44);
    expect(expectedStatus([{ first: t, rest: [{ operator: '||', command: { kind: 'exit', code: 3 } }] }])).toBe(0);
  });

  test('a ;/&&/|| chain of true, false and exit N exits as the reference evaluator says', async () => {
    await fc.assert(
      fc.asyncProperty(chains, async (lists) => {
        const result = await sh(chainScript(lists));
        expect(result.exitCode).toBe(expectedStatus(lists));
        expect(result.stderr).toBe('');
      }),
      { seed, numRuns: 200 },
    );
  });

  test('words quoted with single or double quotes reach echo unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(words, fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), async (list, style) => {
        const result = await sh(quotedEcho(list, style));
        expect(result.stdout).toBe(`x ${list.join(' ')}\n`);
      }),
      { seed, numRuns: 200 },
    );
  });

  test('a quoted variable keeps its value exactly; unquoted, runs of blanks collapse', async () => {
    await fc.assert(
      fc.asyncProperty(words, async (list) => {
        const value = list.join(' ');
        const assigned = `V='${value.replace(/'/g, "'\\''")}'`;
        const quoted = await sh(`${assigned}; echo "x$V"`);
        expect(quoted.stdout).toBe(`x${value}\n`);
        const literalOnly = /^[a-zA-Z0-9 ]*$/.test(value);
        if (literalOnly) {
          const unquoted = await sh(`${assigned}; echo x $V`);
          expect(unquoted.stdout).toBe(`${['x', ...value.split(' ').filter(Boolean)].join(' ')}\n`);
        }
      }),
      { seed, numRuns: 100 },
    );
  });
});
