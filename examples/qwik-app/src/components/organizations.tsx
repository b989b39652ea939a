/**
 * The account page's Organizations section: the user's organizations and which one they act in,
 * a new one, and the active one's members and invitations. Every change is a `<Form>` on one of
 * the binding's organization actions, so it works without JavaScript; the core decides who may
 * do what (a role above your own, the last owner, another organization's ids are refused) and
 * the refusal's message is shown where the user acted.
 */
import { component$ } from "@builder.io/qwik"
import { Form } from "@builder.io/qwik-city"
import type { OrganizationsData } from "@latchkey/qwik"
import {
  useCancelInvitation,
  useCreateOrganization,
  useDeleteOrganization,
  useInviteMember,
  useLeaveOrganization,
  useRemoveMember,
  useSetActiveOrganization,
  useUpdateMemberRole,
} from "~/routes/plugin@auth"
import { AccountResult } from "./account-result"

export const OrganizationsSection = component$(
  (props: { data: OrganizationsData; userId: string | undefined }) => {
    const create = useCreateOrganization()
    const setActive = useSetActiveOrganization()
    const { organizations, active } = props.data
    return (
      <section class="card" data-testid="organizations">
        <h2>Organizations</h2>
        {organizations.length === 0 ? (
          <p class="hint" data-testid="no-organizations">
            You are in no organization yet.
          </p>
        ) : (
          <ul class="items">
            {organizations.map((o) => (
              <li key={o.id} class="item" data-testid="organization" data-slug={o.slug}>
                <div class="item-head">
                  <strong>{o.name}</strong>
                  <span class="item-meta" data-testid="organization-role">
                    {o.slug} · {o.role}
                  </span>
                </div>
                {active?.organization.id === o.id ? (
                  <span class="item-meta" data-testid="organization-active">
                    Active
                  </span>
                ) : (
                  <Form action={setActive}>
                    <input type="hidden" name="organizationId" value={o.id} />
                    <button type="submit" class="button ghost" data-testid="organization-switch">
                      Switch to it
                    </button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        )}
        <AccountResult value={setActive.value} done="Switched." testId="organization-switch" />
        <Form action={create} class="inline-form">
          <label>
            Name
            <input name="name" required maxLength={100} data-testid="organization-name" />
          </label>
          <label>
            Slug
            <input
              name="slug"
              required
              minLength={2}
              maxLength={48}
              pattern="[A-Za-z0-9]+(-[A-Za-z0-9]+)*"
              data-testid="organization-slug"
            />
          </label>
          <button type="submit" class="button" data-testid="organization-create">
            Create
          </button>
        </Form>
        <AccountResult value={create.value} done="Created." testId="organization-create" />
        {props.data.detail && active && (
          <ActiveOrganization data={props.data} userId={props.userId} />
        )}
      </section>
    )
  },
)

const ActiveOrganization = component$(
  (props: { data: OrganizationsData; userId: string | undefined }) => {
    const invite = useInviteMember()
    const cancel = useCancelInvitation()
    const changeRole = useUpdateMemberRole()
    const remove = useRemoveMember()
    const leave = useLeaveOrganization()
    const destroy = useDeleteOrganization()
    const detail = props.data.detail!
    const active = props.data.active!
    const organizationId = active.organization.id
    const manages = detail.role === "owner" || detail.role === "admin"
    return (
      <div class="stack" data-testid="active-organization">
        <h3>
          {active.organization.name} <span class="item-meta">(you are {detail.role})</span>
        </h3>
        <ul class="items">
          {detail.members.map((m) => (
            <li key={m.userId} class="item" data-testid="member" data-email={m.email ?? ""}>
              <div class="item-head">
                <strong>{m.email ?? m.name ?? m.userId}</strong>
                <span class="item-meta" data-testid="member-role">
                  {m.role}
                </span>
              </div>
              {manages && m.userId !== props.userId && (
                <>
                  <Form action={changeRole} class="inline-form">
                    <input type="hidden" name="organizationId" value={organizationId} />
                    <input type="hidden" name="userId" value={m.userId} />
                    <RoleSelect
                      roles={detail.roles}
                      selected={m.role}
                      testId="member-role-select"
                    />
                    <button type="submit" class="button ghost" data-testid="member-role-save">
                      Change role
                    </button>
                  </Form>
                  <Form action={remove}>
                    <input type="hidden" name="organizationId" value={organizationId} />
                    <input type="hidden" name="userId" value={m.userId} />
                    <button type="submit" class="button danger" data-testid="member-remove">
                      Remove
                    </button>
                  </Form>
                </>
              )}
            </li>
          ))}
        </ul>
        <AccountResult value={changeRole.value} done="Role changed." testId="member-role" />
        <AccountResult value={remove.value} done="Removed." testId="member-remove" />
        {manages && (
          <>
            <Form action={invite} class="inline-form">
              <input type="hidden" name="organizationId" value={organizationId} />
              <label>
                Invite by email
                <input name="email" type="email" required data-testid="invite-email" />
              </label>
              <RoleSelect roles={detail.roles} selected="member" testId="invite-role" />
              <button type="submit" class="button" data-testid="invite-send">
                Invite
              </button>
            </Form>
            <AccountResult
              value={invite.value}
              done="Invitation sent (see the dev mailbox)."
              testId="invite"
            />
            {detail.invitations.length > 0 && (
              <ul class="items">
                {detail.invitations.map((i) => (
                  <li key={i.id} class="item" data-testid="invitation">
                    <div class="item-head">
                      <strong>{i.email}</strong>
                      <span class="item-meta">
                        {i.role} · {i.expired ? "expired" : "pending"}
                      </span>
                    </div>
                    <Form action={cancel}>
                      <input type="hidden" name="organizationId" value={organizationId} />
                      <input type="hidden" name="invitationId" value={i.id} />
                      <button type="submit" class="button ghost" data-testid="invitation-cancel">
                        Cancel
                      </button>
                    </Form>
                  </li>
                ))}
              </ul>
            )}
            <AccountResult value={cancel.value} done="Cancelled." testId="invitation-cancel" />
          </>
        )}
        <Form action={leave}>
          <input type="hidden" name="organizationId" value={organizationId} />
          <button type="submit" class="button ghost" data-testid="organization-leave">
            Leave {active.organization.name}
          </button>
        </Form>
        <AccountResult value={leave.value} done="You left." testId="organization-leave" />
        {detail.role === "owner" && (
          <Form action={destroy}>
            <input type="hidden" name="organizationId" value={organizationId} />
            <button type="submit" class="button danger" data-testid="organization-delete">
              Delete {active.organization.name}
            </button>
          </Form>
        )}
        <AccountResult value={destroy.value} done="Deleted." testId="organization-delete" />
      </div>
    )
  },
)

/** The roles of the app (built in and its own) as a `role` field, `selected` chosen. */
const RoleSelect = component$((props: { roles: string[]; selected: string; testId: string }) => (
  <select name="role" aria-label="Role" data-testid={props.testId}>
    {props.roles.map((r) => (
      <option key={r} value={r} selected={r === props.selected}>
        {r}
      </option>
    ))}
  </select>
))
