/** One PostgreSQL transaction on one pooled client, for the stores' writes that are more than one statement. */
import type pg from 'pg';

/** Runs `work` between BEGIN and COMMIT on one client; rolls back and rethrows when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A connection that cannot even roll back is dropped from the pool rather than reused.
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Writes one of the merchant's events inside the caller's transaction. Events are read in `seq` order from a cursor
 * (the pull feed, each endpoint's queue), and a sequence hands numbers out at insert, not at commit: two transactions
 * committing out of order would let a reader pass the lower number before it is visible, and miss it for good. So
 * every transaction that writes an event takes one lock first, held to its commit: events commit in `seq` order.
 */
export async function insertMerchantEvent(
  client: pg.PoolClient,
  event: { id: string; type: string; createdAt: string; data: Record<string, unknown> },
): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('merchant_events'))`);
  await client.query('INSERT INTO merchant_events (id, type, created_at, data) VALUES ($1, $2, $3, $4::jsonb)', [
    event.id,
    event.type,
    event.createdAt,
    JSON.stringify(event.data ?? null),
  ]);
}
