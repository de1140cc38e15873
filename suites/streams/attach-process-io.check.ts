/**
 * What a client attached before the start sees of the process (docker-level: spec/1 §4.4 says the
 * stream is "the raw data of the process pseudo-terminal and the client stdin" and orders nothing): the
 * output is on the stream before the exit answers a wait, and a Tty's line discipline echoes the input,
 * writes \r\n and takes ctrl-d as the end of input, as dockerd's pseudo-terminal does.
 */
import { check } from '../../harness/check.ts';
import { createdContainer, startContainer } from '../container-steps.ts';
import { STREAM_TIMEOUT_MS, stdoutSoFar } from '../stream-reading.ts';

const ATTACHED_OUTPUT = { stream: 1, stdout: 1, stderr: 1 };

check('streams.attach.output-before-wait', {
  title: 'a container started right after a hijacked attach to it: its output is on the attach stream by the time its wait answers',
  // spec/1 orders neither the attach stream against the wait nor the start against the attach; dockerd
  // copies a process's streams out before its exit is known (the client reads them first)
  spec: '1 §4.1, §4.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream', 'state'],
}, async (context) => {
  const id = await createdContainer(context, { Cmd: ['echo', 'hello'], Tty: false });
  const stream = await context.engine.hijack(`/containers/${id}/attach`, { query: ATTACHED_OUTPUT });
  try {
    await startContainer(context, id);
    const waited = await context.engine.post(`/containers/${id}/wait`, { signal: AbortSignal.timeout(STREAM_TIMEOUT_MS) });
    context.expect(waited.status, 'POST /containers/{id}/wait status').toBe(200);
    // What the client's socket had already taken in when the wait answered (a turn of the event loop for it).
    await new Promise((resolve) => setImmediate(resolve));
    context.expect(stdoutSoFar(stream.received), 'stdout on the attach stream when the wait answered').toBe('hello\n');
  } finally {
    stream.close();
  }
});

check('streams.attach.tty-line-discipline', {
  title: 'through an attach to a Tty, the terminal echoes the input, ends a line with \\r\\n and takes ctrl-d as the end of input',
  // spec/1 §4.4 says "the raw data of the process pseudo-terminal and the client stdin"; what a terminal does with them it does not say
  spec: '1 §4.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream'],
}, async (context) => {
  const id = await createdContainer(context, { Cmd: ['sh', '-c', 'wc -c'], OpenStdin: true, Tty: true });
  const stream = await context.engine.hijack(`/containers/${id}/attach`, { query: { ...ATTACHED_OUTPUT, stdin: 1 } });
  try {
    await startContainer(context, id);
    await stream.write('hello\n\x04');
    const body = await stream.readToEnd(STREAM_TIMEOUT_MS);
    // wc counts the 6 bytes the terminal passed on (its \n, not the \r\n it echoed); ctrl-d itself is not input.
    context.expect(body.toString('latin1'), 'the raw stream').toBe('hello\r\n6\r\n');
  } finally {
    stream.close();
  }
});
