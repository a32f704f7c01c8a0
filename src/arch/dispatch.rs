//! The choice of a backend and the calls through it, written once over the table
//! ([`super::backends`]):
//!
//! - [`is_available`], [`raw`], [`selected`]: can this CPU run a given backend, its raw
//!   validator, and the widest one it can run.
//! - [`validate`], [`is_valid`], [`locate`], [`count_non_continuation`], [`scan`] and
//!   [`subparts`]: run the best backend's validator (with the place of an error, or yes or
//!   no: a `bool` lets `crate::is_valid` end in a jump to the backend), its cold search for
//!   the error's place, its counter, its scan of a records window, or its search for
//!   ill-formed parts. When the widest backend of the table is enabled at compile time
//!   (`-C target-cpu=native`, and always for NEON on aarch64), or there is no run-time
//!   detection (no `std`, or a target without it), the choice is made at compile time and
//!   called directly. Otherwise (x86 with `std`) the first call of each detects the CPU and
//!   stores the chosen function in its static pointer; later calls are one load and an
//!   indirect call (or jump). Each column's function is written by one `dispatched!` row;
//!   the cold `locate` by hand.

use crate::arch::backends::BACKENDS;
use crate::arch::portable::{self, Subparts};
use crate::arch::rows::{Entry, RawValidate, ValidFn, RUNTIME_DETECTION};
use crate::arch::window::{self, ErrorBits, Positions};
// The other columns' types appear only in the run-time choice (with `std`).
#[cfg_attr(not(feature = "std"), allow(unused_imports))]
use crate::arch::rows::{CountFn, ScanFn, SubpartsFn};
use crate::backend::Backend;

/// The table entry of `backend`, if this CPU can run it.
pub(super) fn entry(backend: Backend) -> Option<&'static Entry> {
    row(backend).map(|i| &BACKENDS[i])
}

/// The place in the table of `backend`'s entry, if this CPU can run it: the last row of
/// the backend that this CPU runs and that is for it (AVX-512 has two rows, with VBMI and
/// without; AVX2 two, for 128-bit units and not).
pub(super) fn row(backend: Backend) -> Option<usize> {
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
    /// `crate::engine::count`), by the counter of the backend [`validate`] runs (the `count` column
    /// of the table).
    fn count_non_continuation(bytes: &[u8]) -> usize
        = count: CountFn, else portable::count_non_continuation;

    /// The scan of the records window `bytes[from..]` (at most `RECORD_WINDOW` bytes): the
    /// positions of its bytes equal to `byte`, in `positions`, and its error bits in the
    /// words of `words` that have any, by the backend [`validate`] runs (the `scan` column
    /// of the table); returns how many positions, and which words it wrote. See
    /// [`crate::arch::generic::delimiters::scan`] for what a bit says about a record.
    fn scan(
        bytes: &[u8],
        from: usize,
        byte: u8,
        positions: &mut Positions,
        words: &mut ErrorBits
    ) -> (usize, u64)
        = scan: ScanFn, else window::scan;

    /// The ill-formed parts of up to `SUBPART_BLOCKS` blocks of `bytes` from `from`, given
    /// the carry into them, by the backend [`validate`] runs (the `subparts` column of the
    /// table), how many blocks, and the carry out. See [`crate::arch::generic::subparts::scan`].
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

/// Every scan this CPU runs, with its name, for the tests of what is built on them
/// (`crate::records`): the portable one and each runnable backend's.
#[cfg(all(test, feature = "std"))]
pub(crate) fn runnable_scans() -> std::vec::Vec<(&'static str, ScanFn)> {
    let mut scans = std::vec![("portable", window::scan as ScanFn)];
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
