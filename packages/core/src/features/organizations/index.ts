/**
 * Organizations: members, roles, invitations (issue 45, docs/design/organizations.md), turned on
 * by `organizations: Organizations({ … })` (`@latchkey/core/organizations`).
 *
 * Where it joins the kernel: its options (`resolve`, checked once), the adapter methods it needs,
 * `{basePath}/organization/*`, the JWT claim a rebuilt token keeps (`org`), and the settling of
 * a user's memberships before the operator deletes the user.
 */
import { MissingAdapter } from "../../kernel/errors/errors.js"
import type { Feature } from "../../kernel/feature/feature.js"
import { keepOrgClaim } from "./active.js"
import { checkOrganizations, FEATURE_ID, resolveOrganizations } from "./config.js"
import { ORGANIZATION_METHODS, orgContext } from "./context.js"
import { removeFromAll } from "./operator.js"
import { organizationGet, organizationPost } from "./routes.js"
import type { OrganizationsOptions } from "./types.js"

export const organizationsFeature: Feature = {
  id: FEATURE_ID,
  resolve(config, report) {
    const options = (config as { organizations?: OrganizationsOptions }).organizations
    checkOrganizations(options, report.problems)
    return resolveOrganizations(options)
  },
  // Named at start-up with every other part's missing methods (one MissingAdapterMethods).
  adapterNeeds: () => ({
    methods: ORGANIZATION_METHODS,
    withoutAdapter: new MissingAdapter(
      "Organizations keep their members and invitations in an adapter with the organizations methods",
    ),
  }),
  routes: { organization: { GET: organizationGet, POST: organizationPost } },
  session: { keepInToken: keepOrgClaim },
  async beforeUserRemoved(config, userId) {
    await removeFromAll(orgContext(config), userId)
  },
}
