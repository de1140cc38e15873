/**
 * How a container's processes and log are read back (spec/1 §4.1): top with the caller's ps_args,
 * and logs of a container whose log driver keeps nothing to read.
 */
import { check } from '../../harness/check.ts';
import { until } from '../../harness/wait-until.ts';
import { exitedContainer, startedContainer } from '../container-steps.ts';

/** The columns `ps aux` prints (BSD user format). */
const PS_AUX_TITLES = ['USER', 'PID', '%CPU', '%MEM', 'VSZ', 'RSS', 'TTY', 'STAT', 'START', 'TIME', 'COMMAND'];

check('containers.top.ps-args', {
  title: 'top with ps_args=aux answers the columns of ps aux, one row per process, the command in COMMAND',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/{id_or_name}/top:query:ps_args'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  // Right after the start a real daemon's process can still be its runtime's init, not yet the command.
  const { Titles, Processes } = await until(
    async () => {
      const res = await context.engine.get(`/containers/${id}/top`, { query: { ps_args: 'aux' } });
      context.expect(res.status, 'status').toBe(200);
      return res.json<{ Titles: string[]; Processes: string[][] }>();
    },
    (top) => top.Processes.some((row) => row.includes('sleep 300')),
    { what: 'top to show sleep 300' },
  );
  const seen = { Titles, commands: Processes.map((row) => row[Titles.indexOf('COMMAND')]), columns: Processes.map((row) => row.length) };
  context.expect(seen, `top?ps_args=aux: ${JSON.stringify({ Titles, Processes })}`).toEqual({
    Titles: PS_AUX_TITLES,
    commands: ['sleep 300'],
    columns: [PS_AUX_TITLES.length],
  });
});

check('containers.logs.driver-none', {
  title: 'logs of a container whose LogConfig.Type is none are refused with 501: only json-file and journald logs can be read',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['error'],
  covers: ['1:POST /containers/create:body:HostConfig.LogConfig', '1:GET /containers/{id_or_name}/logs'],
}, async (context) => {
  const id = await exitedContainer(context, { Cmd: ['echo', 'unseen'], HostConfig: { LogConfig: { Type: 'none', Config: {} } } });
  const res = await context.engine.get(`/containers/${id}/logs`, { query: { stdout: '1' } });
  context.expect(res.status, 'status').toBe(501);
});
