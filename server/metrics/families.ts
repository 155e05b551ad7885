/**
 * The names of the metric families `GET /metrics` exposes: one list that the registry (server/metrics), the alert
 * rules (ops/prometheus/alerts.yml) and the dashboard (ops/grafana/pix-checkout.json) are checked against. Operators'
 * alerts and dashboards rely on these names: keep them.
 */
export const METRIC_FAMILIES = {
  httpRequestDuration: 'pixcheckout_http_request_duration_seconds',
  checkoutTransitions: 'pixcheckout_checkout_transitions_total',
  checkoutsLive: 'pixcheckout_checkouts_live',
  checkoutsPastWindow: 'pixcheckout_checkouts_past_window',
  providerRequestDuration: 'pixcheckout_provider_request_duration_seconds',
  providerWebhooks: 'pixcheckout_provider_webhooks_total',
  statusStreams: 'pixcheckout_status_streams',
  statusStreamRefusals: 'pixcheckout_status_stream_refusals_total',
  merchantDeliveries: 'pixcheckout_merchant_deliveries_total',
  merchantBacklogEvents: 'pixcheckout_merchant_backlog_events',
  merchantBacklogOldest: 'pixcheckout_merchant_backlog_oldest_seconds',
  reconcilerPasses: 'pixcheckout_reconciler_passes_total',
  reconcilerReads: 'pixcheckout_reconciler_reads_total',
  dbQueryDuration: 'pixcheckout_db_query_duration_seconds',
  dbPoolWaiting: 'pixcheckout_db_pool_waiting_clients',
} as const;

/**
 * Node's default process and event-loop metrics (prom-client's collectDefaultMetrics) keep their usual names, without
 * our prefix, so the common Node.js dashboards work on them; the alert on event-loop lag uses this one.
 */
export const EVENT_LOOP_LAG_P99 = 'nodejs_eventloop_lag_p99_seconds';
