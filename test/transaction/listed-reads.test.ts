/**
 * A transaction given the list of tables it reads (the booking flow, the widget's catalogue, the invoice document)
 * must name every table its work reads: on the test databases a read outside the list raises (migration 0220)
 * instead of seeing no rows, so a flow whose list forgot a table fails its tests; without the test setting the read
 * sees no rows, as a key without the scope does.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';
import { createOrganization, type TestOrganization } from '../support/app.js';
import { insert } from '../support/fixtures.js';
import { Authenticator } from '../../src/auth/authenticate.js';
import type { Principal } from '../../src/auth/principal.js';
import { inTenantTransaction } from '../../src/transaction/tenant-transaction.js';

forEachBackend('transactions that list the tables they read', (ctx) => {
  let org: TestOrganization;
  let principal: Principal;

  before(async () => {
    org = await createOrganization(ctx.db, 'Listed reads');
    await insert(ctx.db, 'contacts', { organization_id: org.id, first_name: 'Grace', email: 'grace@example.com' });
    principal = await new Authenticator(ctx.db).authenticate(`Bearer ${org.key}`);
  });

  const countContacts = (readable: string[] | undefined, unlistedReads?: string) =>
    inTenantTransaction(ctx.db, principal, async (tx) => {
      if (unlistedReads !== undefined) await tx.query(`SELECT set_config('staykit.unlisted_reads', $1, true)`, [unlistedReads]);
      const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM api.contacts');
      return { result: rows[0]!.n, rollback: true };
    }, readable === undefined ? {} : { readable });

  it('reads a listed table, and any table the key may read when no list is given', async () => {
    assert.equal(await countContacts(['products', 'contacts']), 1);
    assert.equal(await countContacts(undefined), 1);
  });

  it('raises on a read outside the list, naming the table, where the tests ask for it', async () => {
    await assert.rejects(countContacts(['products']), /This transaction read api\.contacts, which is not in its list of readable tables/);
  });

  it('elsewhere sees no rows of the unlisted table, as before', async () => {
    assert.equal(await countContacts(['products'], ''), 0);
  });
});
