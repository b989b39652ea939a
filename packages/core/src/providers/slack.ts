/**
 * Slack ("Sign in with Slack", OpenID Connect).
 * https://docs.slack.dev/authentication/sign-in-with-slack/
 * Claims include `https://slack.com/user_id`, `https://slack.com/team_id` and avatar URLs.
 *
 * @module @latchkey/core/providers/slack
 */
import { type OIDCConfig, type OIDCUserConfig, oidcProvider } from "./oauth.js"

export interface SlackProfile {
  iss: string
  sub: string
  aud: string
  email?: string
  email_verified?: boolean
  name?: string
  picture?: string
  given_name?: string
  family_name?: string
  locale?: string
  "https://slack.com/user_id": string
  "https://slack.com/team_id": string
  "https://slack.com/user_image_512"?: string
  [claim: string]: unknown
}

export default function Slack(
  options: OIDCUserConfig<SlackProfile> = {},
): OIDCConfig<SlackProfile> {
  return oidcProvider<SlackProfile>(
    {
      id: "slack",
      name: "Slack",
      issuer: "https://slack.com",
      profile(profile) {
        return {
          id: profile["https://slack.com/user_id"] ?? profile.sub,
          name: profile.name ?? null,
          email: profile.email ?? null,
          image: profile["https://slack.com/user_image_512"] ?? profile.picture ?? null,
        }
      },
      style: { bg: "#4A154B", text: "#fff" },
    },
    options,
  )
}
