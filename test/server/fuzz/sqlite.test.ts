/** The fuzz properties (see suite.ts) against the BFF on SQLite and the emulator. */
import { fuzzSuite } from './suite';

fuzzSuite('sqlite');
