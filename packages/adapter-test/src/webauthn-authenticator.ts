/**
 * A software WebAuthn authenticator for tests: real P-256 keys (node:crypto), real `none` and
 * `packed` (self) attestations and real assertions, so tests exercise `@simplewebauthn/server`
 * end to end instead of mocking it. Knobs let a test break one thing at a time (origin, rpID,
 * counter, client data, signature length).
 *
 * ```ts
 * const key = softwareAuthenticator()
 * const credential = key.register(options, { origin: "http://app.example.com" })
 * const assertion = key.authenticate(requestOptions, { origin })
 * ```
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto"

/** The subset of `PublicKeyCredentialCreationOptionsJSON` the authenticator reads. */
export interface CreationOptions {
  challenge: string
  rp: { id?: string; name: string }
  user: { id: string; name: string }
}

/** The subset of `PublicKeyCredentialRequestOptionsJSON` the authenticator reads. */
export interface RequestOptions {
  challenge: string
  rpId?: string
}

export interface CeremonyOverrides {
  /** `clientDataJSON.origin` (required: the page's origin). */
  origin: string
  /** The rpID whose hash goes into authenticator data (default: the options' rpID). */
  rpId?: string
  /** The challenge written into client data (default: the options' challenge). */
  challenge?: string
  /** `clientDataJSON.type` (default `webauthn.create` / `webauthn.get`). */
  type?: string
  /** The signature counter (default: 0, as synced passkeys report). */
  counter?: number
  /** User-verified flag (default true). */
  userVerified?: boolean
  /** Backup-eligible and backed-up flags (default true: a synced passkey). */
  backedUp?: boolean
  /** Change client data after signing (tampering). */
  tamperClientData?: (json: string) => string
  /** Retry signing until r or s is shorter than 32 bytes (DER-encoded without a leading zero). */
  shortSignature?: "r" | "s"
}

export interface SoftwareAuthenticator {
  /** base64url credential id, as the browser reports it. */
  readonly credentialId: string
  register(
    options: CreationOptions,
    overrides: CeremonyOverrides & { attestation?: "none" | "packed" },
  ): RegistrationJSON
  authenticate(options: RequestOptions, overrides: CeremonyOverrides): AuthenticationJSON
}

export interface RegistrationJSON {
  id: string
  rawId: string
  type: "public-key"
  response: { clientDataJSON: string; attestationObject: string; transports: string[] }
  clientExtensionResults: Record<string, never>
  authenticatorAttachment: "platform"
}

export interface AuthenticationJSON {
  id: string
  rawId: string
  type: "public-key"
  response: {
    clientDataJSON: string
    authenticatorData: string
    signature: string
    userHandle?: string
  }
  clientExtensionResults: Record<string, never>
  authenticatorAttachment: "platform"
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest()

export function softwareAuthenticator(): SoftwareAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
  const rawId = randomBytes(32)
  const credentialId = b64url(rawId)
  let userHandle: string | undefined

  const authData = (rpId: string, o: CeremonyOverrides, attested?: Uint8Array) => {
    const up = 0x01
    const uv = o.userVerified === false ? 0 : 0x04
    const backup = o.backedUp === false ? 0 : 0x08 | 0x10
    const at = attested ? 0x40 : 0
    const counter = Buffer.alloc(4)
    counter.writeUInt32BE(o.counter ?? 0)
    return Buffer.concat([
      sha256(rpId),
      Buffer.from([up | uv | backup | at]),
      counter,
      ...(attested ? [attested] : []),
    ])
  }

  const clientData = (kind: string, challenge: string, o: CeremonyOverrides) => {
    const json = JSON.stringify({
      type: o.type ?? kind,
      challenge: o.challenge ?? challenge,
      origin: o.origin,
      crossOrigin: false,
    })
    return json
  }

  return {
    credentialId,
    register(options, o) {
      userHandle = options.user.id
      const rpId = o.rpId ?? options.rp.id ?? new URL(o.origin).hostname
      const idLength = Buffer.alloc(2)
      idLength.writeUInt16BE(rawId.length)
      const attested = Buffer.concat([
        Buffer.alloc(16), // AAGUID: zeros, as for `none` attestation
        idLength,
        rawId,
        coseKey(publicKey),
      ])
      const data = authData(rpId, o, attested)
      const json = clientData("webauthn.create", options.challenge, o)
      const attStmt =
        o.attestation === "packed"
          ? new Map<string, CborValue>([
              ["alg", -7],
              ["sig", signFor(privateKey, Buffer.concat([data, sha256(json)]), o.shortSignature)],
            ])
          : new Map<string, CborValue>()
      const attestationObject = cbor(
        new Map<string, CborValue>([
          ["fmt", o.attestation ?? "none"],
          ["attStmt", attStmt],
          ["authData", data],
        ]),
      )
      return credentialJson(credentialId, {
        clientDataJSON: sentClientData(json, o),
        attestationObject: b64url(attestationObject),
        transports: ["hybrid", "internal"],
      })
    },
    authenticate(options, o) {
      const rpId = o.rpId ?? options.rpId ?? new URL(o.origin).hostname
      const data = authData(rpId, o)
      const json = clientData("webauthn.get", options.challenge, o)
      const signature = signFor(privateKey, Buffer.concat([data, sha256(json)]), o.shortSignature)
      return credentialJson(credentialId, {
        clientDataJSON: sentClientData(json, o),
        authenticatorData: b64url(data),
        signature: b64url(signature),
        ...(userHandle ? { userHandle } : {}),
      })
    },
  }
}

/** The credential as the browser's `toJSON()` gives it. */
function credentialJson<R>(id: string, response: R) {
  return {
    id,
    rawId: id,
    type: "public-key" as const,
    response,
    clientExtensionResults: {},
    authenticatorAttachment: "platform" as const,
  }
}

/** Client data as sent: possibly tampered with after signing, base64url. */
function sentClientData(json: string, o: CeremonyOverrides): string {
  return b64url(Buffer.from(o.tamperClientData ? o.tamperClientData(json) : json))
}

/** An ES256 signature in DER; with `short`, retried until that integer is under 32 bytes. */
function signFor(key: KeyObject, data: Uint8Array, short?: "r" | "s"): Buffer {
  for (let attempt = 0; attempt < 100_000; attempt++) {
    const der = sign("sha256", data, { key, dsaEncoding: "der" })
    if (!short) return der
    const { r, s } = derIntegers(der)
    if ((short === "r" ? r : s).length < 32) return der
  }
  throw new Error("no short signature found")
}

/** The r and s of a DER ECDSA signature, without their sign-padding zero. */
export function derIntegers(der: Uint8Array): { r: Uint8Array; s: Uint8Array } {
  // SEQUENCE(len) INTEGER(len) r INTEGER(len) s — P-256 lengths always fit one byte.
  const rLength = der[3]!
  const r = der.subarray(4, 4 + rLength)
  const s = der.subarray(6 + rLength, 6 + rLength + der[5 + rLength]!)
  const strip = (n: Uint8Array) => (n[0] === 0 ? n.subarray(1) : n)
  return { r: strip(r), s: strip(s) }
}

/** The COSE_Key of a P-256 public key (RFC 9053): kty EC2, alg ES256, crv P-256, x, y. */
function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: "jwk" })
  return cbor(
    new Map<number, CborValue>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]),
  )
}

type CborValue = number | string | Uint8Array | Map<string | number, CborValue>

/**
 * Just enough CBOR (RFC 8949) for attestation objects and COSE keys: small integers, byte and
 * text strings, maps. Test-only: the library parses CBOR on the server side.
 */
function cbor(value: CborValue): Uint8Array {
  const head = (major: number, length: number) => {
    if (length < 24) return Buffer.from([(major << 5) | length])
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length])
    if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff])
    throw new Error("CBOR item too long for this test encoder")
  }
  if (typeof value === "number") {
    return value >= 0 ? head(0, value) : head(1, -1 - value)
  }
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8")
    return Buffer.concat([head(3, bytes.length), bytes])
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value])
  const parts: Uint8Array[] = [head(5, value.size)]
  for (const [k, v] of value) parts.push(cbor(k), cbor(v))
  return Buffer.concat(parts)
}
