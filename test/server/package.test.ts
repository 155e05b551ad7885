/**
 * The published package (packages/pix-checkout): `npm pack ./packages/pix-checkout` builds the element and its
 * declarations (prepack) and packs them alone, with no server code, demo, data, secret or server dependency, with its
 * licence, changelog and a README that alone suffices to embed it; its `exports` resolve to files it holds; it is
 * Lit's production build even when packed with NODE_ENV=development, and packing it leaves dist/widget and dist/types
 * (what a running server reads) as they were; and a TypeScript consumer that installed the tarball type-checks
 * against it under moduleResolution `node16`, `bundler` and `node10`, and with strict settings, `skipLibCheck: false`
 * and neither React nor Vue installed (the element, its events, its attributes in JSX).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
/** Text only Lit's development build holds (its console warning). */
const LIT_DEV_MODE = 'Lit is in dev mode';

/** Every file under `dir` (relative path → size, modification time and SHA-256), or null when there is no `dir`. */
function snapshot(dir: string): Record<string, string> | null {
  if (!existsSync(dir)) return null;
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isFile()) files[name] = `${stat.size} ${stat.mtimeMs} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
  }
  return files;
}

const built = ['dist/widget', 'dist/types'];
let before: (Record<string, string> | null)[];
let files: string[];
let consumer: string;
let unpacked: string;
const scratch: string[] = [];

beforeAll(() => {
  before = built.map((dir) => snapshot(join(root, dir)));
  const destination = tempDir('pix-pack-');
  scratch.push(destination);
  // As README says, from the repository's root (`packages/pix-checkout` alone would be a GitHub repository to npm),
  // and with NODE_ENV=development, which made Vite pick Lit's development build.
  const packed = spawnSync('npm', ['pack', './packages/pix-checkout', '--json', '--pack-destination', destination], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'development' },
  });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stdout}\n${packed.stderr}`);
  // The prepack script's lines may come first.
  const json = packed.stdout.slice(packed.stdout.search(/^\[/m));
  const [report] = JSON.parse(json) as [{ filename: string; files: { path: string }[] }];
  files = report.files.map((f) => f.path).sort();

  // A merchant's project installs the tarball, offline: lit, its one dependency, is this repository's (a link).
  consumer = tempDir('pix-consumer-');
  scratch.push(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'storefront', private: true, type: 'module' }));
  mkdirSync(join(consumer, 'node_modules'));
  symlinkSync(join(root, 'node_modules', 'lit'), join(consumer, 'node_modules', 'lit'), 'dir');
  const installed = spawnSync(
    'npm',
    [
      'install',
      '--offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--cache',
      join(consumer, '.npm-cache'),
      join(destination, report.filename),
    ],
    { cwd: consumer, encoding: 'utf8' },
  );
  if (installed.status !== 0) throw new Error(`npm install of the tarball failed:\n${installed.stdout}\n${installed.stderr}`);
  unpacked = join(consumer, 'node_modules', 'pix-checkout');
}, 180_000);

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('holds the built element, its chunks, its SRI manifest, its declarations, README, licence and changelog, and nothing else', () => {
    const declarations = files.filter((f) => f.startsWith('dist/types/'));
    const chunks = files.filter((f) => f.startsWith('dist/widget/pix-checkout-'));
    // The languages other than Portuguese and the screens the first QR does not need, loaded on demand (widget/chunks.ts).
    expect(chunks.map((f) => /^dist\/widget\/pix-checkout-(\w+)\.[\w-]+\.js$/.exec(f)?.[1])).toEqual(['en', 'es', 'screens']);
    expect(files.filter((f) => !f.startsWith('dist/types/') && !chunks.includes(f))).toEqual([
      'CHANGELOG.md',
      'LICENSE',
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
    // lit for the declarations' types (the bundle holds lit; the BFF encodes the QR); no server package.
    expect(manifest.dependencies).toEqual({ lit: expect.any(String) });
    expect(manifest.devDependencies).toBeUndefined();
    // The repository itself is the toolkit (BFF, emulator, demo) and is never published.
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).private).toBe(true);
    const entry = { types: './dist/types/widget/types.d.ts', default: './dist/widget/pix-checkout.js' };
    // `types` first in each condition map, as TypeScript reads them in order; the bare name is the same entry.
    expect(manifest.exports['./widget']).toEqual(entry);
    expect(Object.keys(manifest.exports['./widget'])[0]).toBe('types');
    expect(manifest.exports['.']).toEqual(entry);
    // What TypeScript reads without `exports` (moduleResolution node10), pointing at the same declarations.
    expect(manifest.types).toBe(entry.types);
    expect(manifest.typesVersions['*'].widget).toEqual([entry.types]);
    for (const target of [
      entry.types,
      entry.default,
      manifest.main,
      manifest.exports['./widget/integrity.json'],
      ...manifest.typesVersions['*']['widget/integrity.json'],
    ]) {
      expect(files, target).toContain(target.replace(/^\.\//, ''));
    }
  });

  it("is Lit's production build, though packed with NODE_ENV=development", () => {
    const bundle = readFileSync(join(unpacked, 'dist/widget/pix-checkout.js'), 'utf8');
    expect(bundle).toMatch(/customElements\.define\(.pix-checkout.,/);
    expect(bundle.includes(LIT_DEV_MODE), `"${LIT_DEV_MODE}" in the bundle`).toBe(false);
  });

  it('leaves dist/widget and dist/types, which a running server and `npm run build` read, as they were', () => {
    expect(built.map((dir) => snapshot(join(root, dir)))).toEqual(before);
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

describe('what a merchant reads in the package', () => {
  const shipped = (name: string) => readFileSync(join(unpacked, name), 'utf8');

  it('a licence (MIT, as package.json says) and a changelog with an entry for this version', () => {
    const manifest = JSON.parse(shipped('package.json'));
    const rootLicense = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).license;
    expect(manifest.license).toBe(rootLicense ?? 'MIT');
    expect(shipped('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 pix-checkout contributors\n/);
    expect(shipped('LICENSE')).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
    expect(shipped('CHANGELOG.md')).toMatch(new RegExp(`^## ${manifest.version.replaceAll('.', '\\.')}$`, 'm'));
  });

  it('a README enough to embed the element: install, script tag, every attribute, event, custom property and part', () => {
    const readme = shipped('README.md');
    for (const needed of [
      'npm install pix-checkout',
      "import 'pix-checkout/widget'",
      'integrity="sha384-',
      'crossorigin="anonymous"',
      '/widget/integrity.json',
      'ALLOWED_ORIGINS',
      'ORDERS_TOKEN',
      'createHmac',
    ]) {
      expect(readme, needed).toContain(needed);
    }
    const component = readFileSync(join(root, 'widget/pix-checkout.component.ts'), 'utf8');
    const properties = /static override properties = \{([\s\S]*?)\n {2}\};/.exec(component)?.[1] ?? '';
    const attributes = [...properties.matchAll(/\{ attribute: '([a-z-]+)'/g)].map((m) => m[1]);
    const events = [...readFileSync(join(root, 'widget/events.ts'), 'utf8').matchAll(/^\s+'(pix-checkout-[a-z-]+)':/gm)].map((m) => m[1]);
    const customProperties = [...component.matchAll(/@cssproperty (--pix-[a-z-]+)/g)].map((m) => m[1]);
    const parts = [...component.matchAll(/@csspart ([a-z][a-z-]*)/g)].map((m) => m[1]);
    const slots = [...component.matchAll(/@slot ([a-z][a-z-]*)/g)].map((m) => m[1]);
    expect(attributes.length).toBeGreaterThan(5);
    expect(events.length).toBeGreaterThan(5);
    expect(customProperties.length).toBeGreaterThan(10);
    expect(parts.length).toBeGreaterThan(10);
    const missing = [...attributes, ...events, ...customProperties, ...parts, ...slots].filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});

describe('a TypeScript consumer that installed the tarball', () => {
  /** Type-checks `files` (written into a folder of their own) with `compilerOptions`; answers tsc's output. */
  function typeCheck(name: string, compilerOptions: Record<string, unknown>, sources: Record<string, string>) {
    mkdirSync(join(consumer, name));
    for (const [file, text] of Object.entries(sources)) writeFileSync(join(consumer, name, file), text);
    const config = join(consumer, `tsconfig.${name}.json`);
    writeFileSync(config, JSON.stringify({ compilerOptions: { noEmit: true, types: [], ...compilerOptions }, include: [name] }));
    const checked = spawnSync(process.execPath, [tsc, '-p', config], { encoding: 'utf8' });
    return { output: checked.stdout + checked.stderr, status: checked.status };
  }

  it.each([
    ['node16', 'node16'],
    ['bundler', 'esnext'],
    ['node10', 'commonjs'],
  ])(
    'finds the types under moduleResolution %s (module %s)',
    (moduleResolution, module) => {
      const checked = typeCheck(
        moduleResolution,
        {
          strict: true,
          target: 'ES2022',
          module,
          moduleResolution,
          resolveJsonModule: true,
          esModuleInterop: true,
          skipLibCheck: false,
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        },
        {
          'main.ts': `import { PixCheckout, type PixCheckoutCompletedEvent } from 'pix-checkout/widget';
import { PixCheckout as SameClass } from 'pix-checkout';
import integrity from 'pix-checkout/widget/integrity.json';

const element: PixCheckout | null = document.querySelector('pix-checkout');
const paid = (event: PixCheckoutCompletedEvent): string => event.detail.amount;
element?.addEventListener('pix-checkout-completed', paid);
// @ts-expect-error the detail of pix-checkout-error has no amount
element?.addEventListener('pix-checkout-error', (event) => event.detail.amount);
const same: typeof PixCheckout = SameClass;
const hash: string = integrity.integrity;
export { same, hash };
`,
        },
      );
      expect(checked.output).toBe('');
      expect(checked.status).toBe(0);
    },
    60_000,
  );

  it('type-checks with strict settings and skipLibCheck off, with neither React nor Vue installed', () => {
    // The declarations name lit's types (the element is a LitElement): lit is a dependency of the package.
    const checked = typeCheck(
      'strict',
      {
        strict: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        resolveJsonModule: true,
        skipLibCheck: false,
        noUnusedLocals: true,
        exactOptionalPropertyTypes: true,
        jsx: 'preserve',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      },
      {
        'main.ts': `import { PixCheckout, type PixCheckoutAttributes, type PixCheckoutCompletedEvent } from 'pix-checkout/widget';
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
        'view.tsx': `export const view = <pix-checkout endpoint="/api" order-id="A-1" order-token="t" collect-payer />;
// @ts-expect-error collect-payer is a boolean attribute
export const wrong = <pix-checkout collect-payer="yes" />;
`,
      },
    );
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
  }, 60_000);
});
