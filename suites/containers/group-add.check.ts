/**
 * HostConfig.GroupAdd (spec/1 §2.3: "[1.20+] additional groups") as the container's process has them.
 * How a process shows its groups is the fixture command contract's `id` (busybox's, as runc sets the
 * groups at start), so the check is docker-level, as dockerd 20.10 runs it.
 */
import { check } from '../../harness/check.ts';
import { exitedContainer, loggedStdout } from '../container-steps.ts';

check('containers.create.group-add-in-process', {
  title: 'a container created with HostConfig.GroupAdd runs its process in those groups besides its own (`id -G`: the primary group, then the others in order); a group name /etc/group does not know fails the start (500)',
  spec: '1 §2.3',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.20',
  tags: ['state'],
}, async (context) => {
  const groups = await loggedStdout(context, await exitedContainer(context, { Cmd: ['id', '-G'], Tty: false, HostConfig: { GroupAdd: ['4343', '4242'] } }));
  context.expect(groups, 'id -G with GroupAdd 4343 and 4242').toBe('0 4242 4343\n');
  const unknown = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], HostConfig: { GroupAdd: ['shipshape-no-such-group'] } });
  const res = await context.engine.post(`/containers/${unknown}/start`);
  context.expect(res.status, `POST /containers/{id}/start with an unknown group: ${res.describe()}`).toBe(500);
});
