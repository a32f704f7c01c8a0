//! Any bytes: every backend, `from_utf8`, `is_valid`, the streaming `Validator` (fixed
//! chunkings), `par_from_utf8` and the other entry points must agree with
//! `core::str::from_utf8` and the scalar reference (see `vutf8_fuzz::check_all`). One input
//! in 16 is also written at the start of a 2 MiB buffer and across one of its piece
//! boundaries, for `par_from_utf8`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = vutf8_fuzz::check_all(data);
    if vutf8_fuzz::hash(data).is_multiple_of(16) {
        vutf8_fuzz::check_parallel_splice(data);
    }
});
