/** How mail leaves: the type of an email or password provider's `server` option. */
import type { TransportConfig } from "nodemailer"

/** Mail transport: an SMTP URL (`smtp://user:pass@host:587`, `smtps://…`) or nodemailer options. */
export type EmailServer = string | TransportConfig
