// Checks vutf8's WebAssembly build against Node.js's own validators, then compares speeds.
//
//   node scripts/wasm-compare.mjs [--check-only] SIMD128.wasm [SCALAR.wasm]
//
// The modules are built from examples/wasm by scripts/wasm-compare.sh. Both are checked;
// the first must report the simd128 backend, the second (if given) the scalar one.
//
// 1. Agreement: thousands of generated inputs (valid text in six scripts, cut at every
//    length up to 300 bytes and at random lengths, and corrupted copies: bit flips,
//    truncations, inserted, deleted and overwritten bytes, known-bad sequences, random
//    bytes, and large texts with one error near the start, middle or end). For each one,
//    `validate` must equal `buffer.isUtf8()` (and `TextDecoder` with `fatal: true` must
//    agree with it too), and `valid_up_to` must be the longest valid prefix: that prefix
//    passes `isUtf8` and no longer prefix up to 4 bytes more does. Any disagreement is
//    printed and the script exits with status 1.
// 2. Speed: GB/s (median of 7 repeats of at least 20 ms each) for 64 B, 4 KiB, 64 KiB and
//    1 MiB of each script, for vutf8 in wasm (validating bytes already in the module's
//    memory), `buffer.isUtf8()` and `TextDecoder('utf-8', {fatal: true}).decode()`.
//
// The text is corpus/samples/* (4 KiB of each script, written by vutf8-corpus's
// `generate`), repeated to the size wanted and cut at a character boundary, padded with
// spaces. Random choices come from a fixed-seed xorshift generator: every run is the same.

import { readFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const checkOnly = argv[0] === '--check-only';
if (checkOnly) argv.shift();
const [simdPath, scalarPath] = argv;
if (!simdPath) {
  console.error('usage: node scripts/wasm-compare.mjs [--check-only] SIMD128.wasm [SCALAR.wasm]');
  process.exit(2);
}

const MAX = (1 << 20) + 64;

// ---------------------------------------------------------------------------------------
// The modules.

function load(path, wantSimd) {
  const module = new WebAssembly.Module(readFileSync(path));
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    throw new Error(`${path} imports ${imp.module}.${imp.name}: expected no imports`);
  }
  const ex = new WebAssembly.Instance(module, imports).exports;
  const simd = ex.backend() === 1;
  if (simd !== wantSimd) {
    throw new Error(`${path}: backend is ${simd ? 'simd128' : 'scalar'}, expected the other`);
  }
  const ptr = ex.alloc(MAX);
  const name = `vutf8 ${simd ? 'simd128' : 'scalar'} (wasm)`;
  return {
    name,
    // Copies `bytes` into the module's buffer (a fresh view: memory may have grown).
    put(bytes) {
      new Uint8Array(ex.memory.buffer, ptr, bytes.length).set(bytes);
    },
    validate: (len) => ex.validate(ptr, len),
    validUpTo: (len) => ex.valid_up_to(ptr, len),
  };
}

const mods = [load(simdPath, true)];
if (scalarPath) mods.push(load(scalarPath, false));

// ---------------------------------------------------------------------------------------
// Inputs.

let seed = 0x2545f491;
function rand() {
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed;
}
const below = (n) => rand() % n;

const SCRIPTS = ['ascii', 'latin', 'cyrillic', 'cjk', 'emoji', 'mixed'];
const samples = Object.fromEntries(
  SCRIPTS.map((s) => [
    s,
    readFileSync(join(root, 'corpus', 'samples', s === 'mixed' ? 'mixed.jsonl' : `${s}.txt`)),
  ]),
);
for (const [s, b] of Object.entries(samples)) {
  if (!isUtf8(b)) throw new Error(`corpus sample ${s} is not valid UTF-8`);
}

const isCont = (b) => (b & 0xc0) === 0x80;

// `len` bytes of `script`: the sample repeated, cut at a character boundary, padded with
// spaces (like vutf8-corpus's `generate`).
function text(script, len) {
  const sample = samples[script];
  const out = Buffer.alloc(len, 0x20);
  let at = 0;
  while (at < len) {
    const n = Math.min(sample.length, len - at);
    sample.copy(out, at, 0, n);
    at += n;
  }
  // Back up over a character that the end of the buffer cut in two.
  let end = len;
  let i = len - 1;
  while (i >= 0 && isCont(out[i])) i--;
  if (i >= 0 && out[i] >= 0xc0) {
    const need = out[i] >= 0xf0 ? 4 : out[i] >= 0xe0 ? 3 : 2;
    if (len - i < need) end = i;
  }
  out.fill(0x20, end);
  return out;
}

// A slice of a sample, from a random offset, `len` bytes (may cut characters).
function slice(script, len) {
  const big = text(script, 8192 + 300);
  const from = below(8192);
  return Buffer.from(big.subarray(from, from + len));
}

const BAD = [
  [0x80], [0xbf], [0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xe0, 0x9f, 0xbf],
  [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf0, 0x80, 0x80, 0xaf], [0xf0, 0x8f, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xf8], [0xfe], [0xff], [0xe2, 0x28, 0xa1],
  [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc3], [0xe1, 0x80, 0x41],
];
const TRICKY_BYTES = [
  0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef,
  0xf0, 0xf4, 0xf5, 0xff,
];

function* cases() {
  // Valid text, every length up to 300, from a character boundary.
  for (const s of SCRIPTS) {
    for (let len = 0; len <= 300; len++) yield [`${s} text ${len}`, text(s, len)];
  }
  // Slices from random offsets (often cutting a character at either end).
  for (let i = 0; i < 3000; i++) {
    const s = SCRIPTS[below(6)];
    const len = below(8) === 0 ? below(5000) : below(200);
    yield [`${s} slice ${len}`, slice(s, len)];
  }
  // Corrupted copies of valid text.
  const kinds = ['flip', 'truncate', 'insert', 'delete', 'overwrite', 'bad'];
  for (let i = 0; i < 12000; i++) {
    const s = SCRIPTS[below(6)];
    const len = 1 + (below(4) === 0 ? below(5000) : below(260));
    let b = text(s, len);
    const kind = kinds[i % kinds.length];
    const pos = below(b.length);
    switch (kind) {
      case 'flip':
        b[pos] ^= 1 << below(8);
        break;
      case 'truncate':
        b = b.subarray(0, pos);
        break;
      case 'insert': {
        const byte = below(2) ? TRICKY_BYTES[below(TRICKY_BYTES.length)] : below(256);
        b = Buffer.concat([b.subarray(0, pos), Buffer.from([byte]), b.subarray(pos)]);
        break;
      }
      case 'delete':
        b = Buffer.concat([b.subarray(0, pos), b.subarray(pos + 1)]);
        break;
      case 'overwrite':
        b[pos] = TRICKY_BYTES[below(TRICKY_BYTES.length)];
        break;
      case 'bad': {
        const bad = Buffer.from(BAD[below(BAD.length)]);
        b = Buffer.concat([b.subarray(0, pos), bad, b.subarray(pos)]);
        break;
      }
    }
    yield [`${s} ${kind} at ${pos} of ${len}`, b];
  }
  // Random bytes: short, and mostly ASCII with a few high bytes.
  for (let i = 0; i < 3000; i++) {
    const len = below(70);
    const b = Buffer.alloc(len);
    const high = below(3) === 0;
    for (let j = 0; j < len; j++) b[j] = high ? below(256) : below(8) ? below(128) : below(256);
    yield [`random ${len}`, b];
  }
  // Large texts: valid, and with one bad sequence near the start, middle or end.
  for (const s of SCRIPTS) {
    for (const len of [65536, MAX - 64]) {
      const b = text(s, len);
      yield [`${s} ${len}`, b];
      for (const at of [0, 1, 63, 64, 4097, len >> 1, len - 70, len - 4, len - 1]) {
        const c = Buffer.from(b);
        const bad = BAD[below(BAD.length)];
        for (let k = 0; k < bad.length && at + k < len; k++) c[at + k] = bad[k];
        yield [`${s} ${len} bad at ${at}`, c];
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// 1. Agreement.

const decoder = new TextDecoder('utf-8', { fatal: true });
function decodes(b) {
  try {
    decoder.decode(b);
    return true;
  } catch {
    return false;
  }
}

const hex = (b) =>
  Array.from(b.subarray(0, 160), (x) => x.toString(16).padStart(2, '0')).join(' ') +
  (b.length > 160 ? ' …' : '');

let total = 0;
let valid = 0;
const failures = [];
function fail(msg, name, b) {
  failures.push(`${msg}\n    case: ${name} (${b.length} bytes)\n    bytes: ${hex(b)}`);
}
for (const [name, b] of cases()) {
  total++;
  const want = isUtf8(b);
  if (want) valid++;
  if (decodes(b) !== want) fail(`TextDecoder says ${!want}, isUtf8 says ${want}`, name, b);
  for (const m of mods) {
    m.put(b);
    const got = m.validate(b.length) === 1;
    if (got !== want) fail(`${m.name}: validate says ${got}, isUtf8 says ${want}`, name, b);
    const upTo = m.validUpTo(b.length);
    if (want) {
      if (upTo !== -1) fail(`${m.name}: valid_up_to ${upTo} on valid input`, name, b);
    } else {
      let ok = upTo >= 0 && upTo < b.length && isUtf8(b.subarray(0, upTo));
      for (let k = upTo + 1; ok && k <= Math.min(b.length, upTo + 4); k++) {
        if (isUtf8(b.subarray(0, k))) ok = false;
      }
      if (!ok) fail(`${m.name}: valid_up_to ${upTo} is not the longest valid prefix`, name, b);
    }
  }
  if (failures.length >= 10) break;
}
if (failures.length) {
  console.error(`DISAGREEMENT after ${total} cases:\n${failures.join('\n')}`);
  process.exit(1);
}
console.log(
  `agreement: ${total} inputs (${valid} valid, ${total - valid} invalid): ` +
    `${mods.map((m) => m.name).join(', ')} agree with buffer.isUtf8() ` +
    '(validity, and valid_up_to is the longest valid prefix); TextDecoder agrees too',
);

// ---------------------------------------------------------------------------------------
// 2. Speed.

if (checkOnly) process.exit(0);

const now = () => Number(process.hrtime.bigint()) / 1e9;
let sink = 0;
// GB/s of `f` on `len` bytes: median of 7 repeats, each at least 20 ms.
function speed(f, len) {
  let iters = 1;
  for (;;) {
    const t0 = now();
    for (let i = 0; i < iters; i++) sink += f();
    if (now() - t0 >= 0.02) break;
    iters *= 2;
  }
  const rates = [];
  for (let r = 0; r < 7; r++) {
    const t0 = now();
    for (let i = 0; i < iters; i++) sink += f();
    rates.push((len * iters) / (now() - t0) / 1e9);
  }
  rates.sort((a, b) => a - b);
  return rates[3];
}

const SIZES = [
  [64, '64 B'],
  [4096, '4 KiB'],
  [65536, '64 KiB'],
  [1 << 20, '1 MiB'],
];
const cols = [...mods.map((m) => m.name), 'buffer.isUtf8()', 'TextDecoder fatal'];
console.log(`\nthroughput, GB/s (median of 7), Node.js ${process.version}, ${process.arch}\n`);
console.log(`| script | size | ${cols.join(' | ')} |`);
console.log(`|---|---:|${cols.map(() => '---:').join('|')}|`);
for (const s of SCRIPTS) {
  for (const [len, label] of SIZES) {
    const b = text(s, len);
    if (!isUtf8(b)) throw new Error(`benchmark input ${s} ${len} is not valid`);
    const row = [];
    for (const m of mods) {
      m.put(b);
      row.push(speed(() => m.validate(len), len));
    }
    row.push(speed(() => (isUtf8(b) ? 1 : 0), len));
    row.push(speed(() => decoder.decode(b).length, len));
    console.log(`| ${s} | ${label} | ${row.map((x) => x.toFixed(2)).join(' | ')} |`);
  }
}
if (sink === 0.5) console.log(sink); // keeps the results alive
