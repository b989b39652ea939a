/**
 * The name each statement of `sql.ts` is prepared under on a `pg` connection. A named
 * statement is parsed once per connection and then only bound and executed, so the server
 * neither parses nor (after its first runs) plans the session read's join on every call. The
 * name carries a hash of the text: pg refuses one name for two texts on one connection (two
 * versions of this package sharing a pool, say), and a changed statement gets a new name.
 * PGlite takes no names; its calls are unchanged.
 */
import { sql } from "./sql.js"

/** FNV-1a (32-bit), hex: short and stable; it only has to tell texts apart. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, "0")
}

export const statementNames: ReadonlyMap<string, string> = new Map(
  Object.entries(sql).map(([method, text]) => [text, `latchkey_${method}_${fnv1a(text)}`]),
)
