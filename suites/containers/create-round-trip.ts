/**
 * Create-body fields that round-trip: a create at the version under test accepts the field and
 * inspect shows it back, in Config (spec level) or HostConfig (docker level, spec/1 §2.2 does not say
 * what inspect's HostConfig holds). One check per field (or group of fields that go together),
 * declared from a table, so that a target that lacks one fails that check alone.
 */
import { check, type CheckContext, type CheckLevel, type CheckTag } from '../../harness/check.ts';
import type { ApiVersion } from '../../protocol/versions.ts';
import { createContainer, inspectContainer } from '../container-steps.ts';

export interface Inspected {
  Config: Record<string, unknown>;
  HostConfig: Record<string, unknown>;
  NetworkSettings: { Networks?: Record<string, unknown> };
}

/** Creates a container of the fixture image with `body` at the version under test (which must answer 201) and inspects it. */
export async function createAndInspect(context: CheckContext, body: Record<string, unknown>): Promise<Inspected> {
  const res = await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'], ...body });
  context.expect(res.status, `create status at ${context.version} for ${JSON.stringify(body)}: ${res.text().trim()}`).toBe(201);
  return inspectContainer<Inspected>(context, res.json<{ Id: string }>().Id);
}

/** The fields of `section` named in `given`, as inspect shows them. */
function shown(section: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(given).map((field) => [field, section[field]]));
}

export interface RoundTrip {
  /** the case of the check id `containers.create.<case>` */
  id: string;
  since: ApiVersion;
  title: string;
  covers: string[];
  /** top-level creation fields, shown back in inspect Config */
  config?: Record<string, unknown>;
  /** HostConfig fields: sent at spec level; shown back in inspect HostConfig at docker level (the `-in-inspect` twin) */
  hostConfig?: Record<string, unknown>;
  /** capabilities of the host the fields need (CheckMeta.requires) */
  requires?: string[];
  /** verbatim spec text this rule's fields rest on, after the table's shared quotes (CheckMeta.quote) */
  quote?: string[];
}

const SEEN = 'dockerd 20.10.24';

/** The creation body of a rule: its Config fields at the top, its HostConfig fields under HostConfig. */
function bodyOf(rule: RoundTrip): Record<string, unknown> {
  return { ...rule.config, ...(rule.hostConfig && { HostConfig: rule.hostConfig }) };
}

/**
 * One check per rule: a create with the rule's fields answers 201 and inspect Config shows each Config
 * field as given (spec/1 §2.2: the Config object "carries the creation Config fields in 2.3"). What
 * inspect's HostConfig holds the spec does not say (§2.2 gives only "HostConfig (object)"), so at spec
 * level a rule's HostConfig fields are only sent, and a docker-level twin `<id>-in-inspect` pins
 * dockerd's answer, which shows them back as given. A docker-level table asserts both in its one check.
 */
export function roundTripChecks(rules: RoundTrip[], meta: { spec: string; quote?: string[]; tags: CheckTag[]; level?: CheckLevel; seen?: string }): void {
  const docker = meta.level === 'docker';
  for (const rule of rules) {
    const quote = [...(meta.quote ?? []), ...(rule.quote ?? [])];
    const requires = rule.requires && { requires: rule.requires };
    check(`containers.create.${rule.id}`, { title: rule.title, since: rule.since, covers: rule.covers, ...requires, ...meta, ...(quote.length > 0 && { quote }) }, async (context) => {
      const { config = {}, hostConfig = {} } = rule;
      const inspected = await createAndInspect(context, bodyOf(rule));
      const seen = { Config: shown(inspected.Config, config), ...(docker && { HostConfig: shown(inspected.HostConfig, hostConfig) }) };
      const given = { Config: config, ...(docker && { HostConfig: hostConfig }) };
      context.expect(seen, `the fields as inspect shows them at ${context.version}: ${JSON.stringify(seen)}`).toEqual(given);
    });
    if (docker || rule.hostConfig === undefined) continue;
    const hostConfig = rule.hostConfig;
    const names = Object.keys(hostConfig).join(', ');
    check(`containers.create.${rule.id}-in-inspect`, {
      title: `inspect HostConfig shows ${names} back as the create gave them`,
      spec: meta.spec,
      level: 'docker',
      seen: SEEN,
      since: rule.since,
      tags: meta.tags,
      ...requires,
    }, async (context) => {
      const inspected = await createAndInspect(context, bodyOf(rule));
      const seen = shown(inspected.HostConfig, hostConfig);
      context.expect(seen, `inspect HostConfig at ${context.version}: ${JSON.stringify(seen)}`).toEqual(hostConfig);
    });
  }
}
