//! [`Counts`]: what happened to the records of a stream or a buffer, per outcome and per
//! kind of error, for a pipeline's metrics. [`super::repair`], [`super::RecordReader`]
//! (through [`super::Framer`]) and the tokio codec `vutf8-codec` fill one; anything else
//! that reads records can fill its own with the `add_` methods.

use crate::reference::error::ErrorKind;
use core::fmt;
use core::ops::{Add, AddAssign};

/// The kinds of error, in the order of [`Counts::by_kind`]; `index` is each one's place.
const KINDS: [ErrorKind; 7] = [
    ErrorKind::UnexpectedContinuation,
    ErrorKind::InvalidByte,
    ErrorKind::Overlong,
    ErrorKind::Surrogate,
    ErrorKind::TooLarge,
    ErrorKind::TooShort,
    ErrorKind::Incomplete,
];

/// The place of `kind` in [`KINDS`].
const fn index(kind: ErrorKind) -> usize {
    match kind {
        ErrorKind::UnexpectedContinuation => 0,
        ErrorKind::InvalidByte => 1,
        ErrorKind::Overlong => 2,
        ErrorKind::Surrogate => 3,
        ErrorKind::TooLarge => 4,
        ErrorKind::TooShort => 5,
        ErrorKind::Incomplete => 6,
    }
}

/// Counters of records, one meaning each: every record is [`valid`](Counts::valid),
/// [`invalid`](Counts::invalid) (counted by the kind of its first error, the error of
/// [`super::Record::to_str`]) or [`too_long`](Counts::too_long), and
/// [`records`](Counts::records) is their sum. A policy then [`repaired`](Counts::repaired),
/// [`dropped`](Counts::dropped) or [`refused`](Counts::refused) each invalid record (a
/// reader without a policy leaves these at 0); a record over the cap whose first bytes
/// were kept ([`super::Framing::cut_long_records`]) is [`cut`](Counts::cut), and valid or
/// invalid by the bytes kept.
///
/// Counting costs a look at the first error of an invalid record, nothing for a valid one.
///
/// ```
/// # #[cfg(feature = "alloc")] { // `repair` needs `alloc`.
/// use vutf8::records::{lines, repair, Policy};
/// use vutf8::ErrorKind;
/// let log = b"ok\ncaf\xE9\n\xC0\xAF\nna\xC3\xAFve\n";
/// let mut records = repair(lines(log), Policy::Escape);
/// records.by_ref().for_each(drop);
/// let counts = records.counts();
/// assert_eq!((counts.records(), counts.valid(), counts.invalid()), (4, 2, 2));
/// assert_eq!(counts.repaired(), 2);
/// assert_eq!(counts.invalid_of(ErrorKind::Incomplete), 1); // `\xE9` at the end
/// assert_eq!(counts.invalid_of(ErrorKind::Overlong), 1);
/// # }
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    valid: u64,
    too_long: u64,
    repaired: u64,
    dropped: u64,
    refused: u64,
    cut: u64,
    /// The invalid records by the kind of their first error, in the order of [`KINDS`].
    invalid: [u64; KINDS.len()],
}

impl Counts {
    /// All counters at 0.
    pub const fn new() -> Counts {
        Counts {
            valid: 0,
            too_long: 0,
            repaired: 0,
            dropped: 0,
            refused: 0,
            cut: 0,
            invalid: [0; KINDS.len()],
        }
    }

    /// Every record: valid, invalid or too long.
    pub fn records(&self) -> u64 {
        self.valid
            .saturating_add(self.invalid())
            .saturating_add(self.too_long)
    }

    /// The records that were valid UTF-8 (a cut record by the bytes kept).
    pub fn valid(&self) -> u64 {
        self.valid
    }

    /// The records that were not valid UTF-8 (a cut record by the bytes kept): the sum of
    /// [`Counts::by_kind`].
    pub fn invalid(&self) -> u64 {
        self.invalid.iter().fold(0, |sum, &n| sum.saturating_add(n))
    }

    /// The invalid records whose first error is of `kind`.
    pub fn invalid_of(&self, kind: ErrorKind) -> u64 {
        self.invalid[index(kind)]
    }

    /// The invalid records by the kind of their first error, every kind in the order of
    /// [`ErrorKind`]'s declaration (kinds with 0 included).
    pub fn by_kind(&self) -> impl Iterator<Item = (ErrorKind, u64)> + '_ {
        KINDS.iter().map(|&kind| (kind, self.invalid_of(kind)))
    }

    /// The records longer than the cap, reported and skipped (not those cut).
    pub fn too_long(&self) -> u64 {
        self.too_long
    }

    /// The invalid records a policy turned into text (`Replace`, `Escape`, `Windows1252`,
    /// `Utf8OrWindows1252`).
    pub fn repaired(&self) -> u64 {
        self.repaired
    }

    /// The invalid records a policy left out (`Drop`).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The invalid records a policy refused (`Strict`).
    pub fn refused(&self) -> u64 {
        self.refused
    }

    /// The records longer than the cap whose first bytes were kept
    /// ([`super::Framing::cut_long_records`]).
    pub fn cut(&self) -> u64 {
        self.cut
    }

    // The `add_` methods count one record each: a count cannot reach 2^64 (that many
    // records do not pass in centuries), so a plain wrapping add, one instruction on the
    // path of every valid record, and no panic either way.

    /// Counts a valid record.
    pub fn add_valid(&mut self) {
        self.valid = self.valid.wrapping_add(1);
    }

    /// Counts an invalid record whose first error is of `kind`.
    pub fn add_invalid(&mut self, kind: ErrorKind) {
        let n = &mut self.invalid[index(kind)];
        *n = n.wrapping_add(1);
    }

    /// Counts a record longer than the cap, skipped.
    pub fn add_too_long(&mut self) {
        self.too_long = self.too_long.wrapping_add(1);
    }

    /// Counts an invalid record that a policy repaired.
    pub fn add_repaired(&mut self) {
        self.repaired = self.repaired.wrapping_add(1);
    }

    /// Counts an invalid record that a policy left out.
    pub fn add_dropped(&mut self) {
        self.dropped = self.dropped.wrapping_add(1);
    }

    /// Counts an invalid record that a policy refused.
    pub fn add_refused(&mut self) {
        self.refused = self.refused.wrapping_add(1);
    }

    /// Counts a record cut to the cap (counted as valid or invalid too, by the bytes kept).
    pub fn add_cut(&mut self) {
        self.cut = self.cut.wrapping_add(1);
    }
}

/// Every counter by its name, and the invalid records by kind (`InvalidByte: 3`).
impl fmt::Debug for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// The counts by kind, as a map.
        struct ByKind<'a>(&'a Counts);
        impl fmt::Debug for ByKind<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_map().entries(self.0.by_kind()).finish()
            }
        }
        f.debug_struct("Counts")
            .field("records", &self.records())
            .field("valid", &self.valid)
            .field("invalid", &self.invalid())
            .field("too_long", &self.too_long)
            .field("repaired", &self.repaired)
            .field("dropped", &self.dropped)
            .field("refused", &self.refused)
            .field("cut", &self.cut)
            .field("by_kind", &ByKind(self))
            .finish()
    }
}

/// The counts of two streams together (each counter the sum, at most `u64::MAX`).
impl Add for Counts {
    type Output = Counts;

    fn add(mut self, other: Counts) -> Counts {
        self += other;
        self
    }
}

impl AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        let sum = |a: &mut u64, b: u64| *a = a.saturating_add(b);
        sum(&mut self.valid, other.valid);
        sum(&mut self.too_long, other.too_long);
        sum(&mut self.repaired, other.repaired);
        sum(&mut self.dropped, other.dropped);
        sum(&mut self.refused, other.refused);
        sum(&mut self.cut, other.cut);
        for (a, &b) in self.invalid.iter_mut().zip(&other.invalid) {
            sum(a, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_own_place() {
        for (i, &kind) in KINDS.iter().enumerate() {
            assert_eq!(index(kind), i, "{kind:?}");
        }
    }

    #[test]
    fn counters_add_up_and_saturate() {
        let mut a = Counts::new();
        a.add_valid();
        a.add_invalid(ErrorKind::Surrogate);
        a.add_invalid(ErrorKind::Surrogate);
        a.add_too_long();
        a.add_repaired();
        a.add_dropped();
        a.add_cut();
        let mut b = Counts::new();
        b.add_invalid(ErrorKind::Incomplete);
        b.add_refused();
        let sum = a + b;
        assert_eq!(
            (sum.records(), sum.valid(), sum.invalid(), sum.too_long()),
            (5, 1, 3, 1)
        );
        assert_eq!(
            (sum.repaired(), sum.dropped(), sum.refused(), sum.cut()),
            (1, 1, 1, 1)
        );
        let kinds: Vec<u64> = sum.by_kind().map(|(_, n)| n).collect();
        assert_eq!(kinds, [0, 0, 0, 2, 0, 0, 1]);
        let debug = format!("{sum:?}");
        assert!(
            debug.starts_with("Counts { records: 5, valid: 1, invalid: 3, too_long: 1,")
                && debug.contains("Surrogate: 2, TooLarge: 0, TooShort: 0, Incomplete: 1} }"),
            "{debug}"
        );
        let mut full = Counts::new();
        full.valid = u64::MAX;
        full += sum;
        assert_eq!((full.valid(), full.records()), (u64::MAX, u64::MAX));
    }
}
