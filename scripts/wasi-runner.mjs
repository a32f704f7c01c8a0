// Runs a wasm32-wasip1 program (a test binary built by `cargo test --target wasm32-wasip1`)
// under Node.js: `node scripts/wasi-runner.mjs program.wasm [args...]`. Cargo calls it as
// the target's runner (CARGO_TARGET_WASM32_WASIP1_RUNNER); `scripts/test-cross.sh` sets
// that up.
//
// - WASI preview 1, with the program's arguments and the environment of this process
//   (so VUTF8_EXHAUSTIVE and RUST_BACKTRACE reach the tests). The current directory is
//   opened to the program as `/`, which is also its working directory: cargo runs tests
//   from the package root, so relative paths mean the same as on the host (proptest finds
//   and replays `tests/*.proptest-regressions` this way).
// - Functions imported from `env`: Debian's wasi-libc has no pthread functions at all, so
//   the standard library (built from Debian's sources, which starts threads through
//   pthreads on WASI) leaves them undefined and they become imports. They are answered
//   here as a libc without threads would: the attribute functions succeed (they only
//   fill in memory), `pthread_create` fails with ENOSYS, which the standard library turns
//   into `io::ErrorKind::Unsupported` (what `std::thread` reports on every target without
//   threads, and what rayon's global pool falls back on), and `pthread_join` /
//   `pthread_detach`, never reached, fail too. Any other import from `env` is refused:
//   the program does not start.
// - Panics: the tests are built with `-C panic=unwind` and WebAssembly exception handling
//   (as on the host, a failing test is caught and reported, and `catch_unwind` works);
//   the exception tag they import (`env.__cpp_exception`) is made here.
// - Exit status: the program's own (`wasi.start` with `returnOnExit`): 0, or 101 when a
//   test failed. A trap (an abort, or an exception nothing caught) is caught here,
//   reported, and also turned into 101, so cargo and the scripts see the failure.

import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { WASI } from 'node:wasi';

const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error('usage: node wasi-runner.mjs program.wasm [args...]');
  process.exit(2);
}

const ENOSYS = 52; // WASI errno
const PTHREAD = {
  pthread_attr_init: 0,
  pthread_attr_setstacksize: 0,
  pthread_attr_destroy: 0,
  pthread_create: ENOSYS,
  pthread_join: ENOSYS,
  pthread_detach: ENOSYS,
};
const module = await WebAssembly.compile(await readFile(file));

const env = {};
for (const imp of WebAssembly.Module.imports(module)) {
  if (imp.module !== 'env') continue;
  if (imp.name === '__cpp_exception' && imp.kind === 'tag') {
    // The tag of the exceptions that carry Rust panics (built with -C panic=unwind and
    // +exception-handling): its one parameter is a pointer. Normally the C++ runtime
    // defines it; here nothing else does.
    env[imp.name] = new WebAssembly.Tag({ parameters: ['i32'] });
    continue;
  }
  if (imp.kind !== 'function' || !(imp.name in PTHREAD)) {
    console.error(`wasi-runner: ${file} imports env.${imp.name} (${imp.kind}): not provided`);
    process.exit(2);
  }
  const result = PTHREAD[imp.name];
  env[imp.name] = () => result;
}

const wasi = new WASI({
  version: 'preview1',
  args: [file, ...args],
  env: process.env,
  preopens: { '/': process.cwd() },
  returnOnExit: true,
});

const instance = await WebAssembly.instantiate(module, {
  wasi_snapshot_preview1: wasi.wasiImport,
  env,
});

let code;
try {
  code = wasi.start(instance);
} catch (e) {
  console.error(`wasi-runner: ${file} trapped: ${e && e.message ? e.message : e}`);
  code = 101;
}
process.exitCode = code;
