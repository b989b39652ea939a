/** Sign-in with a second factor through `Auth()`: enrollment, the pending step, the code. */

import { MemoryAdapter } from "../../src/adapters/memory.js"
import { totpCode } from "../../src/features/two-factor/totp.js"
import type { TwoFactorEvent } from "../../src/features/two-factor/types.js"
import { Auth } from "../../src/index.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import { TwoFactor } from "../../src/two-factor.js"
import type { AuthConfig } from "../../src/types.js"
import { alice, Jar, makeConfig, req, signInWithCredentials } from "../auth/helpers.js"

export const PENDING = "latchkey.two-factor"
export const SESSION = "authjs.session-token"

export function twoFactorConfig(
  strategy: "jwt" | "database",
  extra: Partial<AuthConfig> = {},
  twoFactor: Partial<NonNullable<AuthConfig["twoFactor"]>> = {},
) {
  const adapter: Adapter = (extra.adapter as Adapter | undefined) ?? MemoryAdapter()
  const events: TwoFactorEvent[] = []
  const config = makeConfig({
    adapter,
    session: { strategy },
    twoFactor: TwoFactor({
      issuer: "Latchkey Test",
      onEvent: (e) => void events.push(e),
      ...twoFactor,
    }),
    ...extra,
  })
  return { config, adapter, events }
}

/** Alice as the adapter knows her (credentials sign-in does not create users). */
export async function withAlice(adapter: Adapter): Promise<void> {
  await adapter.createUser!({ ...alice, emailVerified: null })
}

export async function passwordStep(config: AuthConfig, jar = new Jar()) {
  const { res } = await signInWithCredentials(Auth, config, jar)
  return { res, jar }
}

export async function post(
  config: AuthConfig,
  path: string,
  jar: Jar,
  form: Record<string, string> = {},
) {
  const res = await Auth(req(path, { form, jar }), config)
  jar.take(res)
  return res
}

export async function postJson(config: AuthConfig, path: string, jar: Jar, body: unknown = {}) {
  const res = await Auth(
    req(path, { json: body, jar, headers: { accept: "application/json" } }),
    config,
  )
  jar.take(res)
  return res
}

export async function sessionOf(config: AuthConfig, jar: Jar): Promise<unknown> {
  const res = await Auth(req("/auth/session", { jar }), config)
  jar.take(res)
  return res.json()
}

/**
 * Signs alice in (no second factor yet), enrolls her through the settings API and confirms with
 * a code computed from the secret the API showed. Returns the secret, the codes and the jar.
 */
export async function enrollAlice(config: AuthConfig) {
  const { jar } = await passwordStep(config)
  const enroll = await postJson(config, "/auth/two-factor/enroll", jar)
  if (enroll.status !== 200) throw new Error(`enroll: ${enroll.status} ${await enroll.text()}`)
  const { secret, uri, qrSvg } = (await enroll.json()) as {
    secret: string
    uri: string
    qrSvg: string
  }
  const confirm = await postJson(config, "/auth/two-factor/confirm", jar, {
    code: totpCode(secret),
  })
  if (confirm.status !== 200) throw new Error(`confirm: ${confirm.status} ${await confirm.text()}`)
  const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] }
  return { secret, uri, qrSvg, recoveryCodes, jar }
}

export const locationOf = (res: Response) => new URL(res.headers.get("location") ?? "http://x/")
