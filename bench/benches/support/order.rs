//! The order of the contenders in each round of a benchmark: who runs just before whom.
//! Shared by the benchmarks (`support`) and the A/B harness that `scripts/ab-compare.sh`
//! writes out (which includes this file by path), so it depends on nothing.

/// The order in which `n` contenders run in round `round`: the rows of a Williams design
/// (a Latin square balanced for first-order carry-over), so that over `n` rounds (`2n` when
/// `n` is odd) every contender runs first equally often and follows each other contender
/// equally often.
///
/// Who runs just before matters: a validator that follows milliseconds of other work (std
/// on a 10 MB file, or a busy loop that reads no memory) runs its next calls slower,
/// whichever validator it is (docs/PERFORMANCE.md#method-order). A plain rotation keeps the
/// cyclic order, so the contender listed after std would follow it in most rounds.
pub fn balanced_order(n: usize, round: usize) -> Vec<usize> {
    let period = if n.is_multiple_of(2) { n } else { 2 * n };
    let r = round % period.max(1);
    // The first row: 0, 1, n-1, 2, n-2, ...; row r adds r to each entry (mod n); for odd
    // n, rows n..2n are rows 0..n reversed.
    let mut row: Vec<usize> = (0..n)
        .map(|j| match j {
            0 => 0,
            _ if j % 2 == 1 => j.div_ceil(2),
            _ => n - j / 2,
        })
        .map(|x| (x + r) % n)
        .collect();
    if n % 2 == 1 && r >= n {
        row.reverse();
    }
    row
}
