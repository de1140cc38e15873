/** The instructions' argument forms and rules, with dockerd's messages. */
import { describe, expect, test } from 'vitest';
import { BuildfileSyntaxError, InstructionError } from '../../../reference/engine/builder/buildfile-errors.ts';
import { planBuild, type Instruction } from '../../../reference/engine/builder/buildfile-instructions.ts';
import { parseBuildfile } from '../../../reference/engine/builder/buildfile-parser.ts';

function plan(text: string) {
  const { lines, escape } = parseBuildfile(text);
  return planBuild(lines, escape);
}

function instruction(line: string): Instruction {
  return plan(`FROM busybox\n${line}\n`).stages[0]?.instructions[0] as Instruction;
}

describe('planBuild', () => {
  test('ARGs before the first FROM are meta args; each FROM begins a stage', () => {
    const built = plan('ARG BASE=busybox\nFROM $BASE\nRUN true\nFROM busybox AS second\nCMD x\n');
    expect(built.metaArgs.map((meta) => meta.args)).toEqual([[{ key: 'BASE', value: 'busybox' }]]);
    expect(built.stages.map((stage) => [stage.from.image, stage.instructions.map((step) => step.kind)])).toEqual([
      ['$BASE', ['run']],
      ['busybox', ['cmd']],
    ]);
  });

  test.each([
    ['RUN echo "$HOME" > /x', { kind: 'run', command: { shell: true, words: ['echo "$HOME" > /x'] } }],
    ['RUN ["echo", "x"]', { kind: 'run', command: { shell: false, words: ['echo', 'x'] } }],
    ['RUN [ "echo", "x" ', { kind: 'run', command: { shell: true, words: ['[ "echo", "x"'] } }],
    ['CMD ["a", "b"]', { kind: 'cmd', command: { shell: false, words: ['a', 'b'] } }],
    ['CMD', { kind: 'cmd', command: { shell: true, words: [] } }],
    ['ENV A=1 B="two words"', { kind: 'env', pairs: [{ key: 'A', value: '1' }, { key: 'B', value: '"two words"' }] }],
    ['ENV OLD value with  spaces', { kind: 'env', pairs: [{ key: 'OLD', value: 'value with  spaces' }] }],
    ['LABEL "k"="v w" k2=v2', { kind: 'label', pairs: [{ key: '"k"', value: '"v w"' }, { key: 'k2', value: 'v2' }] }],
    ['COPY a b /dest/', { kind: 'copy', sources: ['a', 'b'], dest: '/dest/' }],
    ['ADD ["a b", "/c"]', { kind: 'add', sources: ['a b'], dest: '/c' }],
    ['VOLUME /data ["/v2"]', { kind: 'volume', volumes: ['/data', '["/v2"]'] }],
    ['VOLUME ["/a", "/b"]', { kind: 'volume', volumes: ['/a', '/b'] }],
    ['EXPOSE 80 443/udp', { kind: 'expose', ports: ['443/udp', '80'] }],
    ['ARG A B=2', { kind: 'arg', args: [{ key: 'A' }, { key: 'B', value: '2' }] }],
    ['WORKDIR /a b', { kind: 'workdir', path: '/a b' }],
    ['ONBUILD RUN echo x', { kind: 'onbuild', expression: 'RUN echo x' }],
    ['onbuild env A=1', { kind: 'onbuild', expression: 'env A=1' }],
    // the trigger's rules are the business of the build that runs it
    ['ONBUILD ENV', { kind: 'onbuild', expression: 'ENV' }],
    ['ONBUILD RUN --foo x', { kind: 'onbuild', expression: 'RUN --foo x' }],
    // what follows the JSON value is not read (Go's json.Decoder)
    ['CMD ["a"] trailing', { kind: 'cmd', command: { shell: false, words: ['a'] } }],
    ['HEALTHCHECK --interval=5s --timeout=3s --start-period=2s --retries=4 CMD echo ok', { kind: 'healthcheck', health: { Test: ['CMD-SHELL', 'echo ok'], Interval: 5e9, Timeout: 3e9, StartPeriod: 2e9, Retries: 4 } }],
    ['healthcheck cmd ["true"]', { kind: 'healthcheck', health: { Test: ['CMD', 'true'] } }],
    ['HEALTHCHECK --interval=1m30s --timeout= CMD x', { kind: 'healthcheck', health: { Test: ['CMD-SHELL', 'x'], Interval: 90e9 } }],
    ['HEALTHCHECK --bogus NONE', { kind: 'healthcheck', health: { Test: ['NONE'] } }],
    ['SHELL ["/bin/bash", "-c"]', { kind: 'shell', shell: ['/bin/bash', '-c'] }],
  ])('%s', (line, expected) => {
    expect(instruction(line)).toMatchObject({ ...expected, text: line });
  });

  test.each([
    ['FOO bar', 'unknown instruction: FOO'],
    ['ENV', 'ENV requires at least one argument'],
    ['LABEL', 'LABEL requires at least one argument'],
    ['COPY a', 'COPY requires at least two arguments, but only one was provided. Destination could not be determined'],
    ['WORKDIR', 'WORKDIR requires exactly one argument'],
    ['USER', 'USER requires exactly one argument'],
    ['EXPOSE', 'EXPOSE requires at least one argument'],
    ['VOLUME', 'VOLUME requires at least one argument'],
    ['ONBUILD ONBUILD RUN x', 'Chaining ONBUILD via `ONBUILD ONBUILD` isn\'t allowed'],
    ['ONBUILD FROM x', "FROM isn't allowed as an ONBUILD trigger"],
    ['COPY --bogus=1 a b', 'Unknown flag: bogus'],
    ['FROM a b', 'FROM requires either one or three arguments'],
    ['HEALTHCHECK', 'HEALTHCHECK requires at least one argument'],
    ['HEALTHCHECK FOO', 'Unknown type "FOO" in HEALTHCHECK (try CMD)'],
    ['HEALTHCHECK NONE x', 'HEALTHCHECK NONE takes no arguments'],
    ['HEALTHCHECK CMD', 'Missing command after HEALTHCHECK CMD'],
    ['HEALTHCHECK --foo=1 CMD true', 'Unknown flag: foo'],
    ['HEALTHCHECK --interval 5s CMD true', 'Missing a value on flag: interval'],
    ['HEALTHCHECK --timeout=1s --timeout=2s CMD true', 'Duplicate flag specified: timeout'],
    ['HEALTHCHECK --interval=abc CMD true', 'time: invalid duration "abc"'],
    ['HEALTHCHECK --interval=5 CMD true', 'time: missing unit in duration "5"'],
    ['HEALTHCHECK --interval=5x CMD true', 'time: unknown unit "x" in duration "5x"'],
    ['HEALTHCHECK --start-period=1us CMD true', 'Interval "start-period" cannot be less than 1ms'],
    ['HEALTHCHECK --interval=-5s CMD true', 'Interval "interval" cannot be less than 1ms'],
    ['HEALTHCHECK --retries=0 CMD true', '--retries must be at least 1 (not 0)'],
    ['HEALTHCHECK --retries=x CMD true', 'strconv.ParseInt: parsing "x": invalid syntax'],
    ['SHELL', 'SHELL requires at least one argument'],
    ['SHELL []', 'SHELL requires at least one argument'],
    ['SHELL /bin/sh -c', 'SHELL requires the arguments to be in JSON form'],
    ['SHELL --foo ["/bin/sh", "-c"]', 'Unknown flag: foo'],
  ])('%s is refused on its line: %s', (line, reason) => {
    expect(() => instruction(line)).toThrow(new InstructionError(reason, 2));
    expect(() => instruction(line)).toThrow(`dockerfile parse error line 2: ${reason}`);
  });

  test.each([
    ['ENV A', 'ENV must have two arguments'],
    ['LABEL a=b c', 'Syntax error - can\'t find = in "c". Must be of the form: name=value'],
    ['RUN [1, 2]', 'when using JSON array syntax, arrays must be comprised of strings only'],
    ['HEALTHCHECK CMD [1, 2]', 'when using JSON array syntax, arrays must be comprised of strings only'],
    ['SHELL [1]', 'when using JSON array syntax, arrays must be comprised of strings only'],
    ['ONBUILD ENV a', 'ENV must have two arguments'],
  ])('%s is a syntax error of the file: %s', (line, message) => {
    expect(() => instruction(line)).toThrow(new BuildfileSyntaxError(message));
  });

  test('an instruction before any FROM has no stage', () => {
    expect(() => plan('RUN true\n')).toThrow('dockerfile parse error line 1: no build stage in current context');
  });
});
