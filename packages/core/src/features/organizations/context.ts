/** What every organization operation works with: the config, its adapter and settings. */
import type { ResolvedConfig } from "../../kernel/config/resolve.js"
import type { OrganizationEvent } from "../../kernel/events/callbacks.js"
import { emitEvent } from "../../kernel/events/emit.js"
import { type Adapter, organizationAdapterMethods } from "../../kernel/types/adapters.js"
import { organizationSettings, type ResolvedOrganizations } from "./config.js"
import { refuse } from "./refusals.js"

export type OrganizationAdapter = Required<
  Pick<Adapter, (typeof organizationAdapterMethods)[number] | "getUser">
> &
  Adapter

export interface OrgContext {
  config: ResolvedConfig
  adapter: OrganizationAdapter
  settings: ResolvedOrganizations
}

/** The adapter methods the feature needs: the organizations group, and the inviter's name. */
export const ORGANIZATION_METHODS: readonly string[] = [...organizationAdapterMethods, "getUser"]

/** The adapter methods `adapter` lacks of `ORGANIZATION_METHODS`. */
function missingMethods(adapter: object | undefined): string[] {
  return ORGANIZATION_METHODS.filter(
    (m) => typeof (adapter as Record<string, unknown> | undefined)?.[m] !== "function",
  )
}

export function orgContext(config: ResolvedConfig): OrgContext {
  const settings = organizationSettings(config)
  if (!settings) {
    throw refuse(
      "not-configured",
      501,
      "Organizations are not configured (set the organizations option)",
    )
  }
  // The start-up check refused a config without them; this only narrows the type.
  if (missingMethods(config.adapter).length > 0) {
    throw refuse("not-configured", 501, "The adapter lacks the organizations methods")
  }
  return { config, adapter: config.adapter as OrganizationAdapter, settings }
}

/** Reports `event` to the app's `events.organization` (a throwing handler is logged). */
export function emit(oc: OrgContext, event: OrganizationEvent): Promise<void> {
  return emitEvent(oc.config.events, oc.config.logger, "organization", event)
}
