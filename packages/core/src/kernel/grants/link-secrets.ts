import { MissingSecret } from "../errors/errors.js"
import { secretList } from "./link-token.js"

/** The secrets for `provider`'s tokens, newest first: its own `secret`, else the config's. */
export function emailSecrets(
  provider: { id: string; secret?: string | readonly string[] },
  configSecret: string | readonly string[] | undefined,
): string[] {
  const secrets = secretList(provider.secret ?? configSecret)
  if (secrets.length === 0) {
    throw new MissingSecret("Email sign-in needs a secret to protect its links", {
      details: { provider: provider.id },
    })
  }
  return secrets
}
