/** `npm run admin` as the tests run it: `tsx server/admin-cli.ts`, without npm's own start-up. */
import { spawn } from 'node:child_process';
import { keyed } from './secrets-key';

const ROOT = new URL('../../../', import.meta.url).pathname;
const TSX = `${ROOT}node_modules/.bin/tsx`;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the admin CLI with `args` in `env` (exactly that environment, with the tests' SECRETS_KEY on PostgreSQL), `stdin` written to it; its exit code and output. */
export function runAdminCli(args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ['server/admin-cli.ts', ...args], { cwd: ROOT, env: keyed(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
