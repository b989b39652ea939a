/**
 * The storage of the demo's local OpenID Provider: this process's memory, on purpose. The
 * provider lives as long as the demo (a fresh client secret each start), so nothing it stores
 * (interactions, sessions, grants, codes, tokens) has to outlive a restart or be shared.
 * oidc-provider's built-in memory store would do the same but warns that it is a development
 * stand-in; this is one, chosen explicitly. Interface: oidc-provider's `Adapter` (docs/README).
 */

/** Every model's records, by key `<model>:<id>`, with their expiry (ms since epoch). */
const records = new Map()

function live(key) {
  const record = records.get(key)
  if (record && record.expiresAt <= Date.now()) {
    records.delete(key)
    return undefined
  }
  return record
}

export class MemoryAdapter {
  constructor(model) {
    this.model = model
  }

  key(id) {
    return `${this.model}:${id}`
  }

  async upsert(id, payload, expiresIn) {
    const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY
    records.set(this.key(id), { payload, expiresAt })
  }

  async find(id) {
    return live(this.key(id))?.payload
  }

  async findByUid(uid) {
    return this.findBy((payload) => payload.uid === uid)
  }

  async findByUserCode(userCode) {
    return this.findBy((payload) => payload.userCode === userCode)
  }

  findBy(match) {
    for (const key of records.keys()) {
      if (!key.startsWith(`${this.model}:`)) continue
      const payload = live(key)?.payload
      if (payload && match(payload)) return payload
    }
    return undefined
  }

  async consume(id) {
    const record = live(this.key(id))
    if (record) record.payload.consumed = Math.floor(Date.now() / 1000)
  }

  async destroy(id) {
    records.delete(this.key(id))
  }

  async revokeByGrantId(grantId) {
    for (const [key, record] of records) {
      if (record.payload.grantId === grantId) records.delete(key)
    }
  }
}
