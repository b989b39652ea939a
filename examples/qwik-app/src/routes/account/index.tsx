/**
 * The account page: the nickname (a custom session field), the password and the email address,
 * passkeys, the devices signed in, the linked sign-in methods, and organizations. Every change is a `<Form>` on one of the binding's account actions,
 * so it works without JavaScript; adding a passkey runs the WebAuthn ceremony, which needs it.
 * The core refuses changes when the sign-in is not recent; the page then offers to sign in again.
 */
import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Form, type RequestHandler, useLocation } from "@builder.io/qwik-city"
import { type AccountData, registerPasskey, type Session } from "@latchkey/qwik"
import { AccountResult } from "~/components/account-result"
import { NewPassword } from "~/components/new-password"
import { OrganizationsSection } from "~/components/organizations"
import { PasskeyButton } from "~/components/passkey-button"
import {
  accountLoaders,
  useChangeEmail,
  useChangePassword,
  useDeletePasskey,
  useRemovePassword,
  useRenamePasskey,
  useRevokeOtherSessions,
  useRevokeSession,
  useSession,
  useSetPassword,
  useUnlinkAccount,
  useUpdateSession,
} from "../plugin@auth"

// Exported by this page only, so only this page pays for reading the account (see plugin@auth).
export const useAccount = accountLoaders.useAccount
export const useOrganizations = accountLoaders.useOrganizations

export const onRequest: RequestHandler = ({ sharedMap, url, redirect }) => {
  if (!(sharedMap.get("@latchkey/session") as Session | null)) {
    throw redirect(302, `/signin/?callbackUrl=${encodeURIComponent(url.pathname)}`)
  }
}

/** A wire date (ISO string or epoch milliseconds) the same on the server and in the browser. */
function when(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "—"
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return "—"
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`
}

/** `maxAge` seconds for a person: "10 minutes", or seconds below two minutes. */
function duration(seconds: number): string {
  return seconds < 120 ? `${seconds} seconds` : `${Math.round(seconds / 60)} minutes`
}

/** Where the passkey lives, from the authenticator's backup flags. */
function storage(backedUp: boolean, deviceType: string | null): string {
  if (deviceType !== "multiDevice") return "this device only"
  return backedUp ? "synced to your other devices" : "can sync, not backed up yet"
}

const providerNames: Record<string, string> = {
  "local-oidc": "Local OpenID",
  github: "GitHub",
  google: "Google",
  email: "Email link",
}

export default component$(() => {
  const account = useAccount()
  const organizations = useOrganizations()
  const loc = useLocation()
  const data = account.value
  if (!data) {
    return (
      <section class="card narrow">
        <h1>Account</h1>
        <p>
          You are signed out. <a href="/signin/?callbackUrl=%2Faccount%2F">Sign in</a>
        </p>
      </section>
    )
  }
  const reauthUrl = `/signin/?callbackUrl=${encodeURIComponent("/account/")}&reauth=1`
  return (
    <div class="stack account-page">
      <section class="card">
        <p class="eyebrow">Account</p>
        <h1>Your account</h1>
        <p>
          Signed in as <strong data-testid="account-email">{data.user.email}</strong>.
        </p>
        {!data.recentAuth.recent && (
          <p class="notice warning" data-testid="reauth-hint">
            Changes to passkeys, devices and sign-in methods need a recent sign-in (within the last{" "}
            {duration(data.recentAuth.maxAge)}). You will be asked to{" "}
            <a href={reauthUrl}>sign in again</a> first.
          </p>
        )}
      </section>
      <Nickname />
      <PasswordMethod data={data} />
      <EmailAddress data={data} />
      <Passkeys data={data} added={loc.url.searchParams.get("passkey") === "added"} />
      <Devices data={data} />
      <SignInMethods data={data} />
      {organizations.value && (
        <OrganizationsSection data={organizations.value} userId={data.user.id} />
      )}
      <section class="card" data-testid="two-factor-link">
        <h2>Two-factor sign-in</h2>
        <p>
          Ask for a code from an authenticator app after the password:{" "}
          <a href="/account/two-factor/">set up two-factor sign-in</a>.
        </p>
      </section>
    </div>
  )
})

const Nickname = component$(() => {
  const session = useSession()
  const update = useUpdateSession()
  return (
    <section class="card">
      <h2>Nickname</h2>
      <p>
        A custom field of the session, changed through the session <code>update</code> trigger.
        Current nickname: <strong data-testid="current-nickname">{session.value?.nickname}</strong>
      </p>
      <Form action={update} class="inline-form">
        <label>
          New nickname
          <input
            name="data.nickname"
            required
            maxLength={40}
            value={session.value?.nickname ?? ""}
          />
        </label>
        <button type="submit" class="button" data-testid="save-nickname">
          Save
        </button>
      </Form>
      {update.value?.session && (
        <p class="notice success" data-testid="saved">
          Saved.
        </p>
      )}
      {update.value?.failed && (
        <p class="notice error">Please enter a nickname of at most 40 characters.</p>
      )}
    </section>
  )
})

/**
 * The password as a sign-in method (`data.password`, `null` when the app has no `Password`
 * provider): set one, change it, or remove it (the current password is needed for both; every
 * other device is signed out), which the core refuses when it is the last way to sign in.
 */
const PasswordMethod = component$((props: { data: AccountData }) => {
  const set = useSetPassword()
  const change = useChangePassword()
  const remove = useRemovePassword()
  const password = props.data.password
  if (password === null) return null
  return (
    <section class="card" data-testid="password-method">
      <h2>Password</h2>
      {password.set ? (
        <>
          <p data-testid="password-set">You can sign in with your email address and password.</p>
          <Form action={change} class="stack">
            <label>
              Current password
              <input
                name="currentPassword"
                type="password"
                autoComplete="current-password"
                required
              />
            </label>
            <NewPassword />
            <button type="submit" class="button" data-testid="password-change">
              Change password
            </button>
          </Form>
          <Form action={remove} class="stack">
            <label>
              Current password
              <input
                name="currentPassword"
                type="password"
                autoComplete="current-password"
                required
              />
            </label>
            <button type="submit" class="button danger" data-testid="password-remove">
              Remove the password
            </button>
          </Form>
        </>
      ) : (
        <>
          <p data-testid="password-unset">No password yet: add one to sign in with your address.</p>
          <Form action={set} class="inline-form">
            <NewPassword />
            <button type="submit" class="button" data-testid="password-add">
              Set password
            </button>
          </Form>
        </>
      )}
      <AccountResult
        value={change.value}
        done="Password changed. Every other device is signed out."
        testId="password-change"
      />
      <AccountResult value={set.value} done="Password set." testId="password-add" />
      <AccountResult value={remove.value} done="Password removed." testId="password-remove" />
    </section>
  )
})

/**
 * Change the address: a link to the new address proves it before the account moves, and the
 * old address gets a notice. The current password is asked for when the account has one.
 */
const EmailAddress = component$((props: { data: AccountData }) => {
  const change = useChangeEmail()
  return (
    <section class="card" data-testid="email-address">
      <h2>Email address</h2>
      <Form action={change} class="stack">
        <label>
          New address
          <input name="email" type="email" autoComplete="email" required />
        </label>
        {props.data.password?.set && (
          <label>
            Current password
            <input name="currentPassword" type="password" autoComplete="current-password" />
          </label>
        )}
        <button type="submit" class="button" data-testid="email-change">
          Change address
        </button>
      </Form>
      <AccountResult
        value={change.value}
        done="Open the link we sent to the new address to confirm it."
        testId="email-change"
      />
    </section>
  )
})

const Passkeys = component$((props: { data: AccountData; added: boolean }) => {
  const rename = useRenamePasskey()
  const remove = useDeletePasskey()
  const passkeys = props.data.passkeys
  return (
    <section class="card" data-testid="passkeys">
      <h2>Passkeys</h2>
      <p>Sign in with your fingerprint, face or screen lock instead of a password.</p>
      {passkeys === null ? (
        <p class="hint">This app's database cannot list passkeys.</p>
      ) : passkeys.length === 0 ? (
        <p class="hint" data-testid="no-passkeys">
          No passkeys yet.
        </p>
      ) : (
        <ul class="items">
          {passkeys.map((p) => (
            <li key={p.id} class="item" data-testid="passkey">
              <div class="item-head">
                <strong data-testid="passkey-name">{p.name ?? "Unnamed passkey"}</strong>
                <span class="item-meta">
                  Added {when(p.createdAt)} · last used {when(p.lastUsedAt)} ·{" "}
                  {storage(p.backedUp, p.deviceType)}
                </span>
              </div>
              <div class="item-actions">
                <Form action={rename} class="inline-form">
                  <input type="hidden" name="id" value={p.id} />
                  <label>
                    Name
                    <input
                      name="name"
                      required
                      maxLength={64}
                      placeholder="e.g. Work laptop"
                      value={p.name ?? ""}
                      data-testid="passkey-rename-input"
                    />
                  </label>
                  <button type="submit" class="button ghost" data-testid="passkey-rename">
                    Rename
                  </button>
                </Form>
                <Form action={remove}>
                  <input type="hidden" name="id" value={p.id} />
                  <button type="submit" class="button danger" data-testid="passkey-delete">
                    Delete
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
      <AccountResult value={rename.value} done="Passkey renamed." testId="passkey-rename" />
      <AccountResult value={remove.value} done="Passkey deleted." testId="passkey-delete" />
      <PasskeyButton
        class="button ghost"
        testId="register-passkey"
        run$={() => registerPasskey({ redirectTo: "/account/?passkey=added" })}
      >
        Add a passkey
      </PasskeyButton>
      <noscript>
        <p class="hint">Adding a passkey needs JavaScript.</p>
      </noscript>
      {props.added && (
        <p class="notice success" data-testid="passkey-added">
          Passkey added.
        </p>
      )}
    </section>
  )
})

const Devices = component$((props: { data: AccountData }) => {
  const revoke = useRevokeSession()
  const revokeOthers = useRevokeOtherSessions()
  const sessions = props.data.sessions
  return (
    <section class="card" data-testid="devices">
      <h2>Devices</h2>
      <p>Where your account is signed in. End a session you do not recognise.</p>
      {sessions === null ? (
        <p class="hint">This app cannot list sessions.</p>
      ) : (
        <ul class="items">
          {sessions.map((s) => (
            <li
              key={s.id}
              class="item"
              data-testid={s.current ? "device-current" : "device"}
              data-session-id={s.id}
            >
              <div class="item-head">
                <strong>{s.userAgent ?? "Unknown browser"}</strong>
                {s.current && (
                  <span class="badge" data-testid="this-device">
                    This device
                  </span>
                )}
                <span class="item-meta">
                  Signed in {when(s.createdAt)} · last seen {when(s.lastSeenAt)}
                </span>
              </div>
              {!s.current && (
                <Form action={revoke}>
                  <input type="hidden" name="id" value={s.id} />
                  <button type="submit" class="button ghost" data-testid="device-revoke">
                    End this session
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      {sessions?.some((s) => !s.current) && (
        <Form action={revokeOthers}>
          <button type="submit" class="button danger" data-testid="devices-revoke-others">
            Sign out all other devices
          </button>
        </Form>
      )}
      <AccountResult value={revoke.value} done="Session ended." testId="device-revoke" />
      <AccountResult
        value={revokeOthers.value}
        done="Every other device is signed out."
        testId="devices-revoke-others"
      />
    </section>
  )
})

/**
 * Sign-in links by mail (`data.emailLink`, set while email sign-in is on and the address is
 * proven): a way in like the others, so an account whose password and providers are gone still
 * shows how to get back in. It has no remove button: the address is the account's.
 */
const EmailLinkMethod = component$((props: { data: AccountData }) => {
  const link = props.data.emailLink
  if (link === null) return null
  return (
    <div class="item" data-testid="email-link-method">
      <div class="item-head">
        <strong>{providerNames[link.provider] ?? "Email link"}</strong>
        <span class="item-meta">to {link.email}</span>
      </div>
      <p class="hint" data-testid="email-link-why">
        A sign-in link sent to your address. It cannot be removed on its own: change your email
        address to move it.
      </p>
    </div>
  )
})

const SignInMethods = component$((props: { data: AccountData }) => {
  const unlink = useUnlinkAccount()
  const accounts = props.data.accounts
  return (
    <section class="card" data-testid="sign-in-methods">
      <h2>Linked sign-in methods</h2>
      <p>Accounts at other providers you can sign in with.</p>
      <EmailLinkMethod data={props.data} />
      {accounts === null ? (
        <p class="hint">This app cannot list linked accounts.</p>
      ) : accounts.length === 0 ? (
        <p class="hint" data-testid="no-linked-accounts">
          None linked.
        </p>
      ) : (
        <ul class="items">
          {accounts.map((a) => (
            <li
              key={`${a.provider}:${a.providerAccountId}`}
              class="item"
              data-testid="linked-account"
            >
              <div class="item-head">
                <strong>{providerNames[a.provider] ?? a.provider}</strong>
                <span class="item-meta">{a.type}</span>
              </div>
              <Form action={unlink}>
                <input type="hidden" name="provider" value={a.provider} />
                <input type="hidden" name="providerAccountId" value={a.providerAccountId} />
                <button type="submit" class="button ghost" data-testid="unlink">
                  Unlink
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <AccountResult value={unlink.value} done="Unlinked." testId="unlink" />
    </section>
  )
})

export const head: DocumentHead = { title: "Account" }
