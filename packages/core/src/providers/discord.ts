/**
 * Discord (OAuth 2).
 * Endpoints: https://discord.com/developers/docs/topics/oauth2
 * Profile: https://discord.com/developers/docs/resources/user#user-object
 * Avatars: https://discord.com/developers/docs/reference#image-formatting
 *
 * @module @latchkey/core/providers/discord
 */
import { type OAuthConfig, type OAuthUserConfig, oauthProvider } from "./oauth.js"

/** `GET /users/@me`. */
export interface DiscordProfile {
  id: string
  username: string
  /** `"0"` for users on the new unique usernames. */
  discriminator: string
  global_name: string | null
  avatar: string | null
  email?: string | null
  verified?: boolean
  [key: string]: unknown
}

/** The avatar URL, or Discord's default avatar for the user (documented formula). */
export function discordAvatar(profile: DiscordProfile): string {
  if (profile.avatar) {
    const format = profile.avatar.startsWith("a_") ? "gif" : "png"
    return `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.${format}`
  }
  const index =
    profile.discriminator === "0"
      ? Number((BigInt(profile.id) >> 22n) % 6n)
      : Number.parseInt(profile.discriminator, 10) % 5
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`
}

export default function Discord(
  options: OAuthUserConfig<DiscordProfile> = {},
): OAuthConfig<DiscordProfile> {
  return oauthProvider<DiscordProfile>(
    {
      id: "discord",
      name: "Discord",
      authorization: {
        url: "https://discord.com/oauth2/authorize",
        params: { scope: "identify email" },
      },
      token: "https://discord.com/api/oauth2/token",
      userinfo: "https://discord.com/api/users/@me",
      profile(profile) {
        return {
          id: profile.id,
          name: profile.global_name ?? profile.username,
          email: profile.email ?? null,
          image: discordAvatar(profile),
        }
      },
      isEmailVerified: (profile) => profile.verified === true,
      style: { bg: "#5865F2", text: "#fff" },
    },
    options,
  )
}
