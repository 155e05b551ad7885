/**
 * Schema step 23: the sign-in brake's counters, shared by every instance (./sign-in-brakes.ts), and what a user is
 * shown of each of their sessions (./session-list.ts).
 *
 * - `sign_in_brakes` holds one row per e-mail-and-address pair (`pair:…`) and per address (`address:…`): the failures
 *   counted, the last one's time, and until when a refusal was already recorded in the audit trail.
 * - `admin_sessions` gets a public `id` (`ses_…`, what the console names a session by, never its token's hash), the
 *   device (a short label of its User-Agent) and the address it was opened from. Sessions already open get a random
 *   id here; their device and address stay unknown (NULL).
 */
import type { Migration } from './migration-step';
import { step } from './migration-step';
import { addColumn, byDialect, createTable, index, instant, integer, text } from './sql/ddl';

export const signInSteps: readonly Migration[] = [
  step({
    version: 23,
    name: "the sign-in brake's shared counters (per e-mail and address, per address); each session's public id, device and address",
    ddl: [
      createTable(
        'sign_in_brakes',
        {
          key: text().primaryKey(),
          failures: integer().notNull().check('failures >= 0'),
          last_failure_at: instant().notNull(),
          reported_until: instant(),
        },
        { withoutRowid: true },
      ),
      index('sign_in_brakes_by_last_failure', 'sign_in_brakes', ['last_failure_at']),
      addColumn('admin_sessions', 'id', text()),
      addColumn('admin_sessions', 'device', text()),
      addColumn('admin_sessions', 'address', text()),
      byDialect({
        sqlite: [`UPDATE admin_sessions SET id = 'ses_' || lower(hex(randomblob(16)))`],
        postgres: [`UPDATE admin_sessions SET id = 'ses_' || replace(gen_random_uuid()::text, '-', '')`],
      }),
      index('admin_sessions_by_id', 'admin_sessions', ['id'], { unique: true }),
    ],
  }),
];
