/**
 * Schema step 25: secrets sealed at rest (./sealed-columns.ts). The webhook endpoints' secrets become sealed values
 * (`sealed:v1:<key id>:…`, server/lib/sealer.ts); a step cannot seal them (it has no key), so the store seals the clear
 * ones the first time a server starts after it (`sealClearValues`), and reads either form meanwhile. Each secret's last
 * four characters, what the console's list shows, are kept apart so the list never opens a secret. The canary is one
 * sealed value every store holds, so a key can be checked (the doctor, a start) before any endpoint exists.
 */
import { step, type Migration } from './migration-step';
import { addColumn, createTable, text } from './sql/ddl';

const lastFour = (column: string) => `substr(${column}, length(${column}) - 3)`;

export const sealedSteps: readonly Migration[] = [
  step({
    version: 25,
    name: 'secrets sealed at rest: the endpoint secrets’ hints, the key canary',
    ddl: [
      addColumn('webhook_endpoints', 'secret_hint', text()),
      addColumn('webhook_endpoints', 'previous_secret_hint', text()),
      `UPDATE webhook_endpoints SET secret_hint = ${lastFour('secret')},
        previous_secret_hint = CASE WHEN previous_secret IS NULL THEN NULL ELSE ${lastFour('previous_secret')} END`,
      createTable('sealed_canary', { id: text().primaryKey(), value: text().notNull() }, { withoutRowid: true }),
    ],
  }),
];
