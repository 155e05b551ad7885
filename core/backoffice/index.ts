/**
 * The back office's contract, in one module the server and the console both import: the roles, the wire's views and
 * bodies as declared types, the merchant's event types, the CSV formats, the pt-BR labels and the error codes. The
 * server builds its answers against these (server/backoffice/) and the console reads them (console/): a field that
 * drifts on one side fails to compile on the other. Types, tables and one small function: it runs in the browser.
 */
export * from './csv-formats';
export * from './errors';
export * from './labels';
export * from './merchant-events';
export * from './provider-views';
export * from './roles';
export * from './wire-accounts';
export * from './wire-api-keys';
export * from './wire-payments';
export * from './wire-sessions';
export * from './wire-webhooks';
export * from './wire-mfa';
