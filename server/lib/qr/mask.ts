/**
 * qrcode's mask search, bit-parallel. qrcode scores each of the eight masks module by module (about 1 ms a PIX code);
 * here the rows are packed into 32-bit words and the penalties are counted with shifts, ANDs and popcounts, to exactly
 * qrcode's numbers (lib/core/mask-pattern.js, qrcode 1.5): the symbol chosen is the same.
 *
 * Rows are packed least significant bit first: bit `k` of word `j` is column `32 * j + k`, so `x >>> s` brings the
 * module `s` further along the row to position 0. Each row takes `words + 1` words, the last always zero, so a shift
 * may read one word past the row; columns are scored 32 at a time straight from the row words, no transpose needed.
 */

/** A symbol as qrcode's BitMatrix holds it: the dark modules and the function (reserved) modules, row by row. */
export interface ModuleMatrix {
  readonly size: number;
  readonly data: Uint8Array;
  readonly reservedBit: Uint8Array;
}

/** qrcode's four penalties for one mask, each as its getPenaltyN1..N4 returns it (points, not counts). */
export interface MaskPenalty {
  n1: number;
  n2: number;
  n3: number;
  n4: number;
}

/** Whether mask `p` flips the module at row `i`, column `j` (qrcode's getMaskAt). */
function maskAt(p: number, i: number, j: number): boolean {
  switch (p) {
    case 0:
      return (i + j) % 2 === 0;
    case 1:
      return i % 2 === 0;
    case 2:
      return j % 3 === 0;
    case 3:
      return (i + j) % 3 === 0;
    case 4:
      return (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0;
    case 5:
      return ((i * j) % 2) + ((i * j) % 3) === 0;
    case 6:
      return (((i * j) % 2) + ((i * j) % 3)) % 2 === 0;
    default:
      return (((i * j) % 3) + ((i + j) % 2)) % 2 === 0;
  }
}

/** The 15 format bits (error correction level and mask, BCH(15,5), XOR 0x5412), as qrcode's FormatInfo.getEncodedBits. */
function formatBits(ecLevelBit: number, mask: number): number {
  const data = (ecLevelBit << 3) | mask;
  let rem = data << 10;
  for (let bit = 14; bit >= 10; bit--) if ((rem >>> bit) & 1) rem ^= 0x537 << (bit - 10);
  return ((data << 10) | rem) ^ 0x5412;
}

/** Rows of zeros after the last row: a column pattern reaches at most 10 modules down. */
const PAD_ROWS = 10;

/** What depends on the size only: packing, and each mask over the whole symbol (not yet kept off function modules). */
interface Layout {
  words: number;
  stride: number;
  /** The bits of a row inside the symbol, per word (`stride` long, the spare word 0). */
  valid: Int32Array;
  /** Per mask, the modules it flips, row by row (`size * stride` words). */
  maskRows: Int32Array[];
  /** Format bit `i` sits at (row, column) `format[2 * i]`, `format[2 * i + 1]`, then its second copy 30 entries on. */
  format: Int32Array;
}

const layouts = new Map<number, Layout>();

function layoutOf(size: number): Layout {
  let layout = layouts.get(size);
  if (layout) return layout;
  const words = Math.ceil(size / 32);
  const stride = words + 1;
  const valid = new Int32Array(stride);
  for (let k = 0; k < size; k++) valid[k >> 5]! |= 1 << (k & 31);
  const maskRows: Int32Array[] = [];
  for (let p = 0; p < 8; p++) {
    const rows = new Int32Array(size * stride);
    for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) if (maskAt(p, i, j)) rows[i * stride + (j >> 5)]! |= 1 << (j & 31);
    maskRows.push(rows);
  }
  // Where qrcode's setupFormatInfo puts bit i: down column 8 (skipping the timing row), and along row 8.
  const format = new Int32Array(60);
  for (let i = 0; i < 15; i++) {
    format.set([i < 6 ? i : i < 8 ? i + 1 : size - 15 + i, 8], 2 * i);
    format.set([8, i < 8 ? size - i - 1 : i < 9 ? 15 - i : 14 - i], 30 + 2 * i);
  }
  layout = { words, stride, valid, maskRows, format };
  layouts.set(size, layout);
  return layout;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/*
 * The two scans below count, for `dark` and `light` (the dark and the light modules of one masked symbol, by rows,
 * zero outside it), with d(s) / l(s) meaning "the module s further along is dark / light":
 *   N1: a run of L >= 5 alike gives L - 4 bits in d & d(1) & ... & d(4) and scores 3 + (L - 5) = (L - 4) + 2, the 2
 *       once per run, at its first bit;
 *   N3: qrcode's 11-module windows 0x5D0 (10111010000) and 0x05D (00001011101), read from the window's first module;
 *       a window must lie inside the line: as nothing outside it is dark or light, one that leaves it never matches.
 */

/** Along the rows: N1 and N3, plus N2 (2×2 blocks alike, with the row below) and the dark modules. */
function scoreRows(dark: Int32Array, light: Int32Array, size: number, { words, stride }: Layout, acc: MaskPenalty): number {
  let n1 = 0;
  let n2 = 0;
  let n3 = 0;
  let darkCount = 0;
  for (let o = 0; o < size * stride; o += stride) {
    let carryDark = 0;
    let carryLight = 0;
    for (let j = o; j < o + words; j++) {
      // d(s) takes its last s bits from the next word (the spare word after the last is 0).
      const d = dark[j]!;
      const dn = dark[j + 1]!;
      const l = light[j]!;
      const ln = light[j + 1]!;
      const d1 = (d >>> 1) | (dn << 31);
      const d2 = (d >>> 2) | (dn << 30);
      const d3 = (d >>> 3) | (dn << 29);
      const d4 = (d >>> 4) | (dn << 28);
      const l1 = (l >>> 1) | (ln << 31);
      const l2 = (l >>> 2) | (ln << 30);
      const l3 = (l >>> 3) | (ln << 29);
      const l4 = (l >>> 4) | (ln << 28);
      darkCount += popcount(d);
      const runDark = d & d1 & d2 & d3 & d4;
      const runLight = l & l1 & l2 & l3 & l4;
      // (Dark and light runs never share a bit: one popcount counts both.)
      n1 += popcount(runDark | runLight);
      n1 += 2 * popcount((runDark & ~((runDark << 1) | carryDark)) | (runLight & ~((runLight << 1) | carryLight)));
      carryDark = runDark >>> 31;
      carryLight = runLight >>> 31;
      // The row below (the padding rows after the last one are neither colour).
      const b = dark[j + stride]!;
      const bl = light[j + stride]!;
      const b1 = (b >>> 1) | (dark[j + stride + 1]! << 31);
      const bl1 = (bl >>> 1) | (light[j + stride + 1]! << 31);
      n2 += popcount((d & d1 & b & b1) | (l & l1 & bl & bl1));
      const l5 = (l >>> 5) | (ln << 27);
      const d6 = (d >>> 6) | (dn << 26);
      const finderFirst = l1 & l5 & d6 & d & d2 & d3 & d4;
      const finderLast = l1 & l5 & d6 & l & l2 & l3 & d4;
      if (finderFirst === 0 && finderLast === 0) continue;
      const l7 = (l >>> 7) | (ln << 25);
      const l8 = (l >>> 8) | (ln << 24);
      const l9 = (l >>> 9) | (ln << 23);
      const l10 = (l >>> 10) | (ln << 22);
      const d7 = (d >>> 7) | (dn << 25);
      const d8 = (d >>> 8) | (dn << 24);
      const d10 = (d >>> 10) | (dn << 22);
      n3 += popcount(finderFirst & l7 & l8 & l9 & l10) + popcount(finderLast & d7 & d8 & l9 & d10);
    }
  }
  acc.n1 += n1;
  acc.n2 = n2 * 3;
  acc.n3 += n3 * 40;
  return darkCount;
}

/** Down the columns: N1 and N3, each word holding 32 columns side by side, so d(s) is simply the row s further down. */
function scoreColumns(dark: Int32Array, light: Int32Array, size: number, { words, stride }: Layout, acc: MaskPenalty): void {
  let n1 = 0;
  let n3 = 0;
  for (let j = 0; j < words; j++) {
    let aboveDark = 0;
    let aboveLight = 0;
    for (let o = j; o < size * stride; o += stride) {
      const d = dark[o]!;
      const l = light[o]!;
      const l1 = light[o + stride]!;
      const runDark = d & dark[o + stride]! & dark[o + 2 * stride]! & dark[o + 3 * stride]! & dark[o + 4 * stride]!;
      const runLight = l & l1 & light[o + 2 * stride]! & light[o + 3 * stride]! & light[o + 4 * stride]!;
      n1 += popcount(runDark | runLight) + 2 * popcount((runDark & ~aboveDark) | (runLight & ~aboveLight));
      aboveDark = runDark;
      aboveLight = runLight;
      const shared = l1 & light[o + 5 * stride]! & dark[o + 6 * stride]!;
      const finderFirst = shared & d & dark[o + 2 * stride]! & dark[o + 3 * stride]! & dark[o + 4 * stride]!;
      const finderLast = shared & l & light[o + 2 * stride]! & light[o + 3 * stride]! & dark[o + 4 * stride]!;
      if (finderFirst === 0 && finderLast === 0) continue;
      const l9 = light[o + 9 * stride]!;
      n3 += popcount(finderFirst & light[o + 7 * stride]! & light[o + 8 * stride]! & l9 & light[o + 10 * stride]!);
      n3 += popcount(finderLast & dark[o + 7 * stride]! & dark[o + 8 * stride]! & l9 & dark[o + 10 * stride]!);
    }
  }
  acc.n1 += n1;
  acc.n3 += n3 * 40;
}

/**
 * qrcode's penalties for each of the eight masks of `matrix`, which qrcode built with mask `appliedMask` and error
 * correction level bit `ecLevelBit` (`errorCorrectionLevel.bit`), scored as getBestMask scores them: the format modules
 * carrying the format bits of the mask being scored.
 */
export function maskPenalties(matrix: ModuleMatrix, appliedMask: number, ecLevelBit: number): MaskPenalty[] {
  const { size, data, reservedBit } = matrix;
  const layout = layoutOf(size);
  const { words, stride, valid, maskRows, format } = layout;
  const n = size * stride;
  // The symbol as given, and where masks apply (not on function modules), by rows. qrcode's modules are 0 or 1.
  const given = new Int32Array(n);
  const free = new Int32Array(n);
  for (let r = 0, i = 0; r < size; r++) {
    for (let c = 0; c < size; c += 32) {
      let word = 0;
      let freeWord = 0;
      for (let bit = 0; bit < 32 && c + bit < size; bit++, i++) {
        word |= data[i]! << bit;
        freeWord |= (reservedBit[i]! ^ 1) << bit;
      }
      given[r * stride + (c >> 5)] = word;
      free[r * stride + (c >> 5)] = freeWord;
    }
  }
  const dark = new Int32Array(n + PAD_ROWS * stride);
  const light = new Int32Array(n + PAD_ROWS * stride);
  const fromRows = maskRows[appliedMask]!;
  const penalties: MaskPenalty[] = [];
  for (let p = 0; p < 8; p++) {
    // Undo the applied mask and apply mask p in one XOR, then put in the format bits of mask p.
    const toRows = maskRows[p]!;
    for (let o = 0; o < n; o += stride) {
      for (let j = 0; j < words; j++) {
        const word = given[o + j]! ^ ((fromRows[o + j]! ^ toRows[o + j]!) & free[o + j]!);
        dark[o + j] = word;
        light[o + j] = ~word & valid[j]!;
      }
    }
    const bits = formatBits(ecLevelBit, p);
    for (let f = 0; f < 30; f++) {
      const at = format[2 * f]! * stride + (format[2 * f + 1]! >> 5);
      const bit = 1 << (format[2 * f + 1]! & 31);
      const isDark = (bits >>> (f % 15)) & 1;
      dark[at] = isDark ? dark[at]! | bit : dark[at]! & ~bit;
      light[at] = isDark ? light[at]! & ~bit : light[at]! | bit;
    }
    const penalty: MaskPenalty = { n1: 0, n2: 0, n3: 0, n4: 0 };
    const darkCount = scoreRows(dark, light, size, layout, penalty);
    scoreColumns(dark, light, size, layout, penalty);
    // The same floating-point steps as qrcode, so a share on a 5 % boundary rounds the same way.
    penalty.n4 = Math.abs(Math.ceil((darkCount * 100) / (size * size) / 5) - 10) * 10;
    penalties.push(penalty);
  }
  return penalties;
}

/** The mask qrcode's own search would pick for `matrix` (see maskPenalties): the lowest total, the first on a tie. */
export function bestMask(matrix: ModuleMatrix, appliedMask: number, ecLevelBit: number): number {
  let best = 0;
  let lowest = Infinity;
  maskPenalties(matrix, appliedMask, ecLevelBit).forEach(({ n1, n2, n3, n4 }, p) => {
    if (n1 + n2 + n3 + n4 < lowest) {
      lowest = n1 + n2 + n3 + n4;
      best = p;
    }
  });
  return best;
}

/** Turns `matrix`, built with mask `from`, into the symbol qrcode builds with mask `to`: data modules and format bits. */
export function remask(matrix: ModuleMatrix, from: number, to: number, ecLevelBit: number): void {
  if (from === to) return;
  const { size, data, reservedBit } = matrix;
  const { stride, maskRows, format } = layoutOf(size);
  const fromRows = maskRows[from]!;
  const toRows = maskRows[to]!;
  for (let r = 0, i = 0; r < size; r++) {
    for (let c = 0; c < size; c++, i++) {
      const at = r * stride + (c >> 5);
      if (!reservedBit[i]) data[i]! ^= ((fromRows[at]! ^ toRows[at]!) >>> (c & 31)) & 1;
    }
  }
  const bits = formatBits(ecLevelBit, to);
  for (let f = 0; f < 30; f++) data[format[2 * f]! * size + format[2 * f + 1]!] = (bits >>> (f % 15)) & 1;
}
