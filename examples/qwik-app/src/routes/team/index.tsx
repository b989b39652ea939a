/**
 * A page of the active organization, guarded by `requireOrganizationPermission`: any member may
 * read it; a visitor signed out goes to sign-in; a user without an active organization, or one
 * removed from it, gets a 403 on their next request, still signed in. The invoices part needs
 * the app role `billing`'s permission (or an owner's), shown or not by `hasOrganizationPermission`.
 */
import { component$ } from "@builder.io/qwik"
import { type DocumentHead, routeLoader$ } from "@builder.io/qwik-city"
import { hasOrganizationPermission, requireOrganizationPermission } from "@latchkey/qwik"

export const useTeam = routeLoader$(async (event) => {
  const team = await requireOrganizationPermission(event)
  const invoices = await hasOrganizationPermission(event, { invoice: ["pay"] })
  return { name: team.organization.name, role: team.role, invoices }
})

export default component$(() => {
  const team = useTeam()
  return (
    <section class="card">
      <p class="eyebrow">Organization</p>
      <h1 data-testid="team-name">{team.value.name}</h1>
      <p>
        Your role: <strong data-testid="team-role">{team.value.role}</strong>.
      </p>
      {team.value.invoices && <p data-testid="team-invoices">You may pay the invoices.</p>}
    </section>
  )
})

export const head: DocumentHead = { title: "Organization" }
