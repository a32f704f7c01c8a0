//! Valid generated text (`vutf8_corpus`, every script, up to 4 KiB) corrupted by a script of
//! edits the fuzzer chooses (see `vutf8_fuzz::mutate`), then checked like `differential`.
//! Raw bytes rarely reach deep into long multi-byte text; this format starts there.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = vutf8_fuzz::mutate::build(data);
    let _ = vutf8_fuzz::check_all(&text);
    if vutf8_fuzz::hash(data).is_multiple_of(16) {
        vutf8_fuzz::check_parallel_splice(&text);
    }
});
