// Types of scripts/server-build.mjs, for the tests that start the built server (tsconfig.json has no allowJs).
export declare function buildProblem(root: string): string | undefined;
