//! Guard pages: every entry point on inputs that end exactly at the end of a readable page
//! followed by a `PROT_NONE` page, and on inputs that start exactly at the start of a
//! readable page preceded by one. A read of even one byte past either end of the input
//! faults (SIGSEGV) and kills the test, in a normal build: no sanitizer needed.
//!
//! Lengths from the size tiers of `vutf8::tiers`: every length up to `SHORT_LENGTHS` (the
//! one-register paths: the packed 128-bit register, AVX2's two 16-byte loads, AVX-512's
//! masked load; and the short path with one to 20 registers, its overlapping last register
//! and its ASCII test over several blocks), then longer lengths: the short path's last, the
//! medium path's first, the lengths where its number of groups changes, every 61st up to a
//! page, and the main loop's first and its first lengths with a partial last block (see
//! `long_lengths`). Valid text of every script, and errors of several kinds near both
//! ends.
//! The rest of the readable page is filled with continuation bytes (`80`), so a read past
//! the end *within* the page (where no fault can happen) changes the answer and is caught
//! by the comparison with `core::str::from_utf8`.
//!
//! `guard_page_catches_an_over_read` checks the harness itself: a child process that reads
//! one byte past the end of an input, or one byte before its start, must die of SIGSEGV.
#![cfg(all(unix, feature = "std"))]

mod common;

use std::io::Read;

use vutf8::tiers::{BLOCK, LOOP_GROUP, MEDIUM_BELOW, MEDIUM_GROUP, SHORT_BELOW};
use vutf8::{Backend, Utf8Error};
use vutf8_corpus::{generate, Script};

/// Pages: `PROT_NONE`, readable and writable ones (`readable` bytes, enough for the
/// longest input), `PROT_NONE`.
struct Guarded {
    base: *mut u8,
    page: usize,
    readable: usize,
}

impl Guarded {
    fn new() -> Guarded {
        // SAFETY: sysconf has no preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap();
        assert!(page >= 4096);
        let readable = max_len().div_ceil(page) * page;
        // SAFETY: an anonymous private mapping of the readable pages and two more; the
        // result is checked.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                readable + 2 * page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED, "mmap");
        let base = base.cast::<u8>();
        // SAFETY: both guard pages lie in the mapping just made.
        unsafe {
            assert_eq!(libc::mprotect(base.cast(), page, libc::PROT_NONE), 0);
            assert_eq!(
                libc::mprotect(base.add(page + readable).cast(), page, libc::PROT_NONE),
                0
            );
        }
        Guarded {
            base,
            page,
            readable,
        }
    }

    /// The readable pages, filled with `80` bytes.
    fn page(&mut self) -> &mut [u8] {
        // SAFETY: the pages after the first are readable and writable and live as long as
        // `self`.
        let page =
            unsafe { std::slice::from_raw_parts_mut(self.base.add(self.page), self.readable) };
        page.fill(0x80);
        page
    }

    /// `bytes` copied to the end of the readable pages: the next byte is unreadable.
    fn at_end(&mut self, bytes: &[u8]) -> &mut [u8] {
        let page = self.page();
        let start = page.len() - bytes.len();
        page[start..].copy_from_slice(bytes);
        &mut page[start..]
    }

    /// `bytes` copied to the start of the readable pages: the byte before is unreadable.
    fn at_start(&mut self, bytes: &[u8]) -> &mut [u8] {
        let page = self.page();
        page[..bytes.len()].copy_from_slice(bytes);
        &mut page[..bytes.len()]
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, not used after this.
        unsafe { libc::munmap(self.base.cast(), self.readable + 2 * self.page) };
    }
}

/// Runs every entry point on `input` (in guarded memory) and compares with std and the
/// scalar reference. Returns the number of calls made.
fn check(input: &mut [u8], backends: &[Backend]) -> u64 {
    let want = vutf8::scalar::validate(input);
    let std = std::str::from_utf8(input)
        .map(|_| ())
        .map_err(|e| (e.valid_up_to(), e.error_len()));
    let pos = |r: Result<(), Utf8Error>| r.map_err(|e| (e.valid_up_to(), e.error_len()));
    assert_eq!(pos(want), std, "scalar reference on {input:02X?}");
    let mut calls = 2;
    for &b in backends {
        assert_eq!(b.validate(input), want, "{b} on {input:02X?}");
        assert_eq!(
            b.is_valid(input),
            want.is_ok(),
            "{b} is_valid on {input:02X?}"
        );
        calls += 2;
    }
    assert_eq!(vutf8::from_utf8(input).map(|_| ()), want, "from_utf8");
    assert_eq!(vutf8::is_valid(input), want.is_ok(), "is_valid");
    assert_eq!(vutf8::validate_and_count(input).map(|_| ()), want);
    for size in [input.len().max(1), 1, 3, 33] {
        assert_eq!(
            common::stream_in_chunks(input, size),
            want,
            "Validator in chunks of {size}"
        );
    }
    assert_eq!(
        vutf8::from_utf8_lossy(input),
        String::from_utf8_lossy(input),
        "from_utf8_lossy"
    );
    let mut repairer = vutf8::Repairer::new();
    let mut repaired = String::new();
    for chunk in input.chunks(7) {
        repairer.push(chunk, &mut repaired);
    }
    repairer.finish(&mut repaired);
    assert_eq!(repaired, String::from_utf8_lossy(input), "Repairer");
    assert_eq!(
        vutf8::legacy::validate(input),
        vutf8::legacy::validate_scalar(input),
        "legacy::validate"
    );
    assert_eq!(
        vutf8::legacy::is_valid(input),
        vutf8::legacy::validate(input).is_ok()
    );
    let _ = vutf8::netutf::validate(input);
    let _ = vutf8::has_bom(input);
    let _ = vutf8::strip_bom(input);
    let _ = vutf8::scalar::decode(input).count();
    let mut read = Vec::new();
    let _ = vutf8::Reader::new(&input[..]).read_to_end(&mut read);
    calls += 18;
    #[cfg(feature = "rayon")]
    {
        assert_eq!(
            vutf8::par_from_utf8(input).map(|_| ()),
            want,
            "par_from_utf8"
        );
        assert_eq!(vutf8::par_is_valid(input), want.is_ok(), "par_is_valid");
        calls += 2;
    }
    if want.is_ok() {
        let chars = std::str::from_utf8(input).unwrap().chars().count();
        let text = vutf8::from_utf8(input).unwrap();
        assert_eq!(vutf8::count_chars(text), chars, "count_chars");
        assert_eq!(vutf8::validate_and_count(input), Ok(chars));
        calls += 2;
    }
    assert_eq!(
        vutf8::from_utf8_mut(input).map(|_| ()),
        want,
        "from_utf8_mut"
    );
    calls + 1
}

/// Errors written over the text near its ends.
const ERRORS: &[&[u8]] = &[
    b"\x80",
    b"\xFF",
    b"\xC0\xAF",
    b"\xE0\x80\x80",
    b"\xED\xA0\x80",
    b"\xF4\x90\x80\x80",
    b"\xE2\x41",
    b"\xF0\x9F\x98\x41",
];

/// Endings that leave a sequence open at the end of the input.
const OPEN_ENDS: &[&[u8]] = &[b"\xC3", b"\xE2\x82", b"\xF0\x9F\x98", b"\xF4\x8F\xBF"];

/// The inputs of length `len`: valid text of every script, and copies with an error near
/// the start or near the end.
fn inputs(len: usize) -> Vec<Vec<u8>> {
    let mut out = vec![vec![b'a'; len]];
    for script in Script::ALL {
        out.push(generate(script, len, len as u64));
    }
    for base in [
        generate(Script::Cjk, len, 1),
        generate(Script::Emoji, len, 2),
    ] {
        for bad in ERRORS {
            for at in (0..4.min(len)).chain(len.saturating_sub(4)..len) {
                let mut s = base.clone();
                let n = bad.len().min(len - at);
                s[at..at + n].copy_from_slice(&bad[..n]);
                out.push(s);
            }
        }
    }
    for end in OPEN_ENDS {
        if end.len() <= len {
            let mut s = vec![b'a'; len - end.len()];
            s.extend_from_slice(end);
            out.push(s);
        }
    }
    out
}

#[test]
fn every_entry_point_stays_inside_the_input() {
    let backends = common::backends();
    let mut guarded = Guarded::new();
    let (mut inputs_checked, mut calls) = (0u64, 0u64);
    for len in 0..=SHORT_LENGTHS {
        for input in inputs(len) {
            calls += check(guarded.at_end(&input), &backends);
            calls += check(guarded.at_start(&input), &backends);
            inputs_checked += 2;
        }
    }
    eprintln!(
        "guard pages: {inputs_checked} placements of inputs of 0..={SHORT_LENGTHS} bytes, {calls} calls"
    );
}

/// Every length up to this is checked: the short tiers and the short path with up to 5
/// blocks.
const SHORT_LENGTHS: usize = 5 * BLOCK;

/// The longer lengths checked: every 61st up to a page, and those within 2 bytes of the
/// short path's end, of the lengths where the medium path's number of groups changes (also
/// where a long input's main loop reaches its first and second group), of the page size,
/// and of the main loop's first length.
fn long_lengths() -> Vec<usize> {
    let group = MEDIUM_GROUP * BLOCK;
    let first_group = (1 + LOOP_GROUP) * BLOCK;
    let mut out: Vec<usize> = (SHORT_LENGTHS + 1..=4096).step_by(61).collect();
    for edge in [
        SHORT_BELOW,
        BLOCK + 2 * group,
        first_group,
        first_group + BLOCK,
        first_group + LOOP_GROUP * BLOCK,
        4094,
        MEDIUM_BELOW,
    ] {
        out.extend(edge - 2..=edge + 2);
    }
    out
}

/// The longest input checked.
fn max_len() -> usize {
    long_lengths()
        .into_iter()
        .max()
        .unwrap_or(0)
        .max(SHORT_LENGTHS)
}

#[test]
fn long_inputs_end_at_the_guard_too() {
    // The end of the short path, the medium path (its groups and the rest), and the main
    // loop (its first groups of LOOP_GROUP blocks, single blocks and the overlapping last
    // block).
    let backends = common::backends();
    let mut guarded = Guarded::new();
    for len in long_lengths() {
        for input in inputs(len) {
            check(guarded.at_end(&input), &backends);
            check(guarded.at_start(&input), &backends);
        }
    }
}

/// Run by `guard_page_catches_an_over_read` in a child process: reads one byte past the
/// end of an input placed at the end of the page (`VUTF8_GUARD_SELF_TEST=after`) or one
/// byte before an input placed at its start (`before`), which must fault.
#[test]
#[ignore = "run by guard_page_catches_an_over_read in a child process"]
fn over_read_one_byte() {
    let Some(which) = std::env::var_os("VUTF8_GUARD_SELF_TEST") else {
        return;
    };
    let mut guarded = Guarded::new();
    // SAFETY: none: these read outside the input on purpose, to show that it faults.
    let byte = if which == "before" {
        let input = guarded.at_start(b"abc");
        unsafe { std::ptr::read_volatile(input.as_ptr().wrapping_sub(1)) }
    } else {
        let input = guarded.at_end(b"abc");
        unsafe { std::ptr::read_volatile(input.as_ptr().add(input.len())) }
    };
    println!("read {byte} outside the input without a fault");
}

#[test]
fn guard_page_catches_an_over_read() {
    use std::os::unix::process::ExitStatusExt;
    for which in ["after", "before"] {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "over_read_one_byte", "--ignored", "--nocapture"])
            .env("VUTF8_GUARD_SELF_TEST", which)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        // Killed by SIGSEGV, or (under AddressSanitizer, which handles the signal) a SEGV
        // report and a failed exit.
        let faulted = out.status.signal() == Some(libc::SIGSEGV)
            || (!out.status.success() && stderr.contains("SEGV"));
        assert!(
            faulted,
            "reading {which} a guarded input did not fault: {:?}\n{}{stderr}",
            out.status,
            String::from_utf8_lossy(&out.stdout)
        );
    }
}
