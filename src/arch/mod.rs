//! Everything that depends on the target: the backends and how one is chosen.
//!
//! This is the one place where target `cfg`s are spelled out. Each target lists its vector
//! backends **once**, in one `backends!` table, narrowest first:
//!
//! ```text
//! backends! { mod x86;
//!     Sse42:  x86::sse42::Sse42Vector, tuning::OutOfLine128, sse42, portable::count_non_continuation, "sse4.2";
//!     Avx2:   x86::avx2::Avx2Vector,   tuning::Avx2Units256, avx2,  x86::count::count_non_continuation, "avx2";
//!     Avx2:   x86::avx2::Avx2Vector,   tuning::Avx2Units128, avx2units128 sharing avx2, ..., "avx2" if x86::has_128_bit_units;
//!     Avx2:   x86::avx2::Avx2Vector,   tuning::Avx2Zen5,     avx2zen5 sharing avx2, ..., "avx2" if x86::checks_short_inputs_whole;
//!     #[cfg(feature = "avx512")]
//!     Avx512: x86::avx512::Avx512Vector<x86::avx512::Pshufb>, tuning::Avx512, avx512, ..., "avx512f", "avx512bw";
//!     #[cfg(feature = "avx512")]
//!     Avx512: x86::avx512::Avx512Vector<x86::avx512::Vpermb>, tuning::Avx512, avx512vbmi, ..., "avx512f", "avx512bw", "avx512vbmi";
//! }
//! ```
//!
//! A row pairs a vector type (what an instruction set can do: [`generic::vector`]) with a
//! schedule (how the CPUs of the row are driven: [`generic::tuning`]).
//! A backend may have more than one row, for CPUs with more of its instruction set
//! (AVX-512 with VBMI), or for some CPUs of it, named by an `if` (AVX2 on 128-bit units
//! and AVX2 on the AMD Zen 5, each with a schedule of its own): the last row this CPU runs
//! and that is for it is the backend's, for [`Backend`] and for the selection alike; the
//! tests run every row the CPU can run (`for_each_vector`,
//! `tests::every_row_agrees_with_std` and `tests::every_row_finds_one_error_in_ascii`). A
//! row with an `if` is chosen only at run time (with `std`): a build without detection
//! never takes it.
//!
//! Each entry names the [`Backend`], its vector type, its schedule, its module (declared by
//! the table, where `entry_points!` defines its raw validator `validate`, an `unsafe fn(&[u8], usize) -> Result<(), usize>`:
//! the generic algorithm inlined into one `#[target_feature]` function, and the same
//! answer as a `bool` in `is_valid` ([`ValidFn`]); its cold `locate`
//! ([`LocateFn`]); its `scan` of a records window for delimiters and errors
//! ([`ScanFn`])), its character counter
//! ([`CountFn`]; the portable one of [`portable`] where the backend has none of its own)
//! and the target features it needs (all of them must be there); `cfg` attributes on an
//! entry leave it out of builds without it. Everything else is written once over that
//! table:
//!
//! - [`is_available`], [`raw`], [`selected`]: can this CPU run a given backend, its raw
//!   validator, and the widest one it can run.
//! - [`validate`], [`is_valid`], [`locate`], [`count_non_continuation`] and [`scan`]: run
//!   the best backend's validator (with the place of an error, or yes or no: a `bool`
//!   lets `crate::is_valid` end in a jump to the backend), its cold search for the
//!   error's place, its counter, or its scan of a records window. When the widest
//!   backend of the table is enabled at compile time (`-C target-cpu=native`, and always
//!   for NEON on aarch64), or there is no run-time detection (no `std`, or a target
//!   without it), the choice is made at compile time and called directly. Otherwise (x86
//!   with `std`) the first call of each detects the CPU and stores the chosen function in
//!   its static pointer; later calls are one load and an indirect call (or jump). All but
//!   the cold `locate` are written once, in one `dispatched!` table.
//! - `for_each_vector` (tests): run a test with every vector type this CPU supports.
//!
//! Adding a backend is one entry in its target's table, plus its vector type, its
//! [`Backend`] variant and, where no existing one fits, its schedule.
//!
//! A raw validator returns `Err(from)` when the input is invalid, and only says yes or no
//! as fast as it can: `from` is where its backend's `locate` (cold, never run on valid
//! input nor by `is_valid`) starts looking. `locate` returns `pos`: everything before the
//! character that contains byte `pos - 1` is valid, and the first error starts at most a
//! few bytes after `pos` (3 for the vector backends; the scalar ones are exact already, and
//! their `locate` returns `from`). The caller ([`crate::engine::exact_error`]) backs up to
//! the start of that character and lets the scalar decoder find the exact error.

use crate::backend::Backend;
use portable::{ErrorBits, Positions, Subparts};

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
pub(crate) mod cpuid;
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

/// The signature of a backend's yes-or-no validator: [`RawValidate`]'s answer without the
/// place, for `is_valid`, whose call then ends in a jump to it.
pub(crate) type ValidFn = unsafe fn(&[u8], usize) -> bool;

/// The signature of a backend's cold search for an error's place: given the input and the
/// `from` of its raw validator's `Err`, a position as the module documentation describes.
pub(crate) type LocateFn = unsafe fn(&[u8], usize) -> usize;

/// The signature of a backend's character counter: the number of bytes of the input that
/// are not continuation bytes (`80..BF`).
pub(crate) type CountFn = unsafe fn(&[u8]) -> usize;

/// The signature of a backend's scan of a records window ([`generic::marks::scan`]): the
/// positions of the bytes of the window `bytes[from..]` that equal a byte, and its error
/// bits; returns how many positions, and which words of bits it wrote.
pub(crate) type ScanFn =
    unsafe fn(&[u8], usize, u8, &mut Positions, &mut ErrorBits) -> (usize, u64);

/// The signature of a backend's search for ill-formed parts ([`generic::subparts::scan`]):
/// given the input, where to start and the carry into it, the parts of up to
/// `SUBPART_BLOCKS` blocks, how many, and the carry out of the last.
pub(crate) type SubpartsFn = unsafe fn(&[u8], usize, u64) -> Subparts;

/// One vector backend of this target: a row of its `backends!` table.
struct Entry {
    backend: Backend,
    /// The raw validator; may only be called where `detect` returns true.
    raw: RawValidate,
    /// The same check, yes or no; may only be called where `detect` returns true.
    valid: ValidFn,
    /// Where its error is, from its `Err(from)` (cold); may only be called where `detect`
    /// returns true.
    locate: LocateFn,
    /// The count of bytes that are not continuation bytes (characters, in valid text); may
    /// only be called where `detect` returns true. The portable one where the backend has
    /// none of its own.
    count: CountFn,
    /// The scan of a records window (the `scan` of its `entry_points!`); may only be called
    /// where `detect` returns true.
    scan: ScanFn,
    /// The search for ill-formed parts (the `subparts` of its `entry_points!`); may only
    /// be called where `detect` returns true.
    subparts: SubpartsFn,
    /// Whether the target feature is enabled at compile time (then `detect` is always true)
    /// and the row is not only for some CPUs (it has no `prefer`).
    compiled: bool,
    /// Whether this CPU has the target feature (cached by `std`'s detection).
    detect: fn() -> bool,
    /// Whether this row is for this CPU, which has its target features: a schedule for
    /// some CPUs of an instruction set (AVX2 on 128-bit units); always true for the others.
    /// Only asked where `detect` said yes, and only with run-time detection: builds without
    /// it never choose a row that has one (nor does a build with the features enabled at
    /// compile time choose it by that). The tests run the row wherever `detect` says yes.
    prefer: fn() -> bool,
    /// The name of the row's module (`avx2`, `avx2units128`...), for
    /// [`Backend::variant`]: which of a backend's rows this CPU runs.
    variant: &'static str,
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

/// A raw validator's result as `is_valid`'s answer (the `$finish` of its entry).
#[allow(dead_code)] // Unused on targets without a vector backend.
#[inline(always)]
fn yes(result: Result<(), usize>) -> bool {
    result.is_ok()
}

/// Defines, inside `entry_points!`, one entry of a backend (`validate` or `is_valid`) and
/// the out-of-line functions of its short and medium paths. The entry sends inputs of
/// `MEDIUM_BELOW` bytes and more to the main loop (`$long`, out of line); the others it
/// checks inline (the schedule's `validate` compiled into it), or, where the vector type's
/// `PATHS_OUT_OF_LINE` says so, jumps to `$small` (one register, the short path),
/// `$unaligned` (AVX2's groups that start where the input does, AVX-512's first groups) or
/// `$medium`, so that the short path does not pay for the registers the medium path saves,
/// nor move with its code (see
/// [`Schedule::PATHS_OUT_OF_LINE`](generic::tuning::Schedule::PATHS_OUT_OF_LINE)). Where
/// `schedule::words_first` says (AVX2 on 256-bit units), inputs under one register go
/// first to `$register` (under 16 bytes, or 16-31 bytes): an ASCII test with no taken
/// jump to the answer, and for the others a jump on to `$small`. `$finish` turns the
/// schedule's `Result` into the entry's return type.
#[allow(unused_macros)] // Unused on targets without a vector backend.
macro_rules! entry_and_paths {
    ($vector:ty, $schedule:ty, [$($feature:tt),+], $(#[$doc:meta])*
     fn $entry:ident, $register:ident, $small:ident, $unaligned:ident, $medium:ident,
        $long:ident -> $ret:ty
        = $finish:path) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// The CPU supports this backend's target features.
        $(#[target_feature(enable = $feature)])+
        pub(crate) unsafe fn $entry(input: &[u8], at: usize) -> $ret {
            use crate::arch::generic::{schedule, tuning::Schedule, vector::Vector};
            let len = input.len();
            if len >= <$schedule as Schedule>::MEDIUM_BELOW {
                // SAFETY: the caller guarantees the target features.
                return unsafe { $long(input, at) };
            }
            if schedule::words_first::<$vector, $schedule>() {
                if len < <<$vector as Vector>::Narrow as Vector>::BYTES {
                    // SAFETY: the caller guarantees the target features; the length as
                    // checked.
                    return unsafe { $register::<true>(input) };
                }
                if len < <$vector as Vector>::BYTES {
                    // SAFETY: as above.
                    return unsafe { $register::<false>(input) };
                }
            }
            if !<$schedule as Schedule>::PATHS_OUT_OF_LINE {
                // SAFETY: the caller guarantees the target features, and this function
                // enables them, so the generic code is inlined here and compiled with it.
                return $finish(unsafe { schedule::validate::<$vector, $schedule>(input) });
            }
            // SAFETY: (each path) the caller guarantees the target features; the length as
            // checked.
            unsafe {
                if len < <$schedule as Schedule>::GROUPS_FROM {
                    $small(input)
                } else if len < <$schedule as Schedule>::ALIGNED_FROM {
                    $unaligned(input)
                } else {
                    $medium(input)
                }
            }
        }

        /// Inputs under one register of [`
        #[doc = stringify!($entry)]
        /// `] in a function of their own, where `schedule::words_first` says: `WORDS`,
        /// those under one register of `Vector::Narrow` (16 bytes), tested for ASCII from
        /// `Schedule::SHORT_ASCII_FROM` by two 8-byte reads; otherwise those of one register
        /// of `Vector::Narrow` up to one of this backend (16-31 bytes), by two registers of
        /// `Vector::Narrow`. An input that is ASCII leaves with no taken jump; the others go
        /// on to the short path's function (`$small`, which tests them again: a guess the
        /// branch predictor gets right, since this one just failed). In the short path's
        /// function, where the tests of the lengths put two or three taken jumps before
        /// the answer, mostly-ASCII text of 8-15 bytes cost more than longer inputs
        /// (docs/PERFORMANCE.md#avx2-short-ascii-test).
        ///
        /// # Safety
        /// The CPU supports this backend's target features; with `WORDS`, `input.len()` is
        /// less than `Vector::Narrow::BYTES`; otherwise at least that and less than
        /// `Vector::BYTES`.
        #[inline(never)]
        $(#[target_feature(enable = $feature)])+
        unsafe fn $register<const WORDS: bool>(input: &[u8]) -> $ret {
            // SAFETY: the caller guarantees the target features and the length, which
            // `$small`'s contract asks for too.
            unsafe {
                crate::arch::generic::schedule::ascii_first::<$vector, $schedule, WORDS, _>(
                    input,
                    $finish(Ok(())),
                    |input| $small(input),
                )
            }
        }

        /// One register or the short path of [`
        #[doc = stringify!($entry)]
        /// `] in a function of its own (inputs shorter than `Schedule::GROUPS_FROM`, which is
        /// `SHORT_BELOW` but on AVX2 and AVX-512).
        ///
        /// # Safety
        /// The CPU supports this backend's target features; `input.len() < SHORT_BELOW`.
        #[inline(never)]
        $(#[target_feature(enable = $feature)])+
        unsafe fn $small(input: &[u8]) -> $ret {
            // SAFETY: the caller guarantees the target features and the length.
            $finish(unsafe { crate::arch::generic::schedule::validate_small::<$vector, $schedule>(input) })
        }

        /// The medium path of [`
        #[doc = stringify!($entry)]
        /// `] with no aligned head (AVX2's groups that start where the input does) in a
        /// function of its own (`Schedule::GROUPS_FROM` to `Schedule::ALIGNED_FROM - 1` bytes).
        ///
        /// # Safety
        /// The CPU supports this backend's target features; `Schedule::GROUPS_FROM <=
        /// input.len() < Schedule::ALIGNED_FROM`.
        #[inline(never)]
        $(#[target_feature(enable = $feature)])+
        unsafe fn $unaligned(input: &[u8]) -> $ret {
            // SAFETY: the caller guarantees the target features and the length.
            $finish(unsafe { crate::arch::generic::schedule::validate_unaligned::<$vector, $schedule>(input) })
        }

        /// The medium path of [`
        #[doc = stringify!($entry)]
        /// `] from the first 64-byte boundary in a function of its own
        /// (`Schedule::ALIGNED_FROM` to `MEDIUM_BELOW - 1` bytes).
        ///
        /// # Safety
        /// The CPU supports this backend's target features; `Schedule::ALIGNED_FROM <=
        /// input.len()`.
        #[inline(never)]
        $(#[target_feature(enable = $feature)])+
        unsafe fn $medium(input: &[u8]) -> $ret {
            // SAFETY: the caller guarantees the target features and the length.
            $finish(unsafe { crate::arch::generic::schedule::validate_aligned::<$vector, $schedule>(input) })
        }
    };
}

/// Defines a backend's `#[target_feature]` functions, into which the generic code is
/// inlined and so compiled for that instruction set: `validate`, its raw validator (see
/// the module documentation), with its main loop in `validate_long`, and `is_valid`, the
/// same inlined again for a `bool`; its cold `locate`,
/// kept out of the hot functions; and `scan`, the scan of a records window for its
/// delimiters and errors ([`ScanFn`]). A backend may need several target features
/// (AVX-512: AVX512F and AVX512BW).
///
/// A row whose vector type is another's with a schedule of its own (AVX2 on 128-bit units,
/// on the Zen 5) names that row's module after `sharing`: its own entries and paths are
/// compiled, and the main loop (with the other row's schedule), the scan and the cold
/// `locate` (which read no schedule: `generic::marks`, `schedule::locate`) are the other
/// module's (the same machine code, compiled once).
#[allow(unused_macros)] // Unused on targets without a vector backend.
macro_rules! entry_points {
    ($vector:ty, $schedule:ty, $($feature:tt),+; sharing $shared:path) => {
        entry_points!(@entries $vector, $schedule, $($feature),+);
        use $shared::{is_valid_long, validate_long};
        pub(crate) use $shared::{locate, scan, subparts};
    };
    ($vector:ty, $schedule:ty, $($feature:tt),+) => {
        entry_points!(@entries $vector, $schedule, $($feature),+);
        entry_points!(@shared $vector, $schedule, $($feature),+);
    };
    (@entries $vector:ty, $schedule:ty, $($feature:tt),+) => {
        entry_and_paths! { $vector, $schedule, [$($feature),+],
            /// Runs the lookup algorithm with this backend; see
            /// [`schedule::validate`](crate::arch::generic::schedule::validate). An error's
            /// place is left to the cold [`locate`]: `is_valid` never pays for it.
            fn validate, validate_register, validate_small, validate_unaligned, validate_aligned,
                validate_long
                -> Result<(), usize>
                = core::convert::identity
        }

        entry_and_paths! { $vector, $schedule, [$($feature),+],
            /// [`validate`]'s answer without the place of an error (the `valid` column):
            /// `crate::is_valid` jumps here, where a call of `validate` would have to come
            /// back to turn its `Result` into a `bool`.
            fn is_valid, is_valid_register, is_valid_small, is_valid_unaligned, is_valid_aligned,
                is_valid_long -> bool
                = crate::arch::yes
        }
    };
    (@shared $vector:ty, $schedule:ty, $($feature:tt),+) => {
        /// [`validate_long`]'s answer as a `bool`, so that [`is_valid`] can jump to it.
        ///
        /// # Safety
        /// The CPU supports this backend's target features.
        #[inline(never)]
        $(#[target_feature(enable = $feature)])+
        pub(crate) unsafe fn is_valid_long(input: &[u8], at: usize) -> bool {
            // SAFETY: the caller guarantees the target features.
            unsafe { validate_long(input, at) }.is_ok()
        }

        /// The main loop of [`validate`], for inputs of `MEDIUM_BELOW` bytes and more, in a
        /// function of its own so that the paths of shorter inputs keep a small frame: see
        /// [`main_loop::validate_long`](crate::arch::generic::main_loop::validate_long).
        ///
        /// # Safety
        /// The CPU supports this backend's target features.
        #[inline(never)]
        $(#[target_feature(enable = $feature)])+
        pub(crate) unsafe fn validate_long(input: &[u8], at: usize) -> Result<(), usize> {
            // SAFETY: the caller guarantees the target features, and this function enables
            // them.
            unsafe { crate::arch::generic::main_loop::validate_long::<$vector, $schedule>(input, at) }
        }

        /// The scan of a records window, with this backend: see
        /// [`generic::marks::scan`](crate::arch::generic::marks::scan).
        ///
        /// # Safety
        /// The CPU supports this backend's target features.
        $(#[target_feature(enable = $feature)])+
        pub(crate) unsafe fn scan(
            bytes: &[u8],
            from: usize,
            byte: u8,
            positions: &mut crate::arch::portable::Positions,
            words: &mut crate::arch::portable::ErrorBits,
        ) -> (usize, u64) {
            // SAFETY: the caller guarantees the target features, and this function enables
            // them.
            unsafe { crate::arch::generic::marks::scan::<$vector>(bytes, from, byte, positions, words) }
        }

        /// The search for ill-formed parts, with this backend: see
        /// [`generic::subparts::scan`](crate::arch::generic::subparts::scan).
        ///
        /// # Safety
        /// The CPU supports this backend's target features.
        $(#[target_feature(enable = $feature)])+
        pub(crate) unsafe fn subparts(
            bytes: &[u8],
            from: usize,
            carry: u64,
        ) -> crate::arch::portable::Subparts {
            // SAFETY: the caller guarantees the target features, and this function enables
            // them.
            unsafe { crate::arch::generic::subparts::scan::<$vector>(bytes, from, carry) }
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

/// Declares this target's module of vector types, one module of entry points per row
/// (`entry_points!` with the row's vector type and schedule, named as the row's variant),
/// its table of vector backends (`BACKENDS`), and `for_each_vector` for the tests. A row
/// that names another after `sharing` takes that row's main loop, scan and cold `locate`
/// (the same machine code, compiled once). With no entries, the macros above are not used
/// and nothing calls the generic algorithm.
macro_rules! backends {
    (mod $arch:ident; $($(#[$attr:meta])* $backend:ident: $vector:ty, $schedule:ty,
        $module:ident $(sharing $shared:ident)?, $count:path, $($feature:tt),+
        $(if $prefer:path)?;)+) => {
        pub(crate) mod $arch;

        $($(#[$attr])*
        #[doc = concat!("The entry points of the `", stringify!($module), "` row of the table: ")]
        #[doc = concat!("`", stringify!($vector), "` with the schedule `", stringify!($schedule), "`.")]
        pub(crate) mod $module {
            use crate::arch::{$arch, generic::tuning};
            entry_points!($vector, $schedule, $($feature),+ $(; sharing crate::arch::$shared)?);
        })+

        /// This target's vector backends, narrowest first.
        const BACKENDS: &[Entry] = &[$($(#[$attr])* Entry {
            backend: Backend::$backend,
            raw: $module::validate as RawValidate,
            valid: $module::is_valid as ValidFn,
            locate: $module::locate as LocateFn,
            count: $count as CountFn,
            scan: $module::scan as ScanFn,
            subparts: $module::subparts as SubpartsFn,
            compiled: $(cfg!(target_feature = $feature))&&+ $(&& { let _ = $prefer; false })?,
            detect: || $(has!($feature))&&+,
            prefer: || true $(&& RUNTIME_DETECTION && $prefer())?,
            variant: stringify!($module),
        }),+];

        /// Runs `test` with every vector type this CPU supports; returns their names.
        #[cfg(test)]
        pub(crate) fn for_each_vector(test: &mut impl VectorTest) -> std::vec::Vec<&'static str> {
            let mut ran = std::vec::Vec::new();
            $($(#[$attr])* if $(has!($feature))&&+ {
                // SAFETY: the CPU has the features (just checked). (Messages name the
                // module: a backend may have more than one row.)
                unsafe { test.run::<$vector>(stringify!($module)) };
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

// Each row: the backend, its vector type (what the instruction set can do), its schedule
// (how the CPUs of the row are driven: `generic::tuning`), the module of its entry points
// (the row's variant, `Backend::variant`), its character counter, the target features it
// needs, and for a row that is for some CPUs only, the test that says which.
cfg_if::cfg_if! {
    if #[cfg(any(target_arch = "x86", target_arch = "x86_64"))] {
        backends! { mod x86;
            Sse42: x86::sse42::Sse42Vector, tuning::OutOfLine128, sse42, portable::count_non_continuation, "sse4.2";
            Avx2: x86::avx2::Avx2Vector, tuning::Avx2Units256, avx2, x86::count::count_non_continuation, "avx2";
            // AVX2 where it runs on 128-bit units (AMD Zen 1 and Zen+, Hygon Dhyana): a
            // schedule of its own for calls up to 16 KiB, the plain row's main loop.
            Avx2: x86::avx2::Avx2Vector, tuning::Avx2Units128, avx2units128 sharing avx2, x86::count::count_non_continuation, "avx2" if x86::has_128_bit_units;
            // AVX2 on the AMD Zen 5: inputs up to one block checked whole.
            Avx2: x86::avx2::Avx2Vector, tuning::Avx2Zen5, avx2zen5 sharing avx2, x86::count::count_non_continuation, "avx2" if x86::checks_short_inputs_whole;
            // AVX512F implies AVX2, so AVX-512 counts with the AVX2 counter.
            #[cfg(feature = "avx512")]
            Avx512: x86::avx512::Avx512Vector<x86::avx512::Pshufb>, tuning::Avx512, avx512, x86::count::count_non_continuation, "avx512f", "avx512bw";
            // The same backend where the CPU has VBMI too (Ice Lake and later, Zen 4 and
            // later): its nibble lookups are `vpermb`, with no mask.
            #[cfg(feature = "avx512")]
            Avx512: x86::avx512::Avx512Vector<x86::avx512::Vpermb>, tuning::Avx512, avx512vbmi, x86::count::count_non_continuation, "avx512f", "avx512bw", "avx512vbmi";
        }
    } else if #[cfg(all(target_arch = "aarch64", target_feature = "neon"))] {
        backends! { mod aarch64;
            Neon: aarch64::neon::NeonVector, tuning::Inline128, neon, portable::count_non_continuation, "neon";
        }
    } else if #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))] {
        backends! { mod wasm32;
            Simd128: wasm32::simd128::Simd128Vector, tuning::Inline128, simd128, portable::count_non_continuation, "simd128";
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
    row(backend).map(|i| &BACKENDS[i])
}

/// The place in the table of `backend`'s entry, if this CPU can run it: the last row of
/// the backend that this CPU runs and that is for it (AVX-512 has two rows, with VBMI and
/// without; AVX2 two, for 128-bit units and not).
fn row(backend: Backend) -> Option<usize> {
    BACKENDS
        .iter()
        .rposition(|e| e.backend == backend && (e.detect)() && (e.prefer)())
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

/// The name of the code `backend` runs on this CPU ([`Backend::variant`]), if it can run
/// it: the module of its row in the table (`"scalar"` for the scalar decoder).
pub(crate) fn variant(backend: Backend) -> Option<&'static str> {
    if backend == Backend::Scalar {
        return Some("scalar");
    }
    entry(backend).map(|e| e.variant)
}

/// The raw validator of `backend`, if this CPU can run it.
pub(crate) fn raw(backend: Backend) -> Option<RawValidate> {
    if backend == Backend::Scalar {
        return Some(portable::scalar_validate as RawValidate);
    }
    entry(backend).map(|e| e.raw)
}

/// The yes-or-no validator of `backend` (the `valid` column), if this CPU can run it.
pub(crate) fn valid(backend: Backend) -> Option<ValidFn> {
    if backend == Backend::Scalar {
        return Some(portable::scalar_is_valid as ValidFn);
    }
    entry(backend).map(|e| e.valid)
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
        .find(|e| (e.detect)() && (e.prefer)())
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

/// Test text for the scans and what is built on them (`crate::records`): pieces to draw
/// buffers from, and the pseudo-random sequence that draws them.
#[cfg(test)]
pub(crate) mod test_text {
    /// Pieces of text: the first [`VALID`] are valid UTF-8 (the delimiters `\n` and `\r\n`
    /// among them), the others broken sequences, odd bytes and runs of delimiters. (Their
    /// tests need `std`.)
    #[cfg(feature = "std")]
    pub(crate) const PIECES: [&[u8]; 18] = [
        b"ab",
        b"\n",
        b"\xC3\xA9",
        b"\xE2\x82\xAC",
        b"\xF0\x9F\x98\x80",
        b"\r\n",
        b"\xC3",
        b"\xE2\x82",
        b"\xF0\x9F",
        b"\x80",
        b"\xFF",
        b"\xED\xA0\x80",
        b"\xC0\xAF",
        b"\r",
        b"\0",
        b"\n\n",
        b"xyz\n",
        b"a long run of ASCII text between the damaged bytes, to make ASCII groups",
    ];

    /// How many of [`PIECES`] come first and are valid.
    #[cfg(feature = "std")]
    pub(crate) const VALID: usize = 6;

    /// The next number of a deterministic pseudo-random sequence (xorshift64) kept in `x`
    /// (not zero).
    pub(crate) fn next(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }
}

/// Every scan this CPU runs, with its name, for the tests of what is built on them
/// (`crate::records`): the portable one and each runnable backend's.
#[cfg(all(test, feature = "std"))]
pub(crate) fn runnable_scans() -> std::vec::Vec<(&'static str, ScanFn)> {
    let mut scans = std::vec![("portable", portable::scan as ScanFn)];
    scans.extend(
        BACKENDS
            .iter()
            .filter(|e| (e.detect)())
            .map(|e| (e.backend.name(), e.scan)),
    );
    scans
}

/// Every search for ill-formed parts this CPU runs, with its name (the rows' place in the
/// table, since rows share backend names), for the tests: the portable one, the dispatched
/// one and each runnable row's.
#[cfg(all(test, feature = "std"))]
pub(crate) fn runnable_subparts() -> std::vec::Vec<(std::string::String, SubpartsFn)> {
    /// The dispatched search, as a function of the table's type.
    unsafe fn dispatched(b: &[u8], from: usize, carry: u64) -> Subparts {
        subparts(b, from, carry)
    }
    let mut all = std::vec![
        ("portable".into(), portable::subparts as SubpartsFn),
        ("dispatched".into(), dispatched as SubpartsFn),
    ];
    all.extend(
        BACKENDS
            .iter()
            .enumerate()
            .filter(|(_, e)| (e.detect)())
            .map(|(row, e)| (std::format!("{} (row {row})", e.backend.name()), e.subparts)),
    );
    all
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::portable::{ErrorBits, Positions, POSITIONS, WINDOW_WORDS};
    use crate::backend::Backend;
    use crate::tiers::{BLOCK, RECORD_WINDOW};
    use std::vec::Vec;

    /// A scan function of the table's type (a backend's, the portable one, the dispatched
    /// one), with its name.
    type Scanner<'a> = (
        &'a str,
        &'a dyn Fn(&[u8], usize, u8, &mut Positions, &mut ErrorBits) -> (usize, u64),
    );

    /// The table's rows this CPU runs, each with its place in the table, which the tests'
    /// messages name: AVX-512's two rows share a backend name.
    fn runnable_rows() -> impl Iterator<Item = (usize, &'static super::Entry)> {
        super::BACKENDS
            .iter()
            .enumerate()
            .filter(|(_, e)| (e.detect)())
    }

    /// `variant` (`Backend::variant`) names the row `row` chooses, where the backend runs:
    /// the module of the last runnable row of that backend that is for this CPU (on x86,
    /// AVX2's code for 128-bit units exactly where the CPU is one of those), and nothing
    /// where it does not run.
    #[test]
    fn variant_names_the_row_this_cpu_runs() {
        for b in Backend::ALL {
            let expected = if b == Backend::Scalar {
                Some("scalar")
            } else {
                super::BACKENDS
                    .iter()
                    .rev()
                    .find(|e| e.backend == b && (e.detect)() && (e.prefer)())
                    .map(|e| e.variant)
            };
            assert_eq!(super::variant(b), expected, "{b}");
            assert_eq!(super::variant(b).is_some(), super::is_available(b), "{b}");
        }
        assert!(super::variant(super::selected()).is_some());
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if super::is_available(Backend::Avx2) {
            let want = if super::x86::has_128_bit_units() {
                "avx2units128"
            } else if super::x86::checks_short_inputs_whole() {
                "avx2zen5"
            } else {
                "avx2"
            };
            assert_eq!(super::variant(Backend::Avx2), Some(want));
        }
    }

    /// Every scan this CPU runs: each runnable backend's, the portable one, the dispatched.
    fn scanners(f: impl Fn(Scanner<'_>)) {
        f(("portable", &super::portable::scan));
        f(("dispatched", &super::scan));
        for (row, e) in runnable_rows() {
            let name = std::format!("{} (row {row})", e.backend.name());
            // SAFETY: `detect` said this CPU runs the backend.
            f((&name, &|b, from, byte, p, w| unsafe {
                (e.scan)(b, from, byte, p, w)
            }));
        }
    }

    /// The positions a scan found.
    fn positions(scan: Scanner<'_>, bytes: &[u8], from: usize, byte: u8) -> Vec<usize> {
        let mut positions: Positions = [core::mem::MaybeUninit::new(0x5555); POSITIONS];
        let mut words: ErrorBits = [0x5555; WINDOW_WORDS];
        let (count, _) = (scan.1)(bytes, from, byte, &mut positions, &mut words);
        positions[..count]
            .iter()
            // SAFETY: the scan wrote the first `count` positions (and they were initialized
            // before, too).
            .map(|p| usize::from(unsafe { p.assume_init() }))
            .collect()
    }

    /// The delimiter search of every scan against a byte-by-byte model: windows of every
    /// length up to three blocks and around a records window, at every alignment of a
    /// block, at the start of a buffer and after bytes of their own, each byte value a
    /// delimiter.
    #[test]
    fn every_scan_finds_every_delimiter() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let data: Vec<u8> = (0..2 * BLOCK + RECORD_WINDOW + 4 * BLOCK)
            .map(|_| {
                // Mostly a few values (many matches), now and then any byte.
                let b = (super::test_text::next(&mut x) >> 32) as u8;
                if b < 200 {
                    b & 0x8A
                } else {
                    b
                }
            })
            .collect();
        let mut lengths: Vec<usize> = (0..=3 * BLOCK).collect();
        lengths.extend(RECORD_WINDOW - 2..=RECORD_WINDOW + 2);
        let mut searches = 0;
        for &len in &lengths {
            for start in (0..BLOCK).step_by(if len > 3 * BLOCK { 16 } else { 1 }) {
                // The window alone, and after BLOCK + start bytes of the buffer.
                for (bytes, from) in [
                    (&data[start..start + len], 0),
                    (&data[..BLOCK + start + len], BLOCK + start),
                ] {
                    let window = &bytes[from..(from + RECORD_WINDOW).min(bytes.len())];
                    for byte in [
                        0x00,
                        0x0A,
                        0x08,
                        0x82,
                        0x8A,
                        0xFF,
                        window.first().copied().unwrap_or(1),
                    ] {
                        let model: Vec<usize> =
                            (0..window.len()).filter(|&i| window[i] == byte).collect();
                        scanners(|scan| {
                            let got = positions(scan, bytes, from, byte);
                            assert_eq!(
                                got, model,
                                "{}: {len} bytes from {from} (+{start}), {byte:#04X}",
                                scan.0
                            );
                        });
                        searches += 1;
                    }
                }
            }
        }
        assert!(searches > 10_000, "{searches}");
    }

    /// Every row of the table this CPU runs, raw and yes-or-no, says what std says, on text
    /// of every length up to past the short path and the first groups of the medium path,
    /// and around `MASKED_BELOW`, at three starts. The public [`Backend`] reaches only a
    /// backend's widest row (AVX-512 has two, with VBMI and without): this is where a CPU
    /// with VBMI runs the other one's validators, beside the primitive tests.
    #[test]
    fn every_row_agrees_with_std() {
        use super::test_text::{next, PIECES, VALID};
        use crate::tiers::{MASKED_BELOW, SHORT_BELOW};
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let text = |kinds: usize, x: &mut u64| {
            let mut t = Vec::new();
            while t.len() < MASKED_BELOW + 4 * BLOCK {
                t.extend_from_slice(PIECES[(next(x) >> 40) as usize % kinds]);
            }
            t
        };
        // Valid pieces only (cut anywhere, a sequence may be left open at the end), and
        // now and then a broken one.
        let texts = [text(VALID, &mut x), text(PIECES.len(), &mut x)];
        let mut lengths: Vec<usize> = (0..=2 * SHORT_BELOW + BLOCK).collect();
        lengths.extend(MASKED_BELOW - 2..=MASKED_BELOW + 2 * BLOCK);
        let mut checks = 0;
        for (row, e) in runnable_rows() {
            for t in &texts {
                for start in [0, 1, 61] {
                    for &len in &lengths {
                        let input = &t[start..start + len];
                        let want = core::str::from_utf8(input).is_ok();
                        // SAFETY: `detect` said this CPU runs the backend.
                        let (raw, valid) = unsafe { ((e.raw)(input, 0), (e.valid)(input, 0)) };
                        assert_eq!(
                            raw.is_ok(),
                            want,
                            "{} (row {row}): raw, {len} bytes from {start}",
                            e.backend.name()
                        );
                        assert_eq!(
                            valid,
                            want,
                            "{} (row {row}): yes or no, {len} bytes from {start}",
                            e.backend.name()
                        );
                        checks += 1;
                    }
                }
            }
        }
        std::eprintln!("{checks} checks");
    }

    /// Every row of the table this CPU runs finds the one character or error put into ASCII
    /// text at every place that matters to its schedule, at three alignments: every place
    /// of every length up to two blocks and a 256-bit register (the one-register paths,
    /// the short path's ASCII tests from `Schedule::SHORT_ASCII_FROM` on); and, in the rows
    /// the public [`Backend`] does not reach on this CPU (another row of the backend is
    /// chosen), medium lengths from the first of AVX2's groups of `SMALL_GROUP` blocks on
    /// 128-bit units (where they replace the short path) past their last, the places
    /// within 2 bytes of each 32-byte boundary of memory and at the end. Its cold `locate` says where, within 3 bytes.
    /// The rows the public API reaches, `tests/boundary_sweep.rs` sweeps at every length;
    /// a row for some CPUs only (AVX2 on 128-bit units) runs here on every CPU with its
    /// instruction set, and so does the plain row on those CPUs.
    #[test]
    fn every_row_finds_one_error_in_ascii() {
        use crate::tiers::{
            GROUPS_FROM_UNITS_128, MEDIUM_UNALIGNED_BELOW, MEDIUM_UNALIGNED_BELOW_UNITS_128,
            REGISTER_256, SHORT_BELOW, SMALL_GROUPS_BELOW_256,
        };
        // (pattern, valid): a character, a stray continuation byte, a sequence cut short.
        let patterns: [(&[u8], bool); 3] = [
            ("é".as_bytes(), true),
            (b"\x80", false),
            (b"\xE2\x82", false),
        ];
        let short: Vec<usize> = (0..=2 * BLOCK + REGISTER_256).collect();
        let mut medium: Vec<usize> = (GROUPS_FROM_UNITS_128 - 2
            ..SMALL_GROUPS_BELOW_256 + 2 * BLOCK)
            .step_by(131)
            .collect();
        for edge in [
            GROUPS_FROM_UNITS_128,
            SHORT_BELOW,
            MEDIUM_UNALIGNED_BELOW_UNITS_128,
            MEDIUM_UNALIGNED_BELOW,
            SMALL_GROUPS_BELOW_256,
        ] {
            medium.extend(edge - 1..=edge + 1);
        }
        let max = medium.iter().copied().max().unwrap_or(0);
        let mut buffer = std::vec![b'a'; max + 3 * BLOCK];
        // The first 64-byte boundary of the buffer: starts 0, 1 and 61 bytes after it.
        let aligned = buffer.as_ptr().align_offset(BLOCK);
        let (mut checks, mut medium_rows) = (0, 0);
        for (row, e) in runnable_rows() {
            let reached = super::row(e.backend) == Some(row);
            let lengths = if reached {
                short.clone()
            } else {
                medium_rows += 1;
                [&short[..], &medium[..]].concat()
            };
            for start in [0, 1, 61].map(|s| aligned + s) {
                for &len in &lengths {
                    let places: Vec<usize> = (0..len)
                        .filter(|&p| {
                            len <= 2 * BLOCK + REGISTER_256
                                || (start + p + 2) % 32 <= 4
                                || p + 4 >= len
                        })
                        .collect();
                    for &(pattern, valid) in &patterns {
                        for &p in &places {
                            let end = (p + pattern.len()).min(len);
                            buffer[start + p..start + end].copy_from_slice(&pattern[..end - p]);
                            let input = &buffer[start..start + len];
                            let want = valid && end - p == pattern.len();
                            // SAFETY: `detect` said this CPU runs the backend.
                            let (raw, yes) = unsafe { ((e.raw)(input, 0), (e.valid)(input, 0)) };
                            let name = e.backend.name();
                            let what = std::format!(
                                "{name} (row {row}): {len} bytes from {start}, {pattern:02X?} at {p}"
                            );
                            assert_eq!(raw.is_ok(), want, "raw, {what}");
                            assert_eq!(yes, want, "yes or no, {what}");
                            if let Err(from) = raw {
                                // SAFETY: as above.
                                let at = unsafe { (e.locate)(input, from) };
                                assert!(at <= p + 3 && p <= at + 3, "locate said {at}, {what}");
                            }
                            buffer[start + p..start + end].fill(b'a');
                            checks += 1;
                        }
                    }
                }
            }
        }
        // (No rows on a target without a vector backend: nothing to check there.)
        let rows = runnable_rows().count();
        assert!(checks >= 100_000 * rows, "{checks} checks in {rows} rows");
        std::eprintln!("{checks} checks in {rows} rows, medium lengths in {medium_rows}");
    }

    /// The error bits of every scan keep the contract of `generic::marks::scan` on every
    /// record of many buffers of up to three windows, scanned window after window: no bit in
    /// a valid record's bytes and delimiter but at its first two bytes, a bit in every
    /// invalid one's (the last record's too, unless the end of the buffer only cuts it
    /// short); and every word said to have a bit has one.
    #[test]
    fn every_scan_keeps_the_contract_on_every_record() {
        use super::test_text::{next, PIECES, VALID};
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut buffers = 0;
        for round in 0..1500u64 {
            let target = match round % 5 {
                0 => (round % 97) as usize,
                1 => BLOCK + (round % 67) as usize,
                2 => 3 * BLOCK + (round % 131) as usize,
                3 => RECORD_WINDOW - 3 + (round % 7) as usize,
                _ => 2 * RECORD_WINDOW + (round % 301) as usize,
            };
            let mut buffer = Vec::new();
            while buffer.len() < target {
                let x = next(&mut x);
                // Mostly valid pieces, now and then a broken one; sometimes valid only.
                let kinds = match round % 3 {
                    0 => PIECES.len(),
                    _ if x.is_multiple_of(5) => PIECES.len(),
                    _ => VALID,
                };
                buffer.extend_from_slice(PIECES[(x >> 40) as usize % kinds]);
            }
            buffer.truncate(target);
            // Records: cut at each `\n`; the last runs to the end of the buffer.
            let mut records = Vec::new();
            let mut s = 0;
            for (d, &b) in buffer.iter().enumerate() {
                if b == b'\n' {
                    records.push((s, d));
                    s = d + 1;
                }
            }
            let last = s;
            scanners(|scan| {
                let name = scan.0;
                let mut all = Vec::new();
                for from in (0..buffer.len().max(1)).step_by(RECORD_WINDOW) {
                    let mut found: Positions = [core::mem::MaybeUninit::new(0); POSITIONS];
                    let mut words: ErrorBits = [0x5555; WINDOW_WORDS];
                    let (_, with_bits) = (scan.1)(&buffer, from, b'\n', &mut found, &mut words);
                    let len = (buffer.len() - from).min(RECORD_WINDOW);
                    assert_eq!(
                        with_bits >> 1 >> ((len.max(1) - 1) / BLOCK),
                        0,
                        "{name}: a word past the window"
                    );
                    // Only the words it says it wrote are read; each has a bit.
                    for (k, word) in words.iter_mut().enumerate() {
                        if with_bits >> k & 1 == 1 {
                            assert_ne!(
                                *word, 0,
                                "{name}: word {k} of window {from} said to have a bit"
                            );
                        } else {
                            *word = 0;
                        }
                    }
                    let bits: Vec<bool> = (0..len)
                        .map(|i| words[i / BLOCK] >> (i % BLOCK) & 1 == 1)
                        .collect();
                    assert_eq!(
                        bits.iter().filter(|&&b| b).count(),
                        words.iter().map(|w| w.count_ones() as usize).sum::<usize>(),
                        "{name}: a bit past the window's end"
                    );
                    all.extend(bits);
                }
                let bit = |i: usize| all[i];
                for &(s, d) in &records {
                    if core::str::from_utf8(&buffer[s..d]).is_ok() {
                        assert!(
                            !(s + 2..=d).any(bit),
                            "{name}: valid record {s}..{d} has a bit of its own"
                        );
                    } else {
                        assert!(
                            (s..=d).any(bit),
                            "{name}: invalid record {s}..{d} has no bit"
                        );
                    }
                }
                // The last record: without a byte after it, an error in its last bytes may
                // have no bit (the records iterator checks its last character on its own).
                match core::str::from_utf8(&buffer[last..]) {
                    Ok(_) => assert!(
                        !(last + 2..buffer.len()).any(bit),
                        "{name}: valid last record"
                    ),
                    Err(e) => assert!(
                        (last..buffer.len()).any(bit)
                            || e.error_len()
                                .is_none_or(|n| last + e.valid_up_to() + n == buffer.len()),
                        "{name}: invalid last record, {e:?}, with no bit"
                    ),
                }
            });
            buffers += 1;
        }
        assert_eq!(buffers, 1500);
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

    /// [`validate`]'s answer alone, from the backend's own yes-or-no function (the `valid`
    /// column), so that `is_valid` ends in a jump to it.
    fn is_valid(input: &[u8], at: usize) -> bool
        = valid: ValidFn, else portable::fallback_is_valid;

    /// The number of bytes that are not continuation bytes (character counting,
    /// `crate::count`), by the counter of the backend [`validate`] runs (the `count` column
    /// of the table).
    fn count_non_continuation(bytes: &[u8]) -> usize
        = count: CountFn, else portable::count_non_continuation;

    /// The scan of the records window `bytes[from..]` (at most `RECORD_WINDOW` bytes): the
    /// positions of its bytes equal to `byte`, in `positions`, and its error bits in the
    /// words of `words` that have any, by the backend [`validate`] runs (the `scan` column
    /// of the table); returns how many positions, and which words it wrote. See
    /// [`generic::marks::scan`] for what a bit says about a record.
    fn scan(
        bytes: &[u8],
        from: usize,
        byte: u8,
        positions: &mut Positions,
        words: &mut ErrorBits
    ) -> (usize, u64)
        = scan: ScanFn, else portable::scan;

    /// The ill-formed parts of up to `SUBPART_BLOCKS` blocks of `bytes` from `from`, given
    /// the carry into them, by the backend [`validate`] runs (the `subparts` column of the
    /// table), how many blocks, and the carry out. See [`generic::subparts::scan`].
    fn subparts(bytes: &[u8], from: usize, carry: u64) -> Subparts
        = subparts: SubpartsFn, else portable::subparts;
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

/// The searches for ill-formed parts (`generic::subparts::scan`) of every row this CPU
/// runs, the portable one and the dispatched one, against std's invalid parts.
#[cfg(all(test, feature = "std"))]
mod subparts_tests {
    use super::portable::Subparts;
    use super::test_text::PIECES;
    use crate::tiers::{BLOCK, SUBPART_BLOCKS};
    use std::vec::Vec;

    /// Every ill-formed part of `bytes` from `from` (a boundary), window after window of
    /// `search`, as (start, length): each window's parts, the next window from where it
    /// stopped with its carry.
    fn parts(search: super::SubpartsFn, bytes: &[u8], from: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let (mut at, mut carry) = (from, 0);
        while at < bytes.len() {
            // SAFETY: `runnable_subparts` lists only searches this CPU runs.
            let found: Subparts = unsafe { search(bytes, at, carry) };
            let (blocks, c) = (found.blocks, found.carry);
            assert!(blocks > 0 && blocks <= SUBPART_BLOCKS);
            for (k, p) in found.parts[..blocks].iter().enumerate() {
                let mut starts = p.starts;
                while starts != 0 {
                    let i = starts.trailing_zeros();
                    starts &= starts - 1;
                    out.push((at + k * BLOCK + i as usize, p.len_at(i)));
                }
            }
            at += blocks * BLOCK;
            carry = c;
        }
        out
    }

    /// The reference: std's invalid parts, each as long as its bytes (a sequence the end
    /// leaves open is one part).
    fn std_parts(bytes: &[u8], from: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut at = from;
        for chunk in bytes[from..].utf8_chunks() {
            at += chunk.valid().len();
            if !chunk.invalid().is_empty() {
                out.push((at, chunk.invalid().len()));
            }
            at += chunk.invalid().len();
        }
        out
    }

    /// Buffers of pieces of damaged text (every odd byte and broken sequence of the test
    /// text), of every length to past two windows, searched from their start and from
    /// after each character boundary in the first block, by every search: the same parts
    /// as std's.
    #[test]
    fn every_search_finds_std_parts() {
        let searches = super::runnable_subparts();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let window = SUBPART_BLOCKS * BLOCK;
        let mut checked = 0;
        for round in 0..400 {
            let target =
                (super::test_text::next(&mut x) as usize) % (2 * window + 2 * BLOCK) + round % 3;
            let mut bytes = Vec::new();
            while bytes.len() < target {
                let piece = PIECES[(super::test_text::next(&mut x) >> 7) as usize % PIECES.len()];
                bytes.extend_from_slice(piece);
                if super::test_text::next(&mut x).is_multiple_of(7) {
                    bytes.push((super::test_text::next(&mut x) >> 24) as u8);
                }
            }
            let starts: Vec<usize> = (0..bytes.len().min(BLOCK + 3))
                .filter(|&i| {
                    // A boundary: where decoding from the start goes on.
                    core::str::from_utf8(&bytes[..i]).is_ok()
                        || std_parts(&bytes, 0).iter().any(|&(s, n)| s + n == i)
                })
                .collect();
            for &from in &starts {
                let want = std_parts(&bytes, from);
                for (name, search) in &searches {
                    assert_eq!(
                        parts(*search, &bytes, from),
                        want,
                        "{name}: {bytes:02X?} from {from}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// The same at the end of the input and around block edges: every byte value, and
    /// every pair of them, placed at every offset of the last bytes of a block, after ASCII
    /// and after a long run of 2-byte characters.
    #[test]
    fn every_byte_and_pair_at_every_place_near_block_edges() {
        let searches = super::runnable_subparts();
        let fills: [&[u8]; 2] = [b"a", "\u{e9}".as_bytes()];
        for fill in fills {
            for len in [
                BLOCK - 4,
                BLOCK - 1,
                BLOCK,
                BLOCK + 2,
                2 * BLOCK - 2,
                SUBPART_BLOCKS * BLOCK + 1,
            ] {
                for place in len.saturating_sub(6)..len {
                    for b0 in 0x70..=0xFFu16 {
                        for b1 in [
                            0x00u16, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC3, 0xE2, 0xF0,
                        ] {
                            let mut bytes: Vec<u8> =
                                fill.iter().copied().cycle().take(len).collect();
                            // The fill cut back to a boundary before the place.
                            let mut p = place;
                            while p > 0 && bytes[p] & 0xC0 == 0x80 {
                                p -= 1;
                            }
                            bytes[p] = b0 as u8;
                            if p + 1 < len {
                                bytes[p + 1] = b1 as u8;
                            }
                            let want = std_parts(&bytes, 0);
                            for (name, search) in &searches {
                                assert_eq!(
                                    parts(*search, &bytes, 0),
                                    want,
                                    "{name}: {len} {p} {b0:02X} {b1:02X}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
