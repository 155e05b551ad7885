/**
 * One Idempotency-Key per intended movement (a refund, a cash-out): the key drawn when it is first reviewed is kept
 * while it is tried again (a double press, a retry after an error or a lost answer, going back and confirming the
 * same thing again), so the back office makes it once however the confirmation went. A new key is drawn only for a
 * new intent: another amount, recipient or payment, or the same again once the last one was answered.
 */
export class IntentKeys {
  private last?: { intent: string; key: string };

  /** The key of `intent` (what is about to be sent, as a string): the one drawn for it before, or a new one. */
  keyFor(intent: string): string {
    if (this.last?.intent !== intent) this.last = { intent, key: crypto.randomUUID() };
    return this.last.key;
  }

  /** The back office answered the movement: a next one, even an identical one, is a new intent. */
  answered(): void {
    this.last = undefined;
  }
}
