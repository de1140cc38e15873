/**
 * Create-body fields that round-trip: a create at the version under test accepts the field and
 * inspect shows it back, in Config or HostConfig. One check per field (or group of fields that go
 * together), declared from a table, so that a target that lacks one fails that check alone.
 */
import { check, type CheckContext, type CheckLevel, type CheckTag } from '../../harness/check.ts';
import type { ApiVersion } from '../../harness/versions.ts';
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
  /** HostConfig fields, shown back in inspect HostConfig */
  hostConfig?: Record<string, unknown>;
  /** capabilities of the host the fields need (CheckMeta.requires) */
  requires?: string[];
}

/** One check per rule: create with the rule's fields, then inspect must show each of them as given. */
export function roundTripChecks(rules: RoundTrip[], meta: { spec: string; tags: CheckTag[]; level?: CheckLevel; seen?: string }): void {
  for (const rule of rules) {
    check(`containers.create.${rule.id}`, { title: rule.title, since: rule.since, covers: rule.covers, ...(rule.requires && { requires: rule.requires }), ...meta }, async (context) => {
      const { config = {}, hostConfig = {} } = rule;
      const inspected = await createAndInspect(context, { ...config, ...(rule.hostConfig && { HostConfig: hostConfig }) });
      const seen = { Config: shown(inspected.Config, config), HostConfig: shown(inspected.HostConfig, hostConfig) };
      context.expect(seen, `the fields as inspect shows them at ${context.version}: ${JSON.stringify(seen)}`).toEqual({ Config: config, HostConfig: hostConfig });
    });
  }
}
