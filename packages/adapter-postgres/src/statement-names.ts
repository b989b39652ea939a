/**
 * The name each statement of `sql.ts` and `organizations-sql.ts` is prepared under on a `pg`
 * connection. A named statement is parsed once per connection and then only bound and executed, so the server
 * neither parses nor (after its first runs) plans the session read's join on every call. The
 * name carries a hash of the text (`preparedStatementName`). PGlite takes no names; its calls
 * are unchanged.
 */
import { preparedStatementName } from "@latchkey/core/adapters/sql"
import { organizationSql } from "./organizations-sql.js"
import { sql } from "./sql.js"

export const statementNames: ReadonlyMap<string, string> = new Map(
  Object.entries({ ...sql, ...organizationSql }).map(([method, text]) => [
    text,
    preparedStatementName(method, text),
  ]),
)
