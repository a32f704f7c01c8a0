//! Everything that depends on the target: the backends and how one is chosen.
//!
//! This is the one place where target `cfg`s are spelled out. Each target lists its vector
//! backends **once**, in one `backends!` table, narrowest first:
//!
//! ```text
//! backends! { mod x86;
//!     Sse42:  x86::sse42::Sse42Vector,   x86::sse42,  portable::count_non_continuation,  "sse4.2";
//!     Avx2:   x86::avx2::Avx2Vector,     x86::avx2,   x86::count::count_non_continuation, "avx2";
//!     #[cfg(feature = "avx512")]
//!     Avx512: x86::avx512::Avx512Vector, x86::avx512, x86::count::count_non_continuation, "avx512f", "avx512bw";
//! }
//! ```
//!
//! Each entry names the [`Backend`], its vector type, its module (whose `entry_points!`
//! defines its raw validator `validate`, an `unsafe fn(&[u8], usize) -> Result<(), usize>`:
//! the generic algorithm inlined into one `#[target_feature]` function; its cold `locate`
//! ([`LocateFn`]); its delimiter search `marks` ([`MarksFn`]) and the error bits of a
//! stretch of records, `flags` ([`FlagsFn`])), its character counter
//! ([`CountFn`]; the portable one of [`portable`] where the backend has none of its own)
//! and the target features it needs (all of them must be there); `cfg` attributes on an
//! entry leave it out of builds without it. Everything else is written once over that
//! table:
//!
//! - [`is_available`], [`raw`], [`selected`]: can this CPU run a given backend, its raw
//!   validator, and the widest one it can run.
//! - [`validate`], [`locate`], [`count_non_continuation`], [`marks`] and [`flags`]: run
//!   the best backend's validator, its cold search for the error's place, its counter,
//!   its delimiter search or its error bits. When the widest backend of the table is enabled at
//!   compile time (`-C target-cpu=native`, and always for NEON on aarch64), or there is no
//!   run-time detection (no `std`, or a target without it), the choice is made at compile
//!   time and called directly. Otherwise (x86 with `std`) the first call of each detects the
//!   CPU and stores the chosen function in its static pointer; later calls are one load
//!   and an indirect call. All but the cold `locate` are written once, in one `dispatched!` table.
//! - `for_each_vector` (tests): run a test with every vector type this CPU supports.
//!
//! Adding a backend is one entry in its target's table, plus its [`Backend`] variant (AVX-512
//! was added that way: its module, the entry above, the variant).
//!
//! A raw validator returns `Err(from)` when the input is invalid, and only says yes or no
//! as fast as it can: `from` is where its backend's `locate` (cold, never run on valid
//! input nor by `is_valid`) starts looking. `locate` returns `pos`: everything before the
//! character that contains byte `pos - 1` is valid, and the first error starts at most a
//! few bytes after `pos` (3 for the vector backends; the scalar ones are exact already, and
//! their `locate` returns `from`). The caller ([`crate::engine::exact_error`]) backs up to
//! the start of that character and lets the scalar decoder find the exact error.

use crate::backend::Backend;
use portable::Positions;

// The algorithm written once, with its vector trait. Declared here, not inside `backends!`,
// so that tools that walk the module tree (cargo-mutants: scripts/mutants.sh) see it;
// where a target's table is empty (the condition is the negation of the tables' cfgs
// below) nothing calls it.
#[cfg_attr(
    not(any(
        target_arch = "x86",
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon"),
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
    allow(dead_code)
)]
pub(crate) mod generic;
pub(crate) mod portable;
#[cfg(test)]
mod primitive_tests;

/// The signature every backend's raw validator shares; see the module documentation. The
/// second argument, `at`, is where the input starts in the text it belongs to: 0 for a whole
/// input, the offset of a chunk of a stream. Only the schedule uses it (a rule that applies
/// from `DENSE_AFTER` bytes into a text: [`generic::schedule`], "Far into a long input");
/// the result never depends on it.
pub(crate) type RawValidate = unsafe fn(&[u8], usize) -> Result<(), usize>;

/// The signature of a backend's cold search for an error's place: given the input and the
/// `from` of its raw validator's `Err`, a position as the module documentation describes.
pub(crate) type LocateFn = unsafe fn(&[u8], usize) -> usize;

/// The signature of a backend's character counter: the number of bytes of the input that
/// are not continuation bytes (`80..BF`).
pub(crate) type CountFn = unsafe fn(&[u8]) -> usize;

/// The signature of a backend's delimiter search ([`generic::marks`]): the positions of the
/// bytes of a window that equal a byte; returns how many, and whether the window is ASCII.
pub(crate) type MarksFn = unsafe fn(&[u8], u8, &mut Positions) -> (usize, bool);

/// The signature of a backend's error bits of a stretch of records
/// ([`generic::marks::flags`]): a bit per byte in a bit set; returns whether there is any.
pub(crate) type FlagsFn = unsafe fn(&[u8], &mut [u64]) -> bool;

/// One vector backend of this target: a row of its `backends!` table.
struct Entry {
    backend: Backend,
    /// The raw validator; may only be called where `detect` returns true.
    raw: RawValidate,
    /// Where its error is, from its `Err(from)` (cold); may only be called where `detect`
    /// returns true.
    locate: LocateFn,
    /// The count of bytes that are not continuation bytes (characters, in valid text); may
    /// only be called where `detect` returns true. The portable one where the backend has
    /// none of its own.
    count: CountFn,
    /// The delimiter search (the `marks` of its `entry_points!`); may only be called where
    /// `detect` returns true.
    marks: MarksFn,
    /// The error bits of a stretch of records (the `flags` of its `entry_points!`); may only
    /// be called where `detect` returns true.
    flags: FlagsFn,
    /// Whether the target feature is enabled at compile time (then `detect` is always true).
    compiled: bool,
    /// Whether this CPU has the target feature (cached by `std`'s detection).
    detect: fn() -> bool,
}

/// Whether this CPU has target feature `$feature`: true if it is enabled at compile time,
/// else asked at run time where that is possible (x86 with `std`).
#[allow(unused_macros)] // Unused on targets without a vector backend.
macro_rules! has {
    ($feature:tt) => {
        cfg!(target_feature = $feature) || detect_at_run_time!($feature)
    };
}

cfg_if::cfg_if! {
    if #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))] {
        /// Whether the best backend can be chosen at run time.
        const RUNTIME_DETECTION: bool = true;
        macro_rules! detect_at_run_time {
            ($feature:tt) => {
                std::is_x86_feature_detected!($feature)
            };
        }
    } else {
        /// Whether the best backend can be chosen at run time: not on this target or
        /// without `std`.
        const RUNTIME_DETECTION: bool = false;
        #[allow(unused_macros)] // Unused on targets without a vector backend.
        macro_rules! detect_at_run_time {
            ($feature:tt) => {
                false
            };
        }
    }
}

/// Defines a backend's `#[target_feature]` functions, into which the generic code is
/// inlined and so compiled for that instruction set: `validate`, its raw validator (see
/// the module documentation), with its main loop in `validate_long`; its cold `locate`,
/// kept out of the hot functions; `marks`, the search for record delimiters ([`MarksFn`]);
/// and `flags`, the error bits of a stretch of records ([`FlagsFn`]). A backend may need several target features (AVX-512: AVX512F and
/// AVX512BW).
#[allow(unused_macros)] // Unused on targets without a vector backend.
macro_rules! entry_points {
    ($vector:ty, $($feature:tt),+) => {
        /// Runs the lookup algorithm with this backend; see
        /// [`schedule::validate`](crate::arch::generic::schedule::validate). An error's
        /// place is left to the cold [`locate`]: `is_valid` never pays for it.
        ///
        /// # Safety
        /// The CPU supports this backend's target features.
        $(#[target_feature(enable = $feature)])+
        pub(crate) unsafe fn validate(input: &[u8], at: usize) -> Result<(), usize> {
            if input.len() >= <$vector as crate::arch::generic::vector::Vector>::MEDIUM_BELOW {
                // SAFETY: the caller guarantees the target features.
                return unsafe { validate_long(input, at) };
            }
            // SAFETY: the caller guarantees the target features, and this function enables
            // them, so the generic code is inlined here and compiled with it.
            unsafe { crate::arch::generic::schedule::validate::<$vector>(input) }
        }

        /// The main loop of [`validate`], for inputs of `MEDIUM_BELOW` bytes and more, in a
        /// function of its own so that the paths of shorter inputs keep a small frame: see
        /// [`main_loop::validate_long`](crate::arch::generic::main_loop::validate_long).
        ///
        /// # Safety
        /// The CPU supports this backend's target features.
        #[inline(never)]
        $(#[target_feature(enable = $feature)])+
        unsafe fn validate_long(input: &[u8], at: usize) -> Result<(), usize> {
            // SAFETY: the caller guarantees the target features, and this function enables
            // them.
            unsafe { crate::arch::generic::main_loop::validate_long::<$vector>(input, at) }
        }

        /// The positions of the bytes of `window` equal to `byte`, with this backend: see
        /// [`generic::marks`](crate::arch::generic::marks::marks).
        ///
        /// # Safety
        /// The CPU supports this backend's target features.
        $(#[target_feature(enable = $feature)])+
        pub(crate) unsafe fn marks(
            window: &[u8],
            byte: u8,
            positions: &mut crate::arch::portable::Positions,
        ) -> (usize, bool) {
            // SAFETY: the caller guarantees the target features, and this function enables
            // them.
            unsafe { crate::arch::generic::marks::marks::<$vector>(window, byte, positions) }
        }

        /// The error bits of a stretch of records, with this backend: see
        /// [`generic::marks::flags`](crate::arch::generic::marks::flags).
        ///
        /// # Safety
        /// The CPU supports this backend's target features.
        $(#[target_feature(enable = $feature)])+
        pub(crate) unsafe fn flags(region: &[u8], words: &mut [u64]) -> bool {
            // SAFETY: the caller guarantees the target features, and this function enables
            // them.
            unsafe { crate::arch::generic::marks::flags::<$vector>(region, words) }
        }

        /// The cold path after [`validate`]'s `Err(from)`: see
        /// [`schedule::locate`](crate::arch::generic::schedule::locate).
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[cold]
        #[inline(never)]
        $(#[target_feature(enable = $feature)])+
        pub(crate) unsafe fn locate(input: &[u8], from: usize) -> usize {
            // SAFETY: the caller guarantees the target features, and this function enables
            // them.
            unsafe { crate::arch::generic::schedule::locate::<$vector>(input, from) }
        }
    };
}

/// Declares this target's backend modules and its table of vector backends (`BACKENDS`),
/// and `for_each_vector` for the tests. With no entries, the macros above are not used and
/// nothing calls the generic algorithm.
macro_rules! backends {
    (mod $arch:ident; $($(#[$attr:meta])* $backend:ident: $vector:ty, $arch_mod:ident::$module:ident, $count:path, $($feature:tt),+;)+) => {
        pub(crate) mod $arch;

        /// This target's vector backends, narrowest first.
        const BACKENDS: &[Entry] = &[$($(#[$attr])* Entry {
            backend: Backend::$backend,
            raw: $arch_mod::$module::validate as RawValidate,
            locate: $arch_mod::$module::locate as LocateFn,
            count: $count as CountFn,
            marks: $arch_mod::$module::marks as MarksFn,
            flags: $arch_mod::$module::flags as FlagsFn,
            compiled: $(cfg!(target_feature = $feature))&&+,
            detect: || $(has!($feature))&&+,
        }),+];

        /// Runs `test` with every vector type this CPU supports; returns their names.
        #[cfg(test)]
        pub(crate) fn for_each_vector(test: &mut impl VectorTest) -> std::vec::Vec<&'static str> {
            let mut ran = std::vec::Vec::new();
            $($(#[$attr])* if $(has!($feature))&&+ {
                // SAFETY: the CPU has the features (just checked).
                unsafe { test.run::<$vector>(Backend::$backend.name()) };
                ran.push(Backend::$backend.name());
            })+
            ran
        }
    };
    () => {
        // No vector backend: the vector trait, the algorithm and the primitive tests are
        // still compiled (the tests list the same tests on every target, which
        // scripts/test-cross.sh checks); here they run for no vector type.
        /// No vector backend on this target.
        const BACKENDS: &[Entry] = &[];

        /// Runs `test` with every vector type this CPU supports: none on this target.
        #[cfg(test)]
        pub(crate) fn for_each_vector(_test: &mut impl VectorTest) -> std::vec::Vec<&'static str> {
            std::vec::Vec::new()
        }
    };
}

cfg_if::cfg_if! {
    if #[cfg(any(target_arch = "x86", target_arch = "x86_64"))] {
        backends! { mod x86;
            Sse42: x86::sse42::Sse42Vector, x86::sse42, portable::count_non_continuation, "sse4.2";
            Avx2: x86::avx2::Avx2Vector, x86::avx2, x86::count::count_non_continuation, "avx2";
            // AVX512F implies AVX2, so AVX-512 counts with the AVX2 counter.
            #[cfg(feature = "avx512")]
            Avx512: x86::avx512::Avx512Vector, x86::avx512, x86::count::count_non_continuation, "avx512f", "avx512bw";
        }
    } else if #[cfg(all(target_arch = "aarch64", target_feature = "neon"))] {
        backends! { mod aarch64;
            Neon: aarch64::neon::NeonVector, aarch64::neon, portable::count_non_continuation, "neon";
        }
    } else if #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))] {
        backends! { mod wasm32;
            Simd128: wasm32::simd128::Simd128Vector, wasm32::simd128, portable::count_non_continuation, "simd128";
        }
    } else {
        backends! {}
    }
}

/// Runs a test once for every vector type this CPU supports (tests only).
#[cfg(test)]
#[allow(dead_code)] // Never run on a target without a vector backend.
pub(crate) trait VectorTest {
    /// Runs the test with vector type `V`, named `name` in messages.
    ///
    /// # Safety
    /// The CPU supports `V`'s instruction set.
    unsafe fn run<V: generic::vector::Vector>(&mut self, name: &str);
}

/// The table entry of `backend`, if this CPU can run it.
fn entry(backend: Backend) -> Option<&'static Entry> {
    BACKENDS
        .iter()
        .find(|e| e.backend == backend && (e.detect)())
}

/// Whether this build has `backend`'s code (an entry in the table; the scalar decoder
/// always).
pub(crate) fn is_built(backend: Backend) -> bool {
    backend == Backend::Scalar || BACKENDS.iter().any(|e| e.backend == backend)
}

/// Why this build has no code for `backend` (for [`Backend::unavailable_reason`]): on x86,
/// the AVX-512 backend needs the cargo feature `avx512`; any other backend missing here is
/// for another target.
pub(crate) fn not_built_reason(backend: Backend) -> &'static str {
    if backend == Backend::Avx512 && cfg!(any(target_arch = "x86", target_arch = "x86_64")) {
        "not built: it needs the cargo feature avx512"
    } else {
        "not built: it is for another target"
    }
}

/// Whether this CPU can run `backend`.
pub(crate) fn is_available(backend: Backend) -> bool {
    backend == Backend::Scalar || entry(backend).is_some()
}

/// The raw validator of `backend`, if this CPU can run it.
pub(crate) fn raw(backend: Backend) -> Option<RawValidate> {
    if backend == Backend::Scalar {
        return Some(portable::scalar_validate as RawValidate);
    }
    entry(backend).map(|e| e.raw)
}

/// Where the error of `input` is, after `backend`'s raw validator (from [`raw`]) said
/// `Err(from)`: see the module documentation. The scalar validators' positions are exact.
pub(crate) fn locate_with(backend: Backend, input: &[u8], from: usize) -> usize {
    match entry(backend) {
        // SAFETY: `entry` only returns entries whose backend this CPU can run.
        Some(e) => unsafe { (e.locate)(input, from) },
        None => from,
    }
}

/// The backend that [`validate`] uses on this CPU: the widest it can run.
pub(crate) fn selected() -> Backend {
    BACKENDS
        .iter()
        .rev()
        .find(|e| (e.detect)())
        .map_or(Backend::Scalar, |e| e.backend)
}

/// What is chosen at compile time, if the choice can be made then: the widest backend
/// enabled at compile time when no wider one could be detected at run time (it is the
/// widest of the table, or there is no run-time detection); the fallback when nothing is
/// enabled and nothing can be detected. `None`: chosen at run time.
const STATIC_ENTRY: Option<Option<&Entry>> = {
    let mut choice = None;
    let mut i = BACKENDS.len();
    while i > 0 {
        i -= 1;
        if BACKENDS[i].compiled {
            choice = Some(Some(&BACKENDS[i]));
            break;
        }
        if RUNTIME_DETECTION {
            break; // A wider backend than any compiled in may be detected.
        }
    }
    if choice.is_none() && !RUNTIME_DETECTION {
        choice = Some(None);
    }
    choice
};

#[cfg(all(test, feature = "std"))]
mod tests {
    /// The delimiter search of every backend this CPU runs, and the one `marks` dispatches
    /// to, against a byte-by-byte model: windows of every length up to three blocks and
    /// around a records window, at every alignment of a block, each byte value a delimiter.
    #[test]
    fn every_delimiter_search_finds_every_delimiter() {
        use crate::tiers::{BLOCK, RECORD_WINDOW};
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let data: std::vec::Vec<u8> = (0..RECORD_WINDOW + 4 * BLOCK)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Mostly a few values (many matches), now and then any byte.
                let b = (x >> 32) as u8;
                if b < 200 {
                    b & 0x8A
                } else {
                    b
                }
            })
            .collect();
        let mut lengths: std::vec::Vec<usize> = (0..=3 * BLOCK).collect();
        lengths.extend(RECORD_WINDOW - 2..=RECORD_WINDOW);
        let runnable: std::vec::Vec<_> = super::BACKENDS.iter().filter(|e| (e.detect)()).collect();
        let found = |f: &dyn Fn(&mut super::Positions) -> (usize, bool)| {
            let mut positions = [core::mem::MaybeUninit::new(0x5555); super::portable::POSITIONS];
            let (count, ascii) = f(&mut positions);
            let list: std::vec::Vec<usize> = positions[..count]
                .iter()
                // SAFETY: `marks` wrote the first `count` positions (and they were
                // initialized before, too).
                .map(|p| usize::from(unsafe { p.assume_init() }))
                .collect();
            (list, ascii)
        };
        let mut searches = 0;
        for &len in &lengths {
            for start in (0..BLOCK).step_by(if len > 3 * BLOCK { 16 } else { 1 }) {
                let window = &data[start..start + len];
                for byte in [
                    0x00,
                    0x0A,
                    0x08,
                    0x82,
                    0x8A,
                    0xFF,
                    window.first().copied().unwrap_or(1),
                ] {
                    let model: std::vec::Vec<usize> =
                        (0..len).filter(|&i| window[i] == byte).collect();
                    let want = (model, window.is_ascii());
                    let portable = found(&|p| super::portable::marks(window, byte, p));
                    assert_eq!(portable, want, "portable: {len} bytes, {byte:#04X}");
                    for e in &runnable {
                        // SAFETY: `detect` said this CPU runs the backend.
                        let got = found(&|p| unsafe { (e.marks)(window, byte, p) });
                        assert_eq!(
                            got,
                            want,
                            "{}: {len} bytes from {start}, {byte:#04X}",
                            e.backend.name()
                        );
                    }
                    let got = found(&|p| super::marks(window, byte, p));
                    assert_eq!(
                        got, want,
                        "dispatched: {len} bytes from {start}, {byte:#04X}"
                    );
                    searches += 1;
                }
            }
        }
        assert!(searches > 10_000, "{searches}");
        // ASCII windows with one byte that is not, at every place: the answer "ASCII" must
        // see every byte, the tail's too.
        for len in 1..=3 * BLOCK + 5 {
            for at in 0..len {
                let mut window = std::vec![b'a'; len];
                window[at] = 0xC3;
                assert!(!found(&|p| super::portable::marks(&window, b'\n', p)).1);
                for e in &runnable {
                    // SAFETY: `detect` said this CPU runs the backend.
                    let ascii = found(&|p| unsafe { (e.marks)(&window, b'\n', p) }).1;
                    assert!(!ascii, "{}: {len} bytes, C3 at {at}", e.backend.name());
                }
                window[at] = b'b';
                for e in &runnable {
                    // SAFETY: as above.
                    let ascii = found(&|p| unsafe { (e.marks)(&window, b'\n', p) }).1;
                    assert!(ascii, "{}: ASCII", e.backend.name());
                }
            }
        }
    }

    /// The error bits of every backend this CPU runs, and of the portable search, keep the
    /// contract of `generic::marks::flags` on every record of many regions: no bit in a
    /// valid record's bytes and delimiter but at its first two bytes, a bit in every invalid
    /// one's.
    #[test]
    fn every_error_search_keeps_the_contract_on_every_record() {
        use crate::tiers::{BLOCK, RECORD_WINDOW};
        let runnable: std::vec::Vec<_> = super::BACKENDS.iter().filter(|e| (e.detect)()).collect();
        let pieces: [&[u8]; 14] = [
            b"ab",
            b"\n",
            b"\xC3\xA9",
            b"\xE2\x82\xAC",
            b"\xF0\x9F\x98\x80",
            b"\xC3",
            b"\xE2\x82",
            b"\xF0\x9F",
            b"\x80",
            b"\xFF",
            b"\xED\xA0\x80",
            b"\xC0\xAF",
            b"\n\n",
            b"xyz\n",
        ];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut regions = 0;
        for round in 0..3000 {
            let target = match round % 4 {
                0 => (round % 97) as usize,
                1 => BLOCK + (round % 67) as usize,
                2 => 3 * BLOCK + (round % 131) as usize,
                _ => RECORD_WINDOW - (round % 7) as usize,
            };
            let mut region = std::vec::Vec::new();
            while region.len() < target {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Mostly valid pieces, now and then a broken one.
                let i = (x >> 40) as usize % if x.is_multiple_of(5) { 14 } else { 5 };
                region.extend_from_slice(pieces[i]);
            }
            region.truncate(target.min(RECORD_WINDOW));
            // Records: cut at each `\n`; the last runs to the end of the region.
            let mut records = std::vec::Vec::new();
            let mut s = 0;
            for (d, &b) in region.iter().enumerate() {
                if b == b'\n' {
                    records.push((s, d));
                    s = d + 1;
                }
            }
            let last = (s, region.len());
            let check = |name: &str, words: &[u64], any: bool| {
                let bit = |i: usize| words[i / BLOCK] >> (i % BLOCK) & 1 == 1;
                for &(s, d) in &records {
                    let valid = core::str::from_utf8(&region[s..d]).is_ok();
                    let any = (s..=d).any(bit);
                    let own = (s + 2..=d).any(bit);
                    if valid {
                        assert!(!own, "{name}: valid record {s}..{d} has a bit of its own");
                    } else {
                        assert!(any, "{name}: invalid record {s}..{d} has no bit");
                    }
                }
                let bit_anywhere = (0..region.len()).any(bit);
                assert_eq!(any, bit_anywhere, "{name}: whether there is any bit");
                let tail = &region[last.0..];
                if core::str::from_utf8(tail).is_ok() {
                    assert!(!(last.0 + 2..last.1).any(bit), "{name}: valid last record");
                }
            };
            let mut words = [0x5555u64; RECORD_WINDOW / BLOCK + 2];
            let any = super::portable::flags(&region, &mut words);
            check("portable", &words, any);
            for e in &runnable {
                let mut words = [0x5555u64; RECORD_WINDOW / BLOCK + 2];
                // SAFETY: `detect` said this CPU runs the backend.
                let any = unsafe { (e.flags)(&region, &mut words) };
                check(e.backend.name(), &words, any);
            }
            regions += 1;
        }
        assert_eq!(regions, 3000);
    }
}

/// Defines, for columns of the table, the function that runs the chosen backend's entry,
/// chosen as the module documentation says: at compile time where the choice can be made
/// then ([`STATIC_ENTRY`]); else once, on first use, by `run_time_choice!`. A row reads
/// `fn NAME(ARGS) -> RESULT = COLUMN: POINTER TYPE, else FALLBACK;`, the fallback being what
/// runs where there is no vector backend.
macro_rules! dispatched {
    ($($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty
        = $field:ident: $fn_type:ty, else $fallback:path;)+) => {$(
        $(#[$doc])*
        #[inline]
        pub(crate) fn $name($($arg: $ty),*) -> $ret {
            match STATIC_ENTRY {
                // SAFETY: a compiled-in backend's features are enabled for the whole program.
                Some(Some(entry)) => unsafe { (entry.$field)($($arg),*) },
                Some(None) => $fallback($($arg),*),
                None => run_time_choice!(($($arg: $ty),*) -> $ret = $field: $fn_type, else $fallback),
            }
        }
    )+};
}

cfg_if::cfg_if! {
    if #[cfg(feature = "std")] {
        /// The run-time choice of one column (x86 with `std`): a static pointer that starts
        /// at a `detect` function, which finds the widest backend this CPU runs (none: the
        /// fallback), stores that entry's function in its place and runs it. Every column
        /// finds the same backend ([`selected`]).
        macro_rules! run_time_choice {
            (($($arg:ident: $ty:ty),*) -> $ret:ty = $field:ident: $fn_type:ty, else $fallback:path) => {{
                use core::sync::atomic::{AtomicPtr, Ordering};
                /// The chosen function; starts as `detect`, which replaces itself.
                static CHOSEN: AtomicPtr<()> = AtomicPtr::new(detect as *mut ());
                /// First call only: choose, remember, and run.
                unsafe fn detect($($arg: $ty),*) -> $ret {
                    let f = entry(selected()).map_or($fallback as $fn_type, |e| e.$field);
                    CHOSEN.store(f as *mut (), Ordering::Release);
                    // SAFETY: `entry` only returns entries whose backend this CPU can run.
                    unsafe { f($($arg),*) }
                }
                let f = CHOSEN.load(Ordering::Acquire);
                // SAFETY: CHOSEN only ever holds `detect`, the column's function of an entry
                // or the fallback, all of this type, stored as pointers of this type.
                let f = unsafe { core::mem::transmute::<*mut (), $fn_type>(f) };
                // SAFETY: `detect` checks the CPU; the others were checked by it.
                unsafe { f($($arg),*) }
            }};
        }
    } else {
        /// Without `std` every choice is made at compile time ([`STATIC_ENTRY`] is never
        /// `None`): never run.
        macro_rules! run_time_choice {
            (($($arg:ident: $ty:ty),*) -> $ret:ty = $field:ident: $fn_type:ty, else $fallback:path) => {
                $fallback($($arg),*)
            };
        }
    }
}

dispatched! {
    /// Runs the best backend this CPU has (see the module documentation) on `input`, which
    /// starts `at` bytes into its text (see [`RawValidate`]). An `Err` goes to [`locate`].
    fn validate(input: &[u8], at: usize) -> Result<(), usize>
        = raw: RawValidate, else portable::fallback_validate;

    /// The number of bytes that are not continuation bytes (character counting,
    /// `crate::count`), by the counter of the backend [`validate`] runs (the `count` column
    /// of the table).
    fn count_non_continuation(bytes: &[u8]) -> usize
        = count: CountFn, else portable::count_non_continuation;

    /// The positions of the bytes of `window` (at most `RECORD_WINDOW`) equal to `byte`, in
    /// `positions`, with the search of the backend [`validate`] runs (the `marks` column of
    /// the table); returns how many, and whether the window is ASCII.
    fn marks(window: &[u8], byte: u8, positions: &mut Positions) -> (usize, bool)
        = marks: MarksFn, else portable::marks;

    /// The error bits of `region`, a stretch of records, a bit per byte in `words` (at least
    /// `region.len() / 64 + 2` of them), by the backend [`validate`] runs (the `flags` column
    /// of the table); returns whether there is any. See [`generic::marks::flags`] for what a
    /// bit says about a record.
    fn flags(region: &[u8], words: &mut [u64]) -> bool
        = flags: FlagsFn, else portable::flags;
}

/// Where the error of `input` is, after [`validate`] said `Err(from)`: the cold `locate` of
/// the backend it ran (see the module documentation).
#[cold]
pub(crate) fn locate(input: &[u8], from: usize) -> usize {
    match STATIC_ENTRY {
        // SAFETY: a compiled-in backend's features are enabled for the whole program.
        Some(Some(entry)) => unsafe { (entry.locate)(input, from) },
        // The fallback's position is exact.
        Some(None) => from,
        None => locate_with(selected(), input, from),
    }
}
