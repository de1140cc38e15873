/**
 * How a container's processes and log are read back (spec/1 §4.1): top with the caller's ps_args,
 * and logs of a container whose log driver keeps nothing to read.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { until } from '../../harness/wait-until.ts';
import { exitedContainer, startedContainer } from '../container-steps.ts';

/** The columns procps `ps aux` prints (BSD user format). */
const PS_AUX_TITLES = ['USER', 'PID', '%CPU', '%MEM', 'VSZ', 'RSS', 'TTY', 'STAT', 'START', 'TIME', 'COMMAND'];

/** top of `id` with `query`, once it shows `sleep 300`: right after the start a real daemon's process can still be its runtime's init. */
function topShowingSleep(context: CheckContext, id: string, query: Record<string, string>): Promise<{ Titles: string[]; Processes: string[][] }> {
  return until(
    async () => {
      const res = await context.engine.get(`/containers/${id}/top`, { query });
      context.expect(res.status, `GET /containers/{id}/top?${new URLSearchParams(query)} status`).toBe(200);
      return res.json<{ Titles: string[]; Processes: string[][] }>();
    },
    (top) => top.Processes.some((row) => row.some((cell) => cell.includes('sleep 300'))),
    { what: 'top to show sleep 300' },
  );
}

check('containers.top.ps-args', {
  title: 'top with ps_args=aux answers other columns than the default (-ef) ones, a row per process with the command in it',
  spec: '1 §4.1, §2.4',
  quote: ['| GET /containers/{id_or_name}/top | ps_args (string, default `-ef`) | none | 200 {Titles, Processes}; not supported on Windows | 200, 404, 500 |', 'Top: Titles (array of string), Processes (array of arrays of string).', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/{id_or_name}/top:query:ps_args'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  // Which columns ps prints for aux is ps's own matter; the spec says only that ps_args reach it.
  const byDefault = await topShowingSleep(context, id, {});
  const aux = await topShowingSleep(context, id, { ps_args: 'aux' });
  context.expect(aux.Titles, `Titles with ps_args=aux against the default ${JSON.stringify(byDefault.Titles)}`).not.toEqual(byDefault.Titles);
  context.expect(aux.Processes.map((row) => row.length), `columns of each row, for ${aux.Titles.length} titles: ${JSON.stringify(aux)}`).toEqual(aux.Processes.map(() => aux.Titles.length));
});

check('containers.top.ps-args-aux-columns', {
  title: 'top with ps_args=aux answers the columns of procps ps aux, one row per process, the command in COMMAND',
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  const { Titles, Processes } = await topShowingSleep(context, id, { ps_args: 'aux' });
  const seen = { Titles, commands: Processes.map((row) => row[Titles.indexOf('COMMAND')]), columns: Processes.map((row) => row.length) };
  context.expect(seen, `top?ps_args=aux: ${JSON.stringify({ Titles, Processes })}`).toEqual({
    Titles: PS_AUX_TITLES,
    commands: ['sleep 300'],
    columns: [PS_AUX_TITLES.length],
  });
});

check('containers.logs.driver-none', {
  title: 'logs of a container whose LogConfig.Type is none are refused with 500, the row\'s error status: only json-file and journald logs can be read',
  spec: '1 §4.1, §2.3, §7.2',
  quote: ['stream, see 4.4; only for containers using the json-file or journald log drivers | 101 (hint for proxy about hijacking), 200 (no upgrade header), 404, 500 |', '| LogConfig | object | {Type, Config}; Type values: json-file, syslog, journald, gelf, none, plus awslogs (from 1.21), fluentd, splunk, etwlogs (1.25) |', '404 no such container', '500 server error', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.18',
  tags: ['error'],
  covers: ['1:POST /containers/create:body:HostConfig.LogConfig', '1:GET /containers/{id_or_name}/logs', '1:GET /containers/{id_or_name}/logs:status:500'],
}, async (context) => {
  const id = await exitedContainer(context, { Cmd: ['echo', 'unseen'], HostConfig: { LogConfig: { Type: 'none', Config: {} } } });
  const res = await context.engine.get(`/containers/${id}/logs`, { query: { stdout: '1' } });
  // The row lists 101, 200, 404 and 500: 404 says there is no such container, so a refusal is 500.
  context.expect(res.status, `status: ${res.text().trim()}`).toBe(500);
});
