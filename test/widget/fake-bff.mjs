// The runner's config (web-test-runner.config.mjs) is plain Node and imports this file; the fake BFF itself is
// TypeScript (fake-bff.ts), typed against the BFF ↔ element contract (core/contract.ts) and checked by tsc, so it
// is loaded here through tsx.
import { tsImport } from 'tsx/esm/api';

const fake = await tsImport('./fake-bff.ts', import.meta.url);

export const fakeBff = fake.fakeBff;
