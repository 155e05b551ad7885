/** The fuzz properties (see suite.ts) against the BFF on a fresh PostgreSQL database and the emulator; skipped without TEST_DATABASE_URL. */
import { fuzzSuite } from './suite';

fuzzSuite('postgres');
