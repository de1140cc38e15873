/**
 * Random scripts for the property tests, with what they must do: `;`/`&&`/`||` chains of true,
 * false and `exit N` with a tiny reference evaluator, and words quoted so that echo prints them back.
 */
import fc from 'fast-check';

export type ChainCommand = { kind: 'true' } | { kind: 'false' } | { kind: 'exit'; code: number };

export interface AndOrChain {
  first: ChainCommand;
  rest: Array<{ operator: '&&' | '||'; command: ChainCommand }>;
}

const command: fc.Arbitrary<ChainCommand> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<ChainCommand>({ kind: 'true' }) },
  { weight: 4, arbitrary: fc.constant<ChainCommand>({ kind: 'false' }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 300 }).map((code): ChainCommand => ({ kind: 'exit', code })) },
);

const andOr: fc.Arbitrary<AndOrChain> = fc.record({
  first: command,
  rest: fc.array(fc.record({ operator: fc.constantFrom<'&&' | '||'>('&&', '||'), command }), { maxLength: 4 }),
});

export const chains: fc.Arbitrary<AndOrChain[]> = fc.array(andOr, { minLength: 1, maxLength: 5 });

function text(command: ChainCommand): string {
  return command.kind === 'exit' ? `exit ${command.code}` : command.kind;
}

export function chainScript(lists: AndOrChain[]): string {
  return lists.map((list) => [text(list.first), ...list.rest.map(({ operator, command: next }) => `${operator} ${text(next)}`)].join(' ')).join('; ');
}

/** What POSIX says the chain exits with: short-circuit && and ||, `exit` ends it all, modulo 256. */
export function expectedStatus(lists: AndOrChain[]): number {
  let status = 0;
  for (const list of lists) {
    const run = (next: ChainCommand): number | { exit: number } => (next.kind === 'exit' ? { exit: next.code % 256 } : next.kind === 'true' ? 0 : 1);
    let result = run(list.first);
    if (typeof result !== 'number') return result.exit;
    for (const { operator, command: next } of list.rest) {
      if ((operator === '&&') !== (result === 0)) continue;
      result = run(next);
      if (typeof result !== 'number') return result.exit;
    }
    status = result;
  }
  return status;
}

/** Words with the characters that need quoting, never an echo option. */
export const words: fc.Arbitrary<string[]> = fc.array(
  fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '  ', "'", '"', '$', '\\', '*', '?', '-', '=', '#', ';', '&', '|', '>', '<', '~', '{', '}', '(', ')', 'é'), maxLength: 8 }),
  { minLength: 1, maxLength: 5 },
);

/** Each word quoted one way or the other, so that the shell hands it to echo unchanged. */
export function quotedEcho(list: string[], useDoubleQuotes: boolean[]): string {
  const quoted = list.map((word, index) =>
    useDoubleQuotes[index % useDoubleQuotes.length] ? `"${word.replace(/[\\"$`]/g, '\\$&')}"` : `'${word.replace(/'/g, "'\\''")}'`,
  );
  // a first word that is no option, so that a word like -n stays a word
  return `echo x ${quoted.join(' ')}`;
}
