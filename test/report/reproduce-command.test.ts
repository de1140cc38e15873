/** The reproduce command under a failure: the request as the check sent it, at the target the report names. */
import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { reproduceCommand, shellWord } from '../../harness/report/reproduce-command.ts';
import type { Report } from '../../harness/report/types.ts';

const socketTarget: Report['target'] = { url: 'unix:///run/docker.sock', dialect: 'docker', kind: 'live' };

test('a JSON POST over a Unix socket: method, headers, body and the versioned path', () => {
  const command = reproduceCommand(socketTarget, {
    method: 'POST', path: '/v1.25/containers/create?name=web', status: 400,
    sent: { headers: { 'content-type': 'application/json' }, body: '{"Image":"busybox","Cmd":["sh","-c","echo \'hi\'"]}', bodyBytes: 48 },
  });
  expect(command).toBe([
    'curl --silent --show-error --include --unix-socket /run/docker.sock \\',
    '  --request POST \\',
    "  --header 'content-type: application/json' \\",
    `  --data-binary '{"Image":"busybox","Cmd":["sh","-c","echo '\\''hi'\\''"]}' \\`,
    "  'http://localhost/v1.25/containers/create?name=web'",
  ].join('\n'));
});

test('a GET over TCP is a plain curl of the URL', () => {
  expect(reproduceCommand({ url: 'tcp://127.0.0.1:2375', dialect: 'engine', kind: 'live' }, { method: 'GET', path: '/v1.18/info' }))
    .toBe('curl --silent --show-error --include \\\n  http://127.0.0.1:2375/v1.18/info');
});

test('the in-process reference: the command says how to serve it, with its personality', () => {
  const command = reproduceCommand({ url: 'reference:strict', dialect: 'engine', kind: 'reference' }, { method: 'DELETE', path: '/v1.24/images/x' });
  expect(command.split('\n')[0]).toBe('# the reference, served: shipshape serve --engine unix:///tmp/shipshape.sock --dialect engine --personality strict');
  expect(command).toContain('--unix-socket /tmp/shipshape.sock');
  expect(command).toContain('--request DELETE');
});

test('a token service request goes to the auth URL, its masked credential pointed out', () => {
  const command = reproduceCommand({ ...socketTarget, authUrl: 'https://auth.example:5001/token' }, {
    method: 'GET', path: '/token?service=reg&scope=repository%3Aa%3Apull', service: 'token', sent: { headers: { authorization: 'Basic <masked>' } },
  });
  expect(command).toContain("'https://auth.example:5001/token?service=reg&scope=repository%3Aa%3Apull'");
  expect(command).not.toContain('--unix-socket');
  expect(command).toMatch(/^# <masked> stands for a credential/m);
});

test('a body the report did not keep is read from a file the comment names; streams and hijacks are not buffered', () => {
  const build = reproduceCommand(socketTarget, { method: 'POST', path: '/v1.25/build', mode: 'stream', sent: { headers: { 'content-type': 'application/x-tar' }, bodyBytes: 10240 } });
  expect(build).toMatch(/^# the 10240-byte body .* put it in body\.bin$/m);
  expect(build).toContain('--data-binary @body.bin');
  expect(build).toContain('--no-buffer');
  const attach = reproduceCommand(socketTarget, { method: 'POST', path: '/v1.25/containers/c/attach?stream=1', mode: 'upgrade', sent: { headers: { connection: 'Upgrade', upgrade: 'tcp' } } });
  expect(attach).toContain("--header 'upgrade: tcp'");
  expect(attach).toMatch(/^# the daemon hijacks the connection/m);
});

test('shell words survive the shell: what sh reads back is the text', () => {
  for (const text of ["it's", 'a b', '$HOME', '"q"', 'back\\slash', '', 'new\nline', 'plain-word']) {
    expect(execFileSync('sh', ['-c', `printf %s ${shellWord(text)}`], { encoding: 'utf8' })).toBe(text);
  }
});
