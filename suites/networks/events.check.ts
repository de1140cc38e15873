/**
 * The network events (spec/2 §6): create and destroy as a network is made and removed, connect and
 * disconnect as a container joins and leaves it, each with the network as actor; connect and
 * disconnect with the attributes container, name and type; as dockerd 20.10 does, where the spec gives
 * no values: container is the container's id, name the network's, and `network=<id>` filters.
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

/** The attributes spec/2 §6 rule 1 names, by their JSON type: their values are not given. */
function attributeTypes(event: EventView): Record<string, unknown> {
  const { name, type, container } = event.Actor?.Attributes ?? {};
  return { ...seen(event), name: typeof name, type: typeof type, container: typeof container };
}

/** dockerd's values: the network's name, the container's id; the type only as a string. */
function seenWithAttributes(event: EventView): Record<string, unknown> {
  const { name, type, container } = event.Actor?.Attributes ?? {};
  return { ...seen(event), name, type: typeof type, container };
}

check('networks.events.create-destroy', {
  title: 'creating a network emits create and removing it destroy, with the network id as actor',
  spec: '2 §2.9, §4.2, §4.4, §6',
  quote: ['| network | create, connect, disconnect, destroy |', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}', 'since (timestamp; show events since then and keep streaming)', 'type=<string> (container, image, volume, network or daemon)', '| DELETE /networks/{id} | | none | 204 (200 at 1.21) | 204, 404, 500 |'],
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
  title: 'connecting a container emits connect and disconnecting it disconnect, with the network id as actor and the attributes container, name and type',
  spec: '2 §2.9, §4.2, §6',
  quote: ['| network | create, connect, disconnect, destroy |', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}', 'network connect and disconnect events carry container, name and type attributes', 'since (timestamp; show events since then and keep streaming)', 'type=<string> (container, image, volume, network or daemon)'],
  since: '1.21',
  tags: ['stream', 'state'],
  covers: ['2:GET /events', '2:GET /events:query:filters.type'],
}, async (context) => {
  const name = context.make.uniqueName('n');
  const id = await ownNetwork(context, { Name: name });
  const container = await runningContainer(context);
  // by type only, and told apart by the network as actor: the values of the network filter and of the
  // attributes are not given (only one container ever joins this network)
  const stream = await eventsFromNow(context, { type: ['network'] });
  try {
    await connected(context, id, container);
    context.expect((await disconnect(context, id, container)).status, 'POST /networks/{id}/disconnect status').toBe(200);
    const events = await eventsUntil(stream, (event) => event.Actor?.ID === id, (event) => event.Action === 'disconnect');
    // dockerd sends one disconnect twice (as the endpoint leaves, and as the container is taken off): the first of each action counts.
    const firsts = ['connect', 'disconnect'].map((action) => events.find((event) => event.Action === action)).filter((event): event is EventView => event !== undefined);
    context.expect(firsts.map(attributeTypes), `the connect and disconnect events of network ${name}`).toEqual([
      { Type: 'network', Action: 'connect', ID: id, name: 'string', type: 'string', container: 'string' },
      { Type: 'network', Action: 'disconnect', ID: id, name: 'string', type: 'string', container: 'string' },
    ]);
  } finally {
    stream.close();
  }
});

check('networks.events.connect-attributes', {
  title: 'the connect and disconnect events carry the container’s id as container and the network’s name as name, and the network filter takes the network’s id',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  spec: '2 §2.9, §4.2, §6',
  since: '1.21',
  tags: ['stream', 'state'],
  covers: ['2:GET /events:query:filters.network'],
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
