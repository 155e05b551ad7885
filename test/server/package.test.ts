/**
 * The published package (packages/pix-checkout): `npm pack` there builds the element and its declarations (prepack)
 * and packs them alone, with no server code, demo, data, secret or server dependency; its `exports` resolve to files
 * it holds; and a TypeScript consumer with strict settings and `skipLibCheck: false`, without React or Vue installed,
 * type-checks against it (the element, its events, its attributes in JSX).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

let files: string[];
let unpacked: string;

beforeAll(() => {
  const destination = tempDir('pix-pack-');
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: join(root, 'packages/pix-checkout'),
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stdout}\n${packed.stderr}`);
  const [report] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [{ filename: string; files: { path: string }[] }];
  files = report.files.map((f) => f.path).sort();
  unpacked = join(tempDir('pix-consumer-'), 'node_modules', 'pix-checkout');
  mkdirSync(unpacked, { recursive: true });
  const untar = spawnSync('tar', ['-xzf', join(destination, report.filename), '-C', unpacked, '--strip-components=1'], {
    encoding: 'utf8',
  });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
}, 180_000);

describe('npm pack', () => {
  it('holds the built element, its SRI manifest and its declarations, and nothing else', () => {
    const declarations = files.filter((f) => f.startsWith('dist/types/'));
    expect(files.filter((f) => !f.startsWith('dist/types/'))).toEqual([
      'README.md',
      'dist/widget/integrity.json',
      'dist/widget/pix-checkout.js',
      'package.json',
    ]);
    expect(declarations.every((f) => f.endsWith('.d.ts'))).toBe(true);
    expect(declarations).toEqual(
      expect.arrayContaining([
        'dist/types/widget/types.d.ts',
        'dist/types/widget/index.d.ts',
        'dist/types/widget/jsx.d.ts',
        'dist/types/widget/events.d.ts',
        'dist/types/widget/pix-checkout.component.d.ts',
      ]),
    );
    // No server code (the BFF, its provider client and secrets stay in the repository) and no demo.
    expect(declarations.filter((f) => /^dist\/types\/(server|demo|test|bench)\//.test(f))).toEqual([]);
  });

  it('is publishable, needs nothing of the server, and its exports point at files it holds', () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(manifest.name).toBe('pix-checkout');
    // lit for the declarations' types (the bundle holds lit and the QR encoder already); no server package.
    expect(manifest.dependencies).toEqual({ lit: expect.any(String) });
    expect(manifest.devDependencies).toBeUndefined();
    // The repository itself is the toolkit (BFF, emulator, demo) and is never published.
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).private).toBe(true);
    expect(manifest.exports['./widget']).toEqual({ types: './dist/types/widget/types.d.ts', default: './dist/widget/pix-checkout.js' });
    for (const target of [
      manifest.exports['./widget'].types,
      manifest.exports['./widget'].default,
      manifest.exports['./widget/integrity.json'],
    ]) {
      expect(files, target).toContain(target.replace(/^\.\//, ''));
    }
  });

  it('carries the SRI hash of the bundle it holds', () => {
    const integrity = JSON.parse(readFileSync(join(unpacked, 'dist/widget/integrity.json'), 'utf8'));
    const bundle = readFileSync(join(unpacked, 'dist/widget/pix-checkout.js'));
    expect(integrity.integrity).toBe(`sha384-${createHash('sha384').update(bundle).digest('base64')}`);
    expect(integrity.file).toMatch(/^pix-checkout\.[0-9a-f]{16}\.js$/);
    // One ES module, lit inside (the BFF encodes the QR): nothing to resolve at run time.
    expect(bundle.toString('utf8')).not.toMatch(/\bfrom\s*["'](lit|qrcode)/);
  });
});

describe('the JSX and Vue declarations (widget/jsx.d.ts)', () => {
  it('name every attribute of the element, and nothing else', () => {
    const component = readFileSync(join(root, 'widget/pix-checkout.component.ts'), 'utf8');
    // The reactive properties block names each attribute (state has none).
    const properties = /static override properties = \{([\s\S]*?)\n {2}\};/.exec(component)?.[1] ?? '';
    const declared = [...properties.matchAll(/\{ attribute: '([a-z-]+)'/g)].map((m) => m[1]).sort();
    const jsx = readFileSync(join(root, 'widget/jsx.d.ts'), 'utf8');
    const block = /export interface PixCheckoutAttributes \{([\s\S]*?)\n\}/.exec(jsx)?.[1] ?? '';
    const typed = [...block.matchAll(/^\s+'?([a-z-]+)'?\?:/gm)].map((m) => m[1]).sort();
    expect(declared.length).toBeGreaterThan(5);
    expect(typed).toEqual(declared);
  });
});

describe('a TypeScript consumer of pix-checkout/widget', () => {
  it('type-checks with strict settings and skipLibCheck off, with neither React nor Vue installed', () => {
    const consumer = dirname(dirname(unpacked));
    // The declarations name lit's types (the element is a LitElement): lit is a dependency of the package.
    for (const name of ['lit', 'lit-html', 'lit-element', '@lit/reactive-element']) {
      mkdirSync(dirname(join(consumer, 'node_modules', name)), { recursive: true });
      symlinkSync(join(root, 'node_modules', name), join(consumer, 'node_modules', name), 'dir');
    }
    mkdirSync(join(consumer, 'src'));
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          resolveJsonModule: true,
          noEmit: true,
          skipLibCheck: false,
          noUnusedLocals: true,
          exactOptionalPropertyTypes: true,
          jsx: 'preserve',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: [],
        },
        include: ['src'],
      }),
    );
    writeFileSync(
      join(consumer, 'src', 'main.ts'),
      `import { PixCheckout, type PixCheckoutAttributes, type PixCheckoutCompletedEvent } from 'pix-checkout/widget';
import integrity from 'pix-checkout/widget/integrity.json';

const element: PixCheckout | null = document.querySelector('pix-checkout');
element?.addEventListener('pix-checkout-completed', (event) => console.log(event.detail.orderId, event.detail.amount));
element?.addEventListener('pix-checkout-error', (event) => console.log(event.detail.code, event.detail.status));
const onDone = (event: PixCheckoutCompletedEvent): string => event.detail.checkoutId;
const attributes: PixCheckoutAttributes = { endpoint: '/api', 'order-id': 'A-1', methods: 'pix openfinance' };
// @ts-expect-error not a method
const wrong: PixCheckoutAttributes = { methods: 'boleto' };
const created = document.createElement('pix-checkout');
created.orderId = 'A-1';
export { onDone, attributes, wrong, created, integrity, PixCheckout };
`,
    );
    writeFileSync(
      join(consumer, 'src', 'view.tsx'),
      `export const view = <pix-checkout endpoint="/api" order-id="A-1" order-token="t" collect-payer />;
// @ts-expect-error collect-payer is a boolean attribute
export const wrong = <pix-checkout collect-payer="yes" />;
`,
    );
    const checked = spawnSync(process.execPath, [tsc, '-p', consumer], { encoding: 'utf8' });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });
});
