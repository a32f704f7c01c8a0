//! The per-call sweep: `cargo bench -p vutf8-bench --bench sweep`.
//!
//! What one call costs at **every** size from 1 to 4,160 bytes, so that a cliff between two
//! sizes shows (a table of a dozen sizes hides them). A timing loop, not criterion, so that
//! the 4,160 sizes of every kind of text run in minutes.
//!
//! For each kind of text, size and round, a fresh set of **different messages** of exactly
//! that size is cut from a real file of the corpus (`scripts/real-corpus.sh`) at random
//! character boundaries, each placed at a random address modulo 64 in one arena of about
//! `ARENA` bytes, made just before each contender's pass (so it sits in the L2 cache, as a
//! message just received does). vutf8's `is_valid` and the peers it is compared with
//! validate the same messages ([`seed`]: common random numbers). A contender validates
//! every message once; the time of the pass divided by the messages is one sample, the
//! contenders of a round run in the order of a balanced design (`support::balanced_order`),
//! each round takes the sizes in a shuffled order of its own ([`shuffled`]), and the table
//! gives the median of the rounds. No code validates a message twice, so no
//! branch predictor learns it (one prefix validated again and again is learnt, and flatters
//! whatever branches most); with `--learnt` each kind is swept a second time that way, one
//! message per size and round validated again and again (a pass not timed first), as the
//! benchmarks others publish time it, its summary and CSV rows marked `learnt`
//! (docs/PERFORMANCE.md#method-unseen). The kinds with `invalid` in their name have one byte of each
//! message replaced (`0xFF` or a stray continuation byte, at a random place): every
//! contender must say no.
//!
//! Output: a Markdown summary per kind (ns per call at a few sizes, then vutf8 ÷ the fastest
//! peer over 64 B - 4 KiB: geometric mean, worst size, sizes below 1.0; against std below
//! 64 B — each ratio the median over the rounds of the ratio within a round, where both
//! saw the same messages; and the cliffs: sizes from 8 B on that cost more than 15 % above some larger size;
//! and `from_utf8` ÷ `is_valid`, both as the table's columns time them (through a function
//! pointer) and as a caller's code calls them, each inlined into a loop of its own
//! ([`pass`]: timed, not plotted),
//! every sample as CSV (`target/sweep/<build>.csv`) and a plot of ns per call against size
//! (`docs/sweep-<build>.svg`), one panel per kind. `<build>` is `avx512` for the default
//! build, `avx2` for a build without vutf8's `avx512` feature (`--no-default-features`: the
//! path an AVX2-only CPU takes), or the forced backend's name.
//!
//! Options (after `--`): `--rounds N` (default 27: with fewer, the noise of sampling a
//! hundred messages of English HTML, whose cost depends on their few non-ASCII characters,
//! made sizes look like cliffs that were not there with more:
//! docs/PERFORMANCE.md#method-sweep); `--min N`, `--max N`, `--step N` (the sizes: default
//! every size from 1 to 4160); `--kinds fr,zh` (default all: `fr`, `en-html`, `ru`, `zh`,
//! `fr-invalid`); `--backend NAME` (vutf8 through `Backend::is_valid` on that backend instead
//! of the public `is_valid`); `--learnt` (also each kind learnt, above; not plotted);
//! `--no-plot`; `--dir DIR` (the corpus, default
//! `target/real-corpus`); `--csv FILE` (where the samples go, default
//! `target/sweep/<build>.csv`; relative paths from the workspace's root, as for `--dir`). On
//! a machine of many cores, `scripts/sweep-cores.sh` runs one process per kind and build at
//! once, and `scripts/sweep-median.py` reads several runs' CSVs.

mod support;

use plotters::prelude::*;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;
use support::{geomean, peers};
use vutf8_corpus::Rng;

/// A validator of the sweep: its name, whether it is vutf8 (the others are the peers), and
/// how it is timed.
struct Contender {
    name: &'static str,
    f: Pointer,
    ours: bool,
    /// `Some` for the two contenders timed with the validator inlined into a loop of their
    /// own ([`pass`]), which are not plotted (their `f` is the same validator, not called).
    inlined: Option<Pass>,
}

/// A timed pass over the messages: ns per call and how many were found valid ([`pass`]).
type Pass = fn(&Messages) -> (f64, usize);

/// The validators, each called as its users call it (vutf8's through its public functions;
/// under `--backend`, [`pass`] calls the forced backend instead).
const CONTENDERS: &[Contender] = &[
    Contender {
        name: "vutf8 is_valid",
        f: vutf8::is_valid,
        ours: true,
        inlined: None,
    },
    Contender {
        name: "vutf8 from_utf8",
        f: |b| vutf8::from_utf8(b).is_ok(),
        ours: true,
        inlined: None,
    },
    Contender {
        name: "vutf8 is_valid inlined",
        f: vutf8::is_valid,
        ours: true,
        inlined: Some(|m| pass(vutf8::is_valid, m)),
    },
    Contender {
        name: "vutf8 from_utf8 inlined",
        f: |b| vutf8::from_utf8(b).is_ok(),
        ours: true,
        inlined: Some(|m| pass(|b| vutf8::from_utf8(b).is_ok(), m)),
    },
    Contender {
        name: "simdutf8 basic",
        f: |b| simdutf8::basic::from_utf8(b).is_ok(),
        ours: false,
        inlined: None,
    },
    Contender {
        name: "simdutf8 compat",
        f: |b| simdutf8::compat::from_utf8(b).is_ok(),
        ours: false,
        inlined: None,
    },
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Contender {
        name: "simdutf",
        f: simdutf::validate_utf8,
        ours: false,
        inlined: None,
    },
    Contender {
        name: "std",
        f: |b| core::str::from_utf8(b).is_ok(),
        ours: false,
        inlined: None,
    },
];

/// The index of `vutf8 is_valid`, `from_utf8`, the two of them inlined (not plotted: they
/// are their lines again) and std in [`CONTENDERS`].
const VUTF8: usize = 0;
const FROM_UTF8: usize = 1;
const IS_VALID_INLINED: usize = 2;
const FROM_UTF8_INLINED: usize = 3;
const STD: usize = CONTENDERS.len() - 1;

/// A kind of text: its name, the corpus file its messages are cut from, and whether each
/// message gets one invalid byte.
struct Kind {
    id: &'static str,
    name: &'static str,
    file: &'static str,
    invalid: bool,
}

const KINDS: &[Kind] = &[
    Kind {
        id: "fr",
        name: "French text",
        file: "text/debian-reference.fr.txt",
        invalid: false,
    },
    Kind {
        id: "en-html",
        name: "English HTML",
        file: "html/debian-reference-ch01.en.html",
        invalid: false,
    },
    Kind {
        id: "ru",
        name: "Russian man pages",
        file: "man/manpages-ru.man",
        invalid: false,
    },
    Kind {
        id: "zh",
        name: "Chinese text",
        file: "text/debian-reference.zh-cn.txt",
        invalid: false,
    },
    Kind {
        id: "fr-invalid",
        name: "French text, invalid",
        file: "text/debian-reference.fr.txt",
        invalid: true,
    },
];

/// The bytes of the messages of one size in one round (fewer for the largest sizes: at
/// least `MIN_MESSAGES` of them).
const ARENA: usize = 256 << 10;
const MIN_MESSAGES: usize = 64;
const MAX_MESSAGES: usize = 4096;

/// The sizes the summary tables show (round sizes, register widths and the sizes around
/// them).
const SHOWN: &[usize] = &[
    1, 7, 8, 15, 16, 31, 32, 48, 63, 64, 65, 100, 128, 160, 192, 256, 320, 448, 511, 512, 513, 640,
    1000, 1024, 1500, 2048, 3000, 4096, 4160,
];

/// A cliff: a size that costs more than this much above some larger size.
const CLIFF: f64 = 1.15;

struct Options {
    rounds: usize,
    min: usize,
    max: usize,
    step: usize,
    kinds: Vec<&'static Kind>,
    plot: bool,
    dir: PathBuf,
    csv: Option<PathBuf>,
    /// Also the same message again and again ([`Way::Learnt`]), after each kind's sweep.
    learnt: bool,
}

/// How a sweep's messages are met: each once (what a program does, and what the sweep
/// judges on), or one message again and again (what the benchmarks others publish time,
/// where the branch predictor has learnt the message).
#[derive(Clone, Copy, PartialEq)]
enum Way {
    /// Every message of a pass is a different one ([`Messages::new`]).
    SeenOnce,
    /// A pass validates one message as many times as [`Way::SeenOnce`] has messages.
    Learnt,
}

fn options() -> Options {
    let mut o = Options {
        rounds: 27,
        min: 1,
        max: 4160,
        step: 1,
        kinds: KINDS.iter().collect(),
        plot: true,
        dir: Path::new(support::WORKSPACE).join("target/real-corpus"),
        csv: None,
        learnt: false,
    };
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, what: &str| -> usize {
        v.and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{what} N"))
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => o.rounds = number(args.next(), "--rounds").max(1),
            "--min" => o.min = number(args.next(), "--min").max(1),
            "--max" => o.max = number(args.next(), "--max"),
            "--step" => o.step = number(args.next(), "--step").max(1),
            "--no-plot" => o.plot = false,
            "--learnt" => o.learnt = true,
            "--dir" => o.dir = Path::new(support::WORKSPACE).join(args.next().expect("--dir DIR")),
            "--csv" => {
                o.csv = Some(Path::new(support::WORKSPACE).join(args.next().expect("--csv FILE")))
            }
            "--kinds" => {
                let names = args.next().expect("--kinds a,b");
                o.kinds = names
                    .split(',')
                    .map(|n| {
                        KINDS
                            .iter()
                            .find(|k| k.id == n.trim())
                            .unwrap_or_else(|| panic!("--kinds: no kind {n:?}"))
                    })
                    .collect();
            }
            "--backend" => {
                let name = args.next().expect("--backend NAME");
                let backend = vutf8::Backend::from_name(&name)
                    .unwrap_or_else(|| panic!("--backend: no backend {name:?}"));
                assert!(backend.is_available(), "--backend: {name} cannot run here");
                peers::force_backend(backend);
            }
            "--bench" => {}
            other => eprintln!("sweep: ignoring argument {other:?}"),
        }
    }
    assert!(o.min <= o.max, "--min must not exceed --max");
    o
}

fn is_boundary(text: &[u8], at: usize) -> bool {
    text.get(at)
        .is_none_or(|&b| !vutf8::grammar::is_continuation(b))
}

/// One message of exactly `size` bytes of `text`, from a random character boundary: a
/// piece that also ends on one where a few tries find it, else the longest piece that
/// does, padded with ASCII spaces (pure CJK text has boundaries only every 3 bytes).
fn message(text: &[u8], size: usize, rng: &mut Rng, out: &mut Vec<u8>) {
    let mut fallback = None;
    for _ in 0..16 {
        let mut start = rng.below(text.len() - size - 4);
        while !is_boundary(text, start) {
            start += 1;
        }
        if is_boundary(text, start + size) {
            out.extend_from_slice(&text[start..start + size]);
            return;
        }
        fallback.get_or_insert(start);
    }
    let start = fallback.expect("16 tries");
    let mut end = start + size;
    while !is_boundary(text, end) {
        end -= 1;
    }
    out.extend_from_slice(&text[start..end]);
    out.resize(out.len() + start + size - end, b' ');
}

/// The messages of one size in one round: an arena, and where each message lies in it.
struct Messages {
    arena: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

impl Messages {
    fn new(text: &[u8], size: usize, invalid: bool, way: Way, rng: &mut Rng) -> Messages {
        let count = (ARENA / size).clamp(MIN_MESSAGES, MAX_MESSAGES);
        // Learnt: the one message made, at as many places in the pass as there would be
        // messages.
        let made = if way == Way::Learnt { 1 } else { count };
        let mut arena = Vec::with_capacity(made * (size + 64) + 64);
        // The arena's own start on a 64-byte boundary, so that the gaps below decide each
        // message's address modulo 64.
        let pad = (64 - arena.as_ptr() as usize % 64) % 64;
        arena.resize(pad, 0);
        let mut spans = Vec::with_capacity(count);
        for _ in 0..made {
            let gap = rng.below(64);
            arena.resize(arena.len() + gap, b' ');
            let start = arena.len();
            message(text, size, rng, &mut arena);
            if invalid {
                let at = start + rng.below(size);
                arena[at] = if rng.next_u64() & 1 == 0 { 0xFF } else { 0x80 };
                // A stray continuation byte right after a lead byte would complete it:
                // make sure the message is invalid.
                if std::str::from_utf8(&arena[start..start + size]).is_ok() {
                    arena[at] = 0xFF;
                }
            }
            spans.push((start, start + size));
        }
        spans.resize(count, spans[0]);
        Messages { arena, spans }
    }
}

/// The seed of the messages contender `i` validates at `size` in round `round`: **common
/// random numbers**. vutf8's `is_valid` and the peers that share no code with it (simdutf8
/// `basic`, simdutf, std) validate the same messages (each its own copy, made just before
/// its pass), so that their ratio at a size is not also the difference between two samples
/// of the text: on English HTML, where the cost of a message depends on its few non-ASCII
/// characters, two samples of a hundred messages differ enough to show as losses and
/// "cliffs" at sizes that are the same in every run, because the seeds are
/// (docs/PERFORMANCE.md#method-sweep).
/// Two contenders that share code (vutf8's two, simdutf8's two) must not see the same
/// messages, or the second would run on branches the first has trained: vutf8's
/// `from_utf8` and simdutf8's `compat` share a seed of their own, and the two inlined
/// contenders have one each. [`Way::Learnt`] is the exception: there every contender
/// trains its branches on its one message in a pass that is not timed, so nothing is left
/// to share, and all validate the same message (with a seed of their own, `compat`'s one
/// message could be lighter text than the one `basic` and vutf8 saw, and was the "fastest
/// peer" by that alone). Every size and round has its own messages, so that no size runs
/// on branches the size before it trained.
fn seed(size: usize, round: usize, i: usize, invalid: bool, way: Way) -> u64 {
    let group: u64 = match CONTENDERS[i].name {
        _ if way == Way::Learnt => 0,
        "vutf8 from_utf8" | "simdutf8 compat" => 1,
        "vutf8 is_valid inlined" => 2,
        "vutf8 from_utf8 inlined" => 3,
        _ => 0,
    };
    (size as u64) << 24 | (round as u64) << 8 | group << 1 | u64::from(invalid)
}

/// A validator called through a function pointer by [`pass`], as every contender of the
/// table and the plot is.
type Pointer = fn(&[u8]) -> bool;

/// Nanoseconds per call of `f` over every message once, and how many it found valid.
///
/// `F` a [`Pointer`]: each call goes through the pointer. `F` a function item or a closure:
/// `f` is inlined into the loop, as a caller's code that calls `is_valid` or `from_utf8`
/// (both `#[inline]`) has them, one call to the backend each. Through a pointer `is_valid`
/// is a jump to the backend and `from_utf8(b).is_ok()` a second call around it (its
/// `Result` is read after the call), which no caller pays (docs/PERFORMANCE.md#method-sweep).
#[inline(never)]
fn pass<F: Fn(&[u8]) -> bool>(f: F, m: &Messages) -> (f64, usize) {
    let mut valid = 0;
    let t = Instant::now();
    for &(a, b) in &m.spans {
        valid += usize::from(f(black_box(&m.arena[a..b])));
    }
    let ns = t.elapsed().as_nanos() as f64;
    (ns / m.spans.len() as f64, valid)
}

/// One size of one kind: the median ns per call of every contender, in the order of
/// [`CONTENDERS`], and vutf8's ratio to the fastest peer.
struct Row {
    size: usize,
    ns: Vec<f64>,
    /// vutf8 `is_valid` ÷ the fastest peer: the median over the rounds of the ratio in each
    /// round (the two saw the same messages there, [`seed`]), the peer being the one with
    /// the lowest median.
    ratio: f64,
    /// vutf8 `is_valid` ÷ std, the same way.
    std_ratio: f64,
}

/// The rows of one kind, every `o.step` sizes from `o.min` to `o.max`. The rounds are the
/// outer loop, so that the samples of one size are minutes apart: a burst of noise from
/// elsewhere on the machine then spoils one sample of a size, not all of them. Each round
/// takes the sizes in an order of its own ([`shuffled`]).
fn sweep(kind: &Kind, way: Way, text: &[u8], o: &Options) -> Vec<Row> {
    let sizes: Vec<usize> = (o.min..=o.max).step_by(o.step).collect();
    let mut samples = vec![vec![Vec::with_capacity(o.rounds); CONTENDERS.len()]; sizes.len()];
    for round in 0..o.rounds {
        for at in shuffled(sizes.len(), round) {
            let (size, per_size) = (sizes[at], &mut samples[at]);
            for i in support::balanced_order(CONTENDERS.len(), round) {
                // The messages, made just before the contender's pass (so each finds them
                // in the same caches), from the seed of the size, round and group.
                let mut rng = Rng::new(seed(size, round, i, kind.invalid, way));
                let m = Messages::new(text, size, kind.invalid, way, &mut rng);
                let c = &CONTENDERS[i];
                let run = || match i {
                    VUTF8 if peers::is_forced() => pass(peers::vutf8_is_valid as Pointer, &m),
                    FROM_UTF8 if peers::is_forced() => {
                        pass(peers::vutf8_from_utf8_ok as Pointer, &m)
                    }
                    IS_VALID_INLINED if peers::is_forced() => pass(peers::vutf8_is_valid, &m),
                    FROM_UTF8_INLINED if peers::is_forced() => pass(peers::vutf8_from_utf8_ok, &m),
                    _ => match c.inlined {
                        Some(inlined) => inlined(&m),
                        None => pass(c.f, &m),
                    },
                };
                if way == Way::Learnt {
                    // A pass not timed first, so that the timed one is all learnt (at 4
                    // KiB a pass is 64 calls, and the first few would still be learning).
                    run();
                }
                let (ns, valid) = run();
                let want = if kind.invalid { 0 } else { m.spans.len() };
                assert_eq!(valid, want, "{} on {} at {size} B", c.name, kind.name);
                per_size[i].push(ns);
            }
        }
    }
    sizes
        .into_iter()
        .zip(samples)
        .map(|(size, per)| {
            let ns: Vec<f64> = per
                .iter()
                .map(|s| support::median(&mut s.clone()))
                .collect();
            // Ratios round by round, where vutf8 and the peer saw the same messages.
            let paired = |peer: usize| {
                let mut r: Vec<f64> = per[peer]
                    .iter()
                    .zip(&per[VUTF8])
                    .map(|(p, v)| p / v)
                    .collect();
                support::median(&mut r)
            };
            let (ratio, std_ratio) = (paired(fastest_peer(&ns).0), paired(STD));
            Row {
                size,
                ns,
                ratio,
                std_ratio,
            }
        })
        .collect()
}

/// The indices `0..n` in the order round `round` takes them: shuffled, a different order
/// in every round. In increasing order, a size where the medium path gains a group (64 +
/// 256 k bytes) or its rest a register ran right after a few hundred sizes that trained the
/// branch predictor on one group or register fewer, and measured slower than the sizes
/// around it: a "cliff" of the sweep's order, not of the size
/// (docs/PERFORMANCE.md#method-sweep). Messages of every length in turn is also closer to
/// what a parser sees.
fn shuffled(n: usize, round: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = Rng::new(0x5EED_0000 ^ round as u64);
    for i in (1..n).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// Whether a peer counts in "the fastest peer": every peer that runs no wider than vutf8
/// ([`peers::hold_simdutf_to_vutf8`] holds simdutf to vutf8's width, unless the user's
/// `SIMDUTF_FORCE_IMPLEMENTATION` names a wider one).
fn counts(c: &Contender) -> bool {
    !c.ours && (c.name != "simdutf" || !narrower_than_simdutf())
}

/// Whether vutf8 runs AVX2 or narrower where simdutf runs AVX-512.
fn narrower_than_simdutf() -> bool {
    peers::simdutf_backend().contains("AVX-512") && peers::vutf8_backend() != vutf8::Backend::Avx512
}

/// The fastest peer's ns at one size (of those that [`counts`]).
fn fastest_peer(ns: &[f64]) -> (usize, f64) {
    CONTENDERS
        .iter()
        .zip(ns)
        .enumerate()
        .filter(|(_, (c, _))| counts(c))
        .map(|(i, (_, &t))| (i, t))
        .fold((0, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a })
}

/// The sizes from 8 B on where vutf8's `is_valid` costs more than `CLIFF` times at some
/// larger size, with the larger size and the ratio (the cheapest larger size).
fn cliffs(rows: &[Row]) -> Vec<(usize, usize, f64)> {
    let mut out = Vec::new();
    // The cheapest size above each size, from the end.
    let mut best_after: Option<(usize, f64)> = None;
    for row in rows.iter().rev() {
        let t = row.ns[VUTF8];
        if let Some((at, best)) = best_after {
            if row.size >= 8 && t > CLIFF * best {
                out.push((row.size, at, t / best));
            }
        }
        if best_after.is_none_or(|(_, best)| t < best) {
            best_after = Some((row.size, t));
        }
    }
    out.reverse();
    out
}

fn report(kind: &Kind, way: Way, rows: &[Row]) {
    println!("\n### {}\n", heading(kind, way));
    let names: Vec<&str> = CONTENDERS.iter().map(|c| c.name).collect();
    println!(
        "| size | {} | vutf8 ÷ fastest peer |",
        names.join(" ns | ") + " ns"
    );
    println!("|---:|{}---:|", "---:|".repeat(CONTENDERS.len()));
    let at = |s: usize| rows.iter().find(|r| r.size == s);
    for &size in SHOWN {
        let Some(row) = at(size) else {
            continue;
        };
        let cells: Vec<String> = row.ns.iter().map(|t| format!("{t:.2}")).collect();
        println!("| {size} | {} | {:.2} |", cells.join(" | "), row.ratio);
    }
    let within = |lo: usize, hi: usize| rows.iter().filter(move |r| (lo..=hi).contains(&r.size));
    let mid: Vec<(usize, f64)> = within(64, 4096).map(|r| (r.size, r.ratio)).collect();
    if !mid.is_empty() {
        let worst = mid
            .iter()
            .fold(mid[0], |a, &b| if b.1 < a.1 { b } else { a });
        let below: Vec<usize> = mid.iter().filter(|r| r.1 < 1.0).map(|r| r.0).collect();
        println!(
            "\n- 64 B - 4 KiB ({} sizes): vutf8 ÷ fastest peer, geometric mean **{:.3}**, worst {:.3} at {} B; {} sizes below 1.0{}",
            mid.len(),
            geomean(mid.iter().map(|r| r.1)),
            worst.1,
            worst.0,
            below.len(),
            if below.is_empty() {
                String::new()
            } else {
                format!(" ({})", ranges(&below))
            }
        );
        let over = |a: usize, b: usize, lo: usize, hi: usize| {
            geomean(within(lo, hi).map(|r| r.ns[a] / r.ns[b]))
        };
        let worst_band = [(64, 255), (256, 1023), (1024, 4096)]
            .iter()
            .map(|&(lo, hi)| (over(FROM_UTF8_INLINED, IS_VALID_INLINED, lo, hi), lo, hi))
            .fold((0.0, 0, 0), |a, b| if b.0 > a.0 { b } else { a });
        println!(
            "- `from_utf8` ÷ `is_valid` time, geometric mean over the same sizes, each inlined into the caller's loop: **{:.3}** (the highest of 64-255 B, 256 B - 1 KiB and 1-4 KiB: {:.3} at {}-{} B); through a function pointer, as in the table: {:.3}",
            over(FROM_UTF8_INLINED, IS_VALID_INLINED, 64, 4096),
            worst_band.0,
            worst_band.1,
            worst_band.2,
            over(FROM_UTF8, VUTF8, 64, 4096),
        );
    }
    let small: Vec<(usize, f64)> = within(8, 63).map(|r| (r.size, r.std_ratio)).collect();
    if !small.is_empty() {
        let worst = small
            .iter()
            .fold(small[0], |a, &b| if b.1 < a.1 { b } else { a });
        println!(
            "- 8-63 B: vutf8 ÷ std, worst {:.3} at {} B; geometric mean {:.3}",
            worst.1,
            worst.0,
            geomean(small.iter().map(|r| r.1))
        );
    }
    let tiny: Vec<f64> = within(1, 7).map(|r| r.std_ratio).collect();
    if !tiny.is_empty() {
        println!(
            "- 1-7 B: vutf8 ÷ std, worst {:.3}",
            tiny.iter().copied().fold(f64::INFINITY, f64::min)
        );
    }
    let found = cliffs(rows);
    if found.is_empty() {
        println!("- cliffs (from 8 B, > {CLIFF}x a larger size): none");
    } else {
        let shown: Vec<String> = found
            .iter()
            .take(12)
            .map(|(s, at, r)| format!("{s} B ({r:.2}x {at} B)"))
            .collect();
        println!(
            "- cliffs (from 8 B, > {CLIFF}x a larger size): {}: {}{}",
            found.len(),
            shown.join(", "),
            if found.len() > 12 { ", ..." } else { "" }
        );
    }
}

/// A kind's name, marked `learnt` where its messages were (the CSV's `kind` column).
fn kind_name(kind: &Kind, way: Way) -> String {
    match way {
        Way::SeenOnce => kind.name.to_string(),
        Way::Learnt => format!("{}, learnt", kind.name),
    }
}

/// A kind's heading in the report: its [`kind_name`], and what `learnt` means.
fn heading(kind: &Kind, way: Way) -> String {
    match way {
        Way::SeenOnce => kind_name(kind, way),
        Way::Learnt => format!("{} (one message again and again)", kind_name(kind, way)),
    }
}

/// `1-3, 7, 9-12`.
fn ranges(xs: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < xs.len() {
        let mut j = i;
        while j + 1 < xs.len() && xs[j + 1] == xs[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            xs[i].to_string()
        } else {
            format!("{}-{}", xs[i], xs[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

/// The build's name in file names: the backend vutf8 selects (`avx512` in the default
/// build on an AVX-512 CPU, `avx2` without the feature), or `forced-NAME` under `--backend`.
fn build_name() -> String {
    let name = peers::vutf8_backend().name().replace('.', "");
    if peers::is_forced() {
        format!("forced-{name}")
    } else {
        name
    }
}

fn write_csv(path: &Path, all: &[(&Kind, Way, Vec<Row>)]) {
    let mut s = String::from("kind,size");
    for c in CONTENDERS {
        s += &format!(",{}", c.name);
    }
    s.push('\n');
    for (kind, way, rows) in all {
        let name = kind_name(kind, *way);
        for row in rows {
            // Quoted: "French text, invalid" has a comma of its own.
            s += &format!("\"{name}\",{}", row.size);
            for t in &row.ns {
                s += &format!(",{t:.3}");
            }
            s.push('\n');
        }
    }
    std::fs::create_dir_all(path.parent().unwrap()).expect("create the CSV's folder");
    std::fs::write(path, s).expect("write the CSV");
}

fn plot(
    path: &Path,
    title: &str,
    kinds: &[&Kind],
    all: &[Vec<Row>],
) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::new(path, (1400, 300 * kinds.len() as u32 + 40)).into_drawing_area();
    root.fill(&WHITE)?;
    let (head, body) = root.split_vertically(40);
    head.titled(title, ("sans-serif", 18))?;
    let colors = [BLUE, CYAN, RED, MAGENTA, GREEN, BLACK];
    for (panel, (kind, rows)) in body
        .split_evenly((kinds.len(), 1))
        .iter()
        .zip(kinds.iter().zip(all))
    {
        let (min, max) = (rows[0].size, rows[rows.len() - 1].size);
        // The y range from the SIMD validators (std is far above them from ~64 B on).
        let top = rows
            .iter()
            .flat_map(|r| r.ns[..STD].iter().copied())
            .fold(1.0f64, f64::max);
        let mut chart = ChartBuilder::on(panel)
            .caption(kind.name, ("sans-serif", 15))
            .margin(6)
            .x_label_area_size(28)
            .y_label_area_size(44)
            .build_cartesian_2d(min as f64..max as f64, 0f64..top * 1.05)?;
        chart
            .configure_mesh()
            .x_desc("bytes")
            .y_desc("ns per call")
            .x_labels(20)
            .draw()?;
        for (line, (i, c)) in CONTENDERS
            .iter()
            .enumerate()
            .filter(|&(_, c)| c.inlined.is_none())
            .enumerate()
        {
            let color = colors[line % colors.len()];
            let points = rows.iter().map(|r| (r.size, r.ns[i].min(top * 1.05)));
            chart
                .draw_series(LineSeries::new(
                    envelope(points, (max - min).div_ceil(PLOT_BUCKETS)),
                    color.stroke_width(1),
                ))?
                .label(c.name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], color));
        }
        support::draw_legend(&mut chart)?;
    }
    root.present()?;
    Ok(())
}

/// A plotted line has at most two points per `PLOT_BUCKETS`th of the size range: fewer
/// points than sizes (4,160 per line made a plot of 1.2 MB), and no spike or cliff lost.
const PLOT_BUCKETS: usize = 700;

/// The points of one line, `(size, ns)` in size order, thinned to the lowest and the
/// highest of every `bucket` consecutive sizes (in size order, so the line still passes
/// through both).
fn envelope(points: impl Iterator<Item = (usize, f64)>, bucket: usize) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut group: Vec<(usize, f64)> = Vec::new();
    let mut flush = |group: &mut Vec<(usize, f64)>| {
        let low = group.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
        let high = group.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1));
        if let (Some(low), Some(high)) = (low, high) {
            let (first, second) = if low.0 <= high.0 {
                (low, high)
            } else {
                (high, low)
            };
            out.push((first.0 as f64, first.1));
            if second.0 != first.0 {
                out.push((second.0 as f64, second.1));
            }
        }
        group.clear();
    };
    let bucket = bucket.max(1);
    for p in points {
        if group.first().is_some_and(|f| p.0 / bucket != f.0 / bucket) {
            flush(&mut group);
        }
        group.push(p);
    }
    flush(&mut group);
    out
}

fn main() {
    let o = options();
    peers::hold_simdutf_to_vutf8();
    let build = build_name();
    let started = Instant::now();
    print!(
        "{}",
        peers::header(&format!(
            "vutf8 sweep: ns per call at every size from {} to {} B, {} rounds of fresh messages, medians",
            o.min, o.max, o.rounds
        ))
    );
    if narrower_than_simdutf() {
        println!(
            "- \"fastest peer\": simdutf8 and std only (simdutf runs AVX-512 here, vutf8 does not)"
        );
    }
    println!(
        "- vutf8 build: the `avx512` feature {}",
        if vutf8::Backend::Avx512.is_built() {
            "on (the default)"
        } else {
            "off (the path of an AVX2-only CPU)"
        }
    );
    let mut all = Vec::new();
    for kind in &o.kinds {
        let path = o.dir.join(kind.file);
        let text = std::fs::read(&path).unwrap_or_else(|e| {
            eprintln!(
                "sweep: cannot read {} ({e}); run scripts/real-corpus.sh first",
                path.display()
            );
            std::process::exit(2);
        });
        assert!(std::str::from_utf8(&text).is_ok() && text.len() > 4 * o.max);
        let rows = sweep(kind, Way::SeenOnce, &text, &o);
        report(kind, Way::SeenOnce, &rows);
        all.push((*kind, Way::SeenOnce, rows));
        if o.learnt {
            let rows = sweep(kind, Way::Learnt, &text, &o);
            report(kind, Way::Learnt, &rows);
            all.push((*kind, Way::Learnt, rows));
        }
    }
    let csv = o
        .csv
        .clone()
        .unwrap_or_else(|| Path::new(support::WORKSPACE).join(format!("target/sweep/{build}.csv")));
    write_csv(&csv, &all);
    println!("\nevery sample: {}", csv.display());
    if o.plot {
        let svg = Path::new(support::WORKSPACE).join(format!("docs/sweep-{build}.svg"));
        let title = format!(
            "ns per call against size, vutf8 {} build on {}: medians of {} rounds of fresh messages",
            build,
            peers::cpu_model(),
            o.rounds
        );
        // The plot: the messages seen once, what the sweep judges on.
        let seen: Vec<Vec<Row>> = all
            .into_iter()
            .filter(|(_, way, _)| *way == Way::SeenOnce)
            .map(|(_, _, rows)| rows)
            .collect();
        match plot(&svg, &title, &o.kinds, &seen) {
            Ok(()) => println!("plot: {}", svg.display()),
            Err(e) => eprintln!("sweep: could not write the plot: {e}"),
        }
    }
    println!("({:.0} s)", started.elapsed().as_secs_f64());
}
