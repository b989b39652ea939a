// @auth/core 0.41's passkey provider imports @simplewebauthn/server v9, which is not installed
// here (offline; Latchkey uses v14, whose API changed). The bench points Auth.js at this module:
// v9's calling conventions on top of v14, converting ids and results only — every signature,
// CBOR and challenge check is v14's, the same code Latchkey runs, so the comparison measures
// the two request handlers, not two versions of the crypto.

import { isoBase64URL } from "../../packages/core/node_modules/@simplewebauthn/server/esm/helpers/index.js"
import * as v14 from "../../packages/core/node_modules/@simplewebauthn/server/esm/index.js"

const idString = (id) => (typeof id === "string" ? id : isoBase64URL.fromBuffer(id))
const mapCredentials = (list) => list?.map((c) => ({ ...c, id: idString(c.id) }))

export async function generateRegistrationOptions(opts) {
  return v14.generateRegistrationOptions({
    ...opts,
    userID: typeof opts.userID === "string" ? new TextEncoder().encode(opts.userID) : opts.userID,
    excludeCredentials: mapCredentials(opts.excludeCredentials),
  })
}

export async function generateAuthenticationOptions(opts = {}) {
  return v14.generateAuthenticationOptions({
    ...opts,
    allowCredentials: mapCredentials(opts.allowCredentials),
  })
}

export async function verifyRegistrationResponse(opts) {
  const result = await v14.verifyRegistrationResponse(opts)
  if (!result.registrationInfo) return result
  const { credential, ...info } = result.registrationInfo
  return {
    ...result,
    registrationInfo: {
      ...info,
      credentialID: isoBase64URL.toBuffer(credential.id),
      credentialPublicKey: credential.publicKey,
      counter: credential.counter,
    },
  }
}

export async function verifyAuthenticationResponse({ authenticator, ...opts }) {
  return v14.verifyAuthenticationResponse({
    ...opts,
    credential: {
      id: idString(authenticator.credentialID),
      publicKey: authenticator.credentialPublicKey,
      counter: authenticator.counter,
      transports: authenticator.transports,
    },
  })
}
