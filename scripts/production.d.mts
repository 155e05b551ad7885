// Types of scripts/production.mjs, for vite.config.ts (tsconfig.json has no allowJs).
import type { UserConfig } from 'vite';

export declare const productionBuild: Pick<UserConfig, 'mode' | 'resolve' | 'define'>;
export declare const LIT_DEV_MODE: string;
export declare function assertProduction(code: string | Uint8Array, what: string): void;
