/** Where the provider sends our webhooks: given with every transaction we create. */
export interface WebhookTarget {
  /** Our receiver's absolute address. */
  url: string;
  headerName: string;
  /** The per-deployment secret the provider echoes in `headerName`. */
  secret: string;
}
