/**
 * The network events (spec/2 §6): create and destroy as a network is made and removed, connect and
 * disconnect as a container joins and leaves it, each with the network as actor; connect and
 * disconnect with the attributes container (the container's id), name (the network's) and type.
 */
import { check } from '../../harness/check.ts';
import { eventsFromNow, eventsUntil, type EventView } from '../daemon-events.ts';
import { connected, disconnect, ownNetwork, runningContainer } from './network-steps.ts';

/**
 * What the checks compare of an event. spec/2 §6 rule 1 gives connect and disconnect the attributes
 * container, name and type, but no values for type, and no attributes for create and destroy.
 */
function seen(event: EventView): Record<string, unknown> {
  return { Type: event.Type, Action: event.Action, ID: event.Actor?.ID };
}

function seenWithAttributes(event: EventView): Record<string, unknown> {
  const { name, type, container } = event.Actor?.Attributes ?? {};
  return { ...seen(event), name, type: typeof type, container };
}

check('networks.events.create-destroy', {
  title: 'creating a network emits create and removing it destroy, with the network id as actor',
  spec: '2 §6',
  since: '1.21',
  tags: ['stream', 'state'],
  covers: ['2:GET /events', '2:GET /events:query:filters.type'],
}, async (context) => {
  const name = context.make.uniqueName('n');
  // by type only: the network's id is not known yet, and create need not carry the name
  const stream = await eventsFromNow(context, { type: ['network'] });
  try {
    const id = await ownNetwork(context, { Name: name });
    const removed = await context.engine.delete(`/networks/${id}`);
    context.expect(removed.status, 'DELETE /networks/{id} status').toBeLessThan(300);
    const events = await eventsUntil(stream, (event) => event.Actor?.ID === id, (event) => event.Action === 'destroy');
    context.expect(events.map(seen), `the events of network ${name}`).toEqual([
      { Type: 'network', Action: 'create', ID: id },
      { Type: 'network', Action: 'destroy', ID: id },
    ]);
  } finally {
    stream.close();
  }
});

check('networks.events.connect-disconnect', {
  title: 'connecting a container emits connect and disconnecting it disconnect, with the network id and the attributes container, name and type',
  spec: '2 §6',
  since: '1.21',
  tags: ['stream', 'state'],
  covers: ['2:GET /events', '2:GET /events:query:filters.network'],
}, async (context) => {
  const name = context.make.uniqueName('n');
  const id = await ownNetwork(context, { Name: name });
  const container = await runningContainer(context);
  const stream = await eventsFromNow(context, { type: ['network'], network: [id] });
  try {
    await connected(context, id, container);
    context.expect((await disconnect(context, id, container)).status, 'POST /networks/{id}/disconnect status').toBe(200);
    const events = await eventsUntil(stream, (event) => event.Actor?.Attributes?.container === container, (event) => event.Action === 'disconnect');
    // dockerd sends one disconnect twice (as the endpoint leaves, and as the container is taken off): the first of each action counts.
    const firsts = ['connect', 'disconnect'].map((action) => events.find((event) => event.Action === action)).filter((event): event is EventView => event !== undefined);
    context.expect(firsts.map(seenWithAttributes), `the connect and disconnect events of network ${name}`).toEqual([
      { Type: 'network', Action: 'connect', ID: id, name, type: 'string', container },
      { Type: 'network', Action: 'disconnect', ID: id, name, type: 'string', container },
    ]);
  } finally {
    stream.close();
  }
});
