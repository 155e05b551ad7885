/**
 * The console's roles, each with the rights of the one before: `viewer` reads and exports; `operator` also moves money
 * (refunds, cash-outs, payment requests, receivers); `owner` also manages users, webhook endpoints and approvals. The
 * server checks every call (server/backoffice/actor.ts); the console hides what a role may not use.
 */
export const ROLES = ['viewer', 'operator', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** True when `role` has at least the rights of `needed`; no role (nobody signed in) has none. */
export const hasRole = (role: Role | undefined, needed: Role): boolean =>
  role !== undefined && ROLES.indexOf(role) >= ROLES.indexOf(needed);
