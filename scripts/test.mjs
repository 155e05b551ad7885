// `npm test`: every check in order (types, lint and layer rules, server, element, end to end); stops at the first failure.
import { spawnSync } from 'node:child_process';

const steps = ['typecheck', 'lint', 'test:server', 'test:widget', 'test:e2e'];
for (const step of steps) {
  console.log(`\n> npm run ${step}`);
  const { status } = spawnSync('npm', ['run', '--silent', step], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
