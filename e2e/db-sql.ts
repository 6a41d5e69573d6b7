/**
 * Test-only: runs SQL statements (the arguments) on the embedded database in DATA_DIR while its server is
 * down — what a journey needs that no product call may do (an event dated last month). Prints each
 * statement's rows as JSON lines.
 *   tsx e2e/db-sql.ts "update leads set …" "select …"
 */
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../apps/server/src/db/client.ts';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR is required');
const database = await openDatabase({ dataDir });
try {
  for (const statement of process.argv.slice(2)) {
    const result = await database.db.execute(sql.raw(statement));
    console.log(JSON.stringify(rowsOf(result)));
  }
} finally {
  await database.close();
}
