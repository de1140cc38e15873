/** A commit's and an import's `changes` read by the builder's grammar, each answer as dockerd 20.10 gave it. */
import { describe, expect, test } from 'vitest';
import { applyConfigChanges } from '../../../reference/engine/builder/config-changes.ts';
import { InvalidParameterError } from '../../../reference/engine/model/common/errors.ts';
import { emptyImageConfig } from '../../../reference/engine/model/images/image.ts';

const apply = (...changes: string[]) => applyConfigChanges(emptyImageConfig(), changes);

/** The refusal of the changes: an InvalidParameterError (400), and its message. */
function refusal(...changes: string[]): { invalidParameter: boolean; message: string } {
  try {
    apply(...changes);
  } catch (error) {
    return { invalidParameter: error instanceof InvalidParameterError, message: (error as Error).message };
  }
  throw new Error(`accepted: ${changes.join(' | ')}`);
}

describe('applyConfigChanges (each case as dockerd 20.10 imported it, POST /images/create?fromSrc=-&changes=…)', () => {
  test('every change instruction at once', () => {
    const config = apply(
      'EXPOSE 80 8080/udp',
      'VOLUME ["/data"]',
      'VOLUME /a /b',
      'LABEL a=b "c d"=e',
      'ENV X y z',
      'ENV P=1 Q="two words"',
      'WORKDIR rel',
      'USER nobody',
      'ONBUILD RUN ls',
      'ENTRYPOINT ["/bin/sh","-c"]',
      'HEALTHCHECK NONE',
    );
    expect(config).toMatchObject({
      User: 'nobody',
      ExposedPorts: { '80/tcp': {}, '8080/udp': {} },
      Env: ['X=y z', 'P=1', 'Q=two words'],
      Cmd: null,
      Healthcheck: { Test: ['NONE'] },
      Volumes: { '/a': {}, '/b': {}, '/data': {} },
      WorkingDir: '/rel',
      Entrypoint: ['/bin/sh', '-c'],
      OnBuild: ['RUN ls'],
      Labels: { a: 'b', 'c d': 'e' },
    });
  });

  test('CMD: exec form, shell form (kept as written), bare, and not-quite JSON', () => {
    expect(apply('CMD ["sh"]').Cmd).toEqual(['sh']);
    expect(apply('cmd echo hi && ls').Cmd).toEqual(['/bin/sh', '-c', 'echo hi && ls']);
    expect(apply('CMD').Cmd).toEqual(['/bin/sh', '-c']);
    expect(apply('CMD [bad').Cmd).toEqual(['/bin/sh', '-c', '[bad']);
  });

  test('ENTRYPOINT drops the command unless these changes set one; bare ENTRYPOINT is none', () => {
    const base = { ...emptyImageConfig(), Cmd: ['sh'] };
    expect(applyConfigChanges(base, ['ENTRYPOINT ["top"]']).Cmd).toBeNull();
    expect(applyConfigChanges(base, ['CMD ["-b"]', 'ENTRYPOINT ["top"]']).Cmd).toEqual(['-b']);
    expect(apply('ENTRYPOINT').Entrypoint).toBeNull();
  });

  test('variables come from the Env as it stands; ENV replaces a variable in place', () => {
    expect(apply('ENV A=$PATH:x').Env).toEqual(['A=:x']);
    const config = applyConfigChanges({ ...emptyImageConfig(), Env: ['PATH=/bin', 'B=1'] }, ['ENV PATH=${PATH}:/x', 'WORKDIR /w/$B']);
    expect(config.Env).toEqual(['PATH=/bin:/x', 'B=1']);
    expect(config.WorkingDir).toBe('/w/1');
  });

  test('leaves the given config alone', () => {
    const base = emptyImageConfig();
    applyConfigChanges(base, ['ENV A=1', 'LABEL l=1']);
    expect(base).toEqual(emptyImageConfig());
  });

  test.each([
    ['RUN echo', 'run is not a valid change command'],
    ['FROM x', 'from is not a valid change command'],
    ['STOPSIGNAL SIGKILL', 'stopsignal is not a valid change command'],
    ['ENV', 'ENV requires at least one argument'],
    ['ENV a', 'ENV must have two arguments'],
    ['LABEL a', 'LABEL must have two arguments'],
    ['EXPOSE abc', 'Invalid containerPort: abc'],
    ['WORKDIR', 'WORKDIR requires exactly one argument'],
    ['USER', 'USER requires exactly one argument'],
    ['ONBUILD FROM x', "FROM isn't allowed as an ONBUILD trigger"],
    ['ONBUILD ONBUILD RUN x', "Chaining ONBUILD via `ONBUILD ONBUILD` isn't allowed"],
    ['VOLUME', 'VOLUME requires at least one argument'],
    ['HEALTHCHECK', 'HEALTHCHECK requires at least one argument'],
    ['ENV a=1 b', 'Syntax error - can\'t find = in "b". Must be of the form: name=value'],
  ])('%s is refused: %s', (change, message) => {
    expect(refusal('CMD ["ok"]', change)).toEqual({ invalidParameter: true, message });
  });

  test('HEALTHCHECK CMD in both forms, with timings in nanoseconds', () => {
    expect(apply('HEALTHCHECK --interval=1m30s --retries=3 CMD curl -f x').Healthcheck).toEqual({ Test: ['CMD-SHELL', 'curl -f x'], Interval: 90e9, Retries: 3 });
    expect(apply('HEALTHCHECK --timeout=500ms CMD ["true"]').Healthcheck).toEqual({ Test: ['CMD', 'true'], Timeout: 5e8 });
    expect(apply('HEALTHCHECK --start-period=2s --interval=1h CMD ["a","b"]').Healthcheck).toEqual({ Test: ['CMD', 'a', 'b'], Interval: 3600e9, StartPeriod: 2e9 });
    expect(apply('HEALTHCHECK --interval= CMD x').Healthcheck).toEqual({ Test: ['CMD-SHELL', 'x'] });
    // NONE never reads its flags
    expect(apply('HEALTHCHECK --foo=1 NONE').Healthcheck).toEqual({ Test: ['NONE'] });
  });

  // Where the changes' own parser (before the builder's grammar took them) answered otherwise than dockerd 20.10.
  test.each([
    ['USER a b', { User: 'a b' }],
    ['EXPOSE 80/tcp/udp', { ExposedPorts: { '80/tcp': {} } }],
    ['VOLUME ["/x"] extra', { Volumes: { '/x': {} } }],
    ['CMD ["a"] trailing', { Cmd: ['a'] }],
    ['ONBUILD BOGUS x', { OnBuild: ['BOGUS x'] }],
    ['ONBUILD RUN --foo x', { OnBuild: ['RUN --foo x'] }],
    ['EXPOSE $P', { ExposedPorts: {} }],
  ])('%s is taken as dockerd takes it', (change, expected) => {
    expect(apply(change)).toMatchObject(expected);
  });

  test('a bare CMD sets no command for a later ENTRYPOINT to keep', () => {
    expect(applyConfigChanges({ ...emptyImageConfig(), Cmd: ['sh'] }, ['CMD', 'ENTRYPOINT ["top"]']).Cmd).toBeNull();
  });

  test.each([
    ['EXPOSE 8002-8000', 'Invalid containerPort: 8002-8000'],
    ['EXPOSE 80/xyz', 'Invalid proto: xyz'],
    ['CMD --foo x', 'Unknown flag: foo'],
    ['HEALTHCHECK --interval=1us CMD true', 'Interval "interval" cannot be less than 1ms'],
    ['HEALTHCHECK --interval=0 CMD true', 'Interval "interval" cannot be less than 1ms'],
    ['HEALTHCHECK --interval 5s CMD true', 'Missing a value on flag: interval'],
    ['HEALTHCHECK --timeout=1s --timeout=2s CMD true', 'Duplicate flag specified: timeout'],
    ['HEALTHCHECK --retries=x CMD true', 'strconv.ParseInt: parsing "x": invalid syntax'],
    ['HEALTHCHECK CMD [1,2]', 'when using JSON array syntax, arrays must be comprised of strings only'],
    ['ONBUILD ENV a', 'ENV must have two arguments'],
    ['ENV A=${B:?nope}', 'failed to process "${B:?nope}": B: nope'],
    ['ENV A="unterminated', 'failed to process "\\"unterminated": unexpected end of statement while looking for matching double-quote'],
    ['ENV =x', 'ENV names can not be blank'],
    ['LABEL =x', 'LABEL names can not be blank'],
    ['SHELL ["/bin/sh", "-c"]', 'shell is not a valid change command'],
    ['# only a comment', 'file with no instructions'],
  ])('%s is refused as dockerd refuses it: %s', (change, message) => {
    expect(refusal(change)).toEqual({ invalidParameter: true, message });
  });

  test('a syntax error anywhere comes before a command that is not allowed, which comes before an instruction\'s rules', () => {
    expect(() => apply('RUN echo', 'ENV a')).toThrow('ENV must have two arguments');
    expect(() => apply('USER', 'RUN echo')).toThrow('run is not a valid change command');
  });

  test('the lines are one build file: an escape directive, continuations and comments', () => {
    expect(apply('# escape=`', 'ENV A=1`', 'B=2').Env).toEqual(['A=1B=2']);
    expect(apply('ENV A=1\\\nB=2').Env).toEqual(['A=1B=2']);
    expect(apply('# comment', 'ENV A=1').Env).toEqual(['A=1']);
  });
});
