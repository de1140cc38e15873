/**
 * The real docker CLI's service commands against `shipshape serve --dialect docker` (a one-node swarm
 * manager, as serve starts), pinned to API 1.24 and 1.25: service create, ls (which also reads GET /tasks and GET /nodes),
 * inspect, update, ps (which reads GET /nodes/{id}) and rm. Each is asserted on what it did.
 */
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { until } from '../../harness/wait-until.ts';
import { CLI_API_VERSIONS, CLI_NAME, cliAgainst, dockerCliInstalled, servedForSuite } from './docker-cli-process.ts';

describe.skipIf(!dockerCliInstalled)(`${CLI_NAME} service commands against shipshape serve --dialect docker`, { timeout: 30_000 }, () => {
  const served = servedForSuite('shipshape-docker-cli-swarm-');

  describe.each(CLI_API_VERSIONS)('DOCKER_API_VERSION=%s', (version) => {
    /** Services are global to the one server: each version has its own names. */
    const named = (name: string) => `cli${version.replace('.', '')}-${name}`;
    const { dockerOk } = cliAgainst(served, version);
    const lines = (text: string) => text.split('\n').filter(Boolean).sort();

    it('service create, ls and inspect show the service with its replicas running', async () => {
      const name = named('web');
      const id = (await dockerOk(['service', 'create', '--name', name, '--replicas', '2', '--label', 'tier=front', '--stop-grace-period', '100ms', 'busybox', 'sleep', '300'])).trim();
      expect(id).toMatch(/^[0-9a-z]{25}$/);
      expect(await dockerOk(['service', 'ls', '--filter', `name=${name}`, '--format', '{{.ID}} {{.Name}} {{.Mode}} {{.Replicas}} {{.Image}}'])).toBe(`${id.slice(0, 12)} ${name} replicated 2/2 busybox:latest\n`);
      expect((await dockerOk(['service', 'inspect', '--format', '{{.Spec.Name}} {{.Spec.Mode.Replicated.Replicas}} {{json .Spec.Labels}} {{json .Spec.TaskTemplate.ContainerSpec.Args}}', name])).trim())
        .toBe(`${name} 2 {"tier":"front"} ["sleep","300"]`);
      await dockerOk(['service', 'rm', name]);
    });

    it('service update changes labels and replicas; service ps lists the running tasks on the node by its hostname', async () => {
      const name = named('scaled');
      await dockerOk(['service', 'create', '--name', name, '--stop-grace-period', '100ms', 'busybox', 'sleep', '300']);
      await dockerOk(['service', 'update', '--label-add', 'changed=yes', '--replicas', '3', name]);
      expect((await dockerOk(['service', 'inspect', '--format', '{{json .Spec.Labels}} {{.Spec.Mode.Replicated.Replicas}}', name])).trim()).toBe('{"changed":"yes"} 3');
      const running = lines(await dockerOk(['service', 'ps', '--filter', 'desired-state=running', '--format', '{{.Name}} {{.Node}} {{.DesiredState}}', name]));
      expect(running).toEqual([1, 2, 3].map((slot) => `${name}.${slot} ${os.hostname()} Running`));
      await dockerOk(['service', 'rm', name]);
    });

    it('service rm removes the service and then its task containers', async () => {
      const name = named('gone');
      await dockerOk(['service', 'create', '--name', name, '--stop-grace-period', '100ms', 'busybox', 'sleep', '300']);
      expect(lines(await dockerOk(['ps', '-q', '--filter', `label=com.docker.swarm.service.name=${name}`]))).toHaveLength(1);
      expect((await dockerOk(['service', 'rm', name])).trim()).toBe(name);
      expect(await dockerOk(['service', 'ls', '--filter', `name=${name}`, '--format', '{{.Name}}'])).toBe('');
      await until(async () => lines(await dockerOk(['ps', '-aq', '--filter', `label=com.docker.swarm.service.name=${name}`])), (left) => left.length === 0, { what: `the containers of ${name} to go` });
    });
  });
});
