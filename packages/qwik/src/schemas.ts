/**
 * Input of the sign-in and sign-out actions, validated by Qwik City's `zod$`. A failed validation
 * makes the action return `{ failed: true, fieldErrors: { authorizationParams?, options?,
 * providerId?, redirectTo? }, formErrors }` (Qwik City builds that shape from these schemas).
 */
// biome-ignore-all lint/correctness/useQwikValidLexicalScope: module-level helpers called inside the zod$ schema factory, nothing is captured
import type { z } from "@builder.io/qwik-city"

/**
 * Schemas are functions of Qwik City's `z` (the form `zod$` accepts): nothing is built at import
 * time, so the browser bundle of an app never constructs them.
 */
type Z = typeof z

/**
 * Authorization parameters the flow itself owns. Letting the client set them would let it swap the
 * client id or the redirect URI, or defeat state/PKCE/nonce. The core refuses them too.
 */
export const protectedAuthorizationParams: ReadonlySet<string> = new Set([
  "client_id",
  "redirect_uri",
  "response_type",
  "response_mode",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "request",
  "request_uri",
])

function toSearchParams(value: string | URLSearchParams | Record<string, string>): URLSearchParams {
  return new URLSearchParams(value)
}

const authorizationParams = (z: Z) =>
  z
    .union([
      z.string().max(4096),
      z.custom<URLSearchParams>((v) => v instanceof URLSearchParams, "must be URLSearchParams"),
      z.record(z.string(), z.string().max(2048)),
    ])
    .superRefine((value, ctx) => {
      for (const key of toSearchParams(value).keys()) {
        if (protectedAuthorizationParams.has(key)) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${key}" cannot be overridden` })
          return
        }
      }
    })
    .transform(toSearchParams)

const redirectTo = (z: Z) => z.string().min(1).max(2048)

/** Credentials travel as form fields; nested objects would arrive as `[object Object]`. */
const credentialValue = (z: Z) => z.union([z.string().max(4096), z.number(), z.boolean()])

/** @public */
export const signInSchema = (z: Z) => ({
  providerId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w.-]+$/, "invalid provider id")
    .optional(),
  redirectTo: redirectTo(z).optional(),
  options: z
    .object({ redirectTo: redirectTo(z).optional() })
    .catchall(credentialValue(z))
    .optional(),
  authorizationParams: authorizationParams(z).optional(),
})

/**
 * `everywhere`: end every session of the user, on every device (a form field `everywhere=true`,
 * or `true` from `signOut.submit()`), not just this one.
 *
 * @public
 */
export const signOutSchema = (z: Z) => ({
  redirectTo: redirectTo(z).optional(),
  everywhere: z
    .union([z.literal("true"), z.literal("false"), z.boolean()])
    .transform((value) => value === true || value === "true")
    .optional(),
})

/** Data for the session `update` trigger: a flat record of short strings. */
export const updateSessionSchema = (z: Z) => ({
  data: z.record(z.string(), z.union([z.string().max(1024), z.number(), z.boolean()])),
})

/**
 * Ids the account page posts back (a passkey's credential ID, a session's public id): opaque
 * strings; the core decides whether they name something of this user.
 */
const itemId = (z: Z) => z.string().min(1).max(512)

/** @public */
export const renamePasskeySchema = (z: Z) => ({
  id: itemId(z),
  name: z.string().trim().min(1, "Enter a name").max(64, "At most 64 characters"),
})

/** @public */
export const passkeyIdSchema = (z: Z) => ({ id: itemId(z) })

/** @public */
export const sessionIdSchema = (z: Z) => ({ id: itemId(z) })

/** Ending every other session takes no input. @public */
export const noInputSchema = (_z: Z) => ({})

/** @public */
export const unlinkAccountSchema = (z: Z) => ({
  provider: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w.-]+$/, "invalid provider id"),
  providerAccountId: z.string().min(1).max(512),
})

// Password accounts. Bounds only: the core's policy decides what a password may be (its
// refusals are typed, with a message a person can act on); 4096 keeps a huge value out.
const address = (z: Z) => z.string().trim().min(1, "Enter your email address").max(320)
const secret = (z: Z) => z.string().min(1, "Enter a password").max(4096)

/** `useSignUp`: `{ email, password, name? }`. */
export const signUpSchema = (z: Z) => ({
  email: address(z),
  password: secret(z),
  name: z.string().max(256).optional(),
})

/** `useResendVerification`, `useForgotPassword`: `{ email }`. */
export const emailSchema = (z: Z) => ({ email: address(z) })

/** `useResetPassword`: the link's `{ token, uid, email }` and the new `password`. */
export const resetPasswordSchema = (z: Z) => ({
  token: z.string().min(1).max(512),
  uid: z.string().min(1).max(512),
  email: z.string().min(1).max(320),
  password: secret(z),
})

/** `useChangePassword`: `{ currentPassword, password }`. */
export const changePasswordSchema = (z: Z) => ({
  currentPassword: secret(z),
  password: secret(z),
})

/** `useSetPassword`: `{ password }`. */
export const setPasswordSchema = (z: Z) => ({ password: secret(z) })

/**
 * `useRemovePassword`: `{ currentPassword }`, or `{ code }` / `{ recoveryCode }` of the second
 * factor when it is on: the session alone never removes a password (removing and then setting
 * one would replace it without knowing it).
 */
export const removePasswordSchema = (z: Z) => ({
  currentPassword: z.string().max(4096).optional(),
  code: z.string().max(32).optional(),
  recoveryCode: z.string().max(64).optional(),
})

/** `useChangeEmail`: `{ email, currentPassword? }` (the current password when the account has one). */
export const changeEmailSchema = (z: Z) => ({
  email: address(z),
  currentPassword: z.string().max(4096).optional(),
})

/** `{ organizationId }` of the organization actions. */
export const organizationIdSchema = (z: Z) => ({ organizationId: z.string().min(1).max(200) })

/** `{ organizationId, userId }`: a member of an organization. */
export const organizationMemberSchema = (z: Z) => ({
  organizationId: z.string().min(1).max(200),
  userId: z.string().min(1).max(200),
})

export type SignInInput = z.output<z.ZodObject<ReturnType<typeof signInSchema>>>
export type SignOutInput = z.output<z.ZodObject<ReturnType<typeof signOutSchema>>>
export type UpdateSessionInput = z.output<z.ZodObject<ReturnType<typeof updateSessionSchema>>>
export type RenamePasskeyInput = z.output<z.ZodObject<ReturnType<typeof renamePasskeySchema>>>
export type ItemIdInput = z.output<z.ZodObject<ReturnType<typeof passkeyIdSchema>>>
export type UnlinkAccountInput = z.output<z.ZodObject<ReturnType<typeof unlinkAccountSchema>>>
