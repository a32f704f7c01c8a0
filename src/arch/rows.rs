//! One row of the table of backends ([`super::backends`]): what a row holds ([`Entry`] and
//! the signatures of its columns), and the macros that write rows, once for every target:
//! `entry_points!` (with `entry_and_paths!`) writes the `#[target_feature]` functions of a
//! row from its vector type and its schedule, `backends!` a target's table and each row's
//! module of those functions. The choice among the rows is [`super::dispatch`]'s.
//!
//! A raw validator returns `Err(from)` when the input is invalid, and only says yes or no
//! as fast as it can: `from` is where its backend's `locate` (cold, never run on valid
//! input nor by `is_valid`) starts looking. `locate` returns `pos`: everything before the
//! character that contains byte `pos - 1` is valid, and the first error starts at most a
//! few bytes after `pos` (3 for the vector backends; the scalar ones are exact already, and
//! their `locate` returns `from`). The caller ([`crate::engine::exact_error`]) backs up to
//! the start of that character and lets the scalar decoder find the exact error.

use crate::arch::portable::Subparts;
use crate::arch::window::{ErrorBits, Positions};
use crate::backend::Backend;

/// The signature every backend's raw validator shares; see the module documentation. The
/// second argument, `at`, is where the input starts in the text it belongs to: 0 for a whole
/// input, the offset of a chunk of a stream. Only the schedule uses it (a rule that applies
/// from `DENSE_AFTER` bytes into a text: [`generic::schedule`](crate::arch::generic::schedule), "Far into a long input");
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

/// The signature of a backend's scan of a records window ([`generic::delimiters::scan`](crate::arch::generic::delimiters::scan)): the
/// positions of the bytes of the window `bytes[from..]` that equal a byte, and its error
/// bits; returns how many positions, and which words of bits it wrote.
pub(crate) type ScanFn =
    unsafe fn(&[u8], usize, u8, &mut Positions, &mut ErrorBits) -> (usize, u64);

/// The signature of a backend's search for ill-formed parts ([`generic::subparts::scan`](crate::arch::generic::subparts::scan)):
/// given the input, where to start and the carry into it, the parts of up to
/// `SUBPART_BLOCKS` blocks, how many, and the carry out of the last.
pub(crate) type SubpartsFn = unsafe fn(&[u8], usize, u64) -> Subparts;

/// One vector backend of this target: a row of its `backends!` table.
pub(super) struct Entry {
    pub(super) backend: Backend,
    /// The raw validator; may only be called where `detect` returns true.
    pub(super) raw: RawValidate,
    /// The same check, yes or no; may only be called where `detect` returns true.
    pub(super) valid: ValidFn,
    /// Where its error is, from its `Err(from)` (cold); may only be called where `detect`
    /// returns true.
    pub(super) locate: LocateFn,
    /// The count of bytes that are not continuation bytes (characters, in valid text); may
    /// only be called where `detect` returns true. The portable one where the backend has
    /// none of its own.
    pub(super) count: CountFn,
    /// The scan of a records window (the `scan` of its `entry_points!`); may only be called
    /// where `detect` returns true.
    pub(super) scan: ScanFn,
    /// The search for ill-formed parts (the `subparts` of its `entry_points!`); may only
    /// be called where `detect` returns true.
    pub(super) subparts: SubpartsFn,
    /// Whether the target feature is enabled at compile time (then `detect` is always true)
    /// and the row is not only for some CPUs (it has no `prefer`).
    pub(super) compiled: bool,
    /// Whether this CPU has the target feature (cached by `std`'s detection).
    pub(super) detect: fn() -> bool,
    /// Whether this row is for this CPU, which has its target features: a schedule for
    /// some CPUs of an instruction set (AVX2 on 128-bit units); always true for the others.
    /// Only asked where `detect` said yes, and only with run-time detection: builds without
    /// it never choose a row that has one (nor does a build with the features enabled at
    /// compile time choose it by that). The tests run the row wherever `detect` says yes.
    pub(super) prefer: fn() -> bool,
    /// The name of the row's module (`avx2`, `avx2units128`...), for
    /// [`Backend::variant`]: which of a backend's rows this CPU runs.
    pub(super) variant: &'static str,
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
        pub(super) const RUNTIME_DETECTION: bool = true;
        macro_rules! detect_at_run_time {
            ($feature:tt) => {
                std::is_x86_feature_detected!($feature)
            };
        }
    } else {
        /// Whether the best backend can be chosen at run time: not on this target or
        /// without `std`.
        pub(super) const RUNTIME_DETECTION: bool = false;
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
pub(super) fn yes(result: Result<(), usize>) -> bool {
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
/// [`Schedule::PATHS_OUT_OF_LINE`](crate::arch::generic::tuning::Schedule::PATHS_OUT_OF_LINE)). Where
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
                return $finish(unsafe { schedule::validate::<$vector, $schedule>(input, at) });
            }
            // SAFETY: (each path) the caller guarantees the target features; the length as
            // checked.
            unsafe {
                if len < <$schedule as Schedule>::GROUPS_FROM {
                    $small(input)
                } else if len < <$schedule as Schedule>::ALIGNED_FROM {
                    $unaligned(input)
                } else {
                    $medium(input, at)
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
        /// (`Schedule::ALIGNED_FROM` to `MEDIUM_BELOW - 1` bytes), for an input `at` bytes
        /// into its text.
        ///
        /// # Safety
        /// The CPU supports this backend's target features; `Schedule::ALIGNED_FROM <=
        /// input.len()`.
        #[inline(never)]
        $(#[target_feature(enable = $feature)])+
        unsafe fn $medium(input: &[u8], at: usize) -> $ret {
            // SAFETY: the caller guarantees the target features and the length.
            $finish(unsafe { crate::arch::generic::schedule::validate_aligned::<$vector, $schedule>(input, at) })
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
/// `locate` (which read no schedule: `generic::delimiters`, `locate::locate`) are the other
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
                = crate::arch::rows::yes
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
        /// [`generic::delimiters::scan`](crate::arch::generic::delimiters::scan).
        ///
        /// # Safety
        /// The CPU supports this backend's target features.
        $(#[target_feature(enable = $feature)])+
        pub(crate) unsafe fn scan(
            bytes: &[u8],
            from: usize,
            byte: u8,
            positions: &mut crate::arch::window::Positions,
            words: &mut crate::arch::window::ErrorBits,
        ) -> (usize, u64) {
            // SAFETY: the caller guarantees the target features, and this function enables
            // them.
            unsafe { crate::arch::generic::delimiters::scan::<$vector>(bytes, from, byte, positions, words) }
        }

        /// The search for ill-formed parts, with this backend: see
        /// [`generic::subparts::scan`](crate::arch::generic::subparts::scan)(crate::arch::generic::subparts::scan).
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
        /// [`locate::locate`](crate::arch::generic::locate::locate).
        ///
        /// # Safety
        /// The CPU supports this backend's target feature.
        #[cold]
        #[inline(never)]
        $(#[target_feature(enable = $feature)])+
        pub(crate) unsafe fn locate(input: &[u8], from: usize) -> usize {
            // SAFETY: the caller guarantees the target features, and this function enables
            // them.
            unsafe { crate::arch::generic::locate::locate::<$vector>(input, from) }
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
    ($($(#[$attr:meta])* $backend:ident: $vector:ty, $schedule:ty,
        $module:ident $(sharing $shared:ident)?, $count:path, $($feature:tt),+
        $(if $prefer:path)?;)+) => {
        $($(#[$attr])*
        #[doc = concat!("The entry points of the `", stringify!($module), "` row of the table: ")]
        #[doc = concat!("`", stringify!($vector), "` with the schedule `", stringify!($schedule), "`.")]
        pub(crate) mod $module {
            use super::*;
            entry_points!($vector, $schedule, $($feature),+ $(; sharing crate::arch::backends::$shared)?);
        })+

        /// This target's vector backends, narrowest first.
        pub(crate) const BACKENDS: &[crate::arch::rows::Entry] = &[$($(#[$attr])* crate::arch::rows::Entry {
            backend: crate::backend::Backend::$backend,
            raw: $module::validate as crate::arch::rows::RawValidate,
            valid: $module::is_valid as crate::arch::rows::ValidFn,
            locate: $module::locate as crate::arch::rows::LocateFn,
            count: $count as crate::arch::rows::CountFn,
            scan: $module::scan as crate::arch::rows::ScanFn,
            subparts: $module::subparts as crate::arch::rows::SubpartsFn,
            compiled: $(cfg!(target_feature = $feature))&&+ $(&& { let _ = $prefer; false })?,
            detect: || $(has!($feature))&&+,
            prefer: || true $(&& crate::arch::rows::RUNTIME_DETECTION && $prefer())?,
            variant: stringify!($module),
        }),+];

        /// Runs `test` with every vector type this CPU supports; returns their names.
        #[cfg(test)]
        pub(crate) fn for_each_vector(
            test: &mut impl crate::arch::rows::VectorTest,
        ) -> std::vec::Vec<&'static str> {
            let mut ran = std::vec::Vec::new();
            $($(#[$attr])* if $(has!($feature))&&+ {
                // SAFETY: the CPU has the features (just checked). (Messages name the
                // module: a backend may have more than one row.)
                unsafe { test.run::<$vector>(stringify!($module)) };
                ran.push(crate::backend::Backend::$backend.name());
            })+
            ran
        }
    };
    () => {
        // No vector backend: the vector trait, the algorithm and the primitive tests are
        // still compiled (the tests list the same tests on every target, which
        // scripts/test-cross.sh checks); here they run for no vector type.
        /// No vector backend on this target.
        pub(crate) const BACKENDS: &[crate::arch::rows::Entry] = &[];

        /// Runs `test` with every vector type this CPU supports: none on this target.
        #[cfg(test)]
        pub(crate) fn for_each_vector(
            _test: &mut impl crate::arch::rows::VectorTest,
        ) -> std::vec::Vec<&'static str> {
            std::vec::Vec::new()
        }
    };
}

/// Runs a test once for every vector type this CPU supports (tests only).
#[cfg(test)]
#[allow(dead_code)] // Never run on a target without a vector backend.
pub(crate) trait VectorTest {
    /// Runs the test with vector type `V`, named `name` in messages.
    ///
    /// # Safety
    /// The CPU supports `V`'s instruction set.
    unsafe fn run<V: crate::arch::generic::vector::Vector>(&mut self, name: &str);
}
