import { describe, expect, test } from 'vitest';
import { InvalidParameterError } from '../../../reference/engine/model/common/errors.ts';
import { expandWord, splitWords } from '../../../reference/engine/model/images/image-change-words.ts';
import { applyConfigChanges } from '../../../reference/engine/model/images/image-config-changes.ts';
import { emptyImageConfig } from '../../../reference/engine/model/images/image.ts';

const apply = (...changes: string[]) => applyConfigChanges(emptyImageConfig(), changes);

describe('applyConfigChanges (each case as dockerd 20.10 imported it)', () => {
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
    expect(() => apply('CMD ["ok"]', change)).toThrow(new InvalidParameterError(message));
  });

  test('HEALTHCHECK CMD in both forms, with timings in nanoseconds', () => {
    expect(apply('HEALTHCHECK --interval=1m30s --retries=3 CMD curl -f x').Healthcheck).toEqual({ Test: ['CMD-SHELL', 'curl -f x'], Interval: 90e9, Retries: 3 });
    expect(apply('HEALTHCHECK --timeout=500ms CMD ["true"]').Healthcheck).toEqual({ Test: ['CMD', 'true'], Timeout: 5e8 });
    expect(() => apply('HEALTHCHECK --interval=1us CMD true')).toThrow('Interval "--interval" cannot be less than 1ms');
  });
});

describe('Dockerfile words', () => {
  test('split at unquoted whitespace; quotes, escapes and variables resolved per word', () => {
    expect(splitWords(`a "b c" 'd e'  f\\ g`)).toEqual(['a', '"b c"', "'d e'", 'f\\ g']);
    const env = ['HOME=/root', 'EMPTY='];
    expect(['$HOME', '"$HOME x"', "'$HOME'", '\\$HOME', '${EMPTY:-dflt}', '${HOME:+set}', '${NONE}', 'f\\ g'].map((word) => expandWord(word, env))).toEqual([
      '/root',
      '/root x',
      '$HOME',
      '$HOME',
      'dflt',
      'set',
      '',
      'f g',
    ]);
  });
});
