//! Tests of each vector primitive, for every vector type the CPU supports, against a scalar
//! model on byte arrays. A wrong lane order or shift shows up here by name, rather than as a
//! mysterious validation failure. Each test runs every available vector type, so the number
//! of tests is the same on every target.

use super::backends::for_each_vector;
use super::generic::vector::Vector;
use super::rows::VectorTest;

/// Pseudo-random bytes (xorshift), deterministic.
fn bytes(seed: u64, n: usize) -> std::vec::Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| (super::test_text::next(&mut x) >> 24) as u8)
        .collect()
}

/// Stores a vector into a fresh array.
fn out<V: Vector>(v: V) -> std::vec::Vec<u8> {
    let mut o = std::vec![0u8; V::BYTES];
    v.store(&mut o);
    o
}

/// Runs test `t` for every vector type this CPU supports, and asserts that it ran for
/// exactly the backends of the table this CPU can run (none on a target without one).
fn each_vector(mut t: impl VectorTest) {
    let ran = for_each_vector(&mut t);
    std::eprintln!("primitive test ran for: {ran:?}");
    let runnable: std::vec::Vec<&str> = super::backends::BACKENDS
        .iter()
        .filter(|e| (e.detect)())
        .map(|e| e.backend.name())
        .collect();
    assert_eq!(
        ran, runnable,
        "the vector types tested are the backends this CPU runs"
    );
}

/// One binary operation against its per-byte model.
struct Binary(&'static str, fn(u8, u8) -> u8);

impl VectorTest for Binary {
    unsafe fn run<V: Vector>(&mut self, name: &str) {
        for seed in 0..500 {
            let a = bytes(seed, V::BYTES);
            let b = bytes(seed + 1000, V::BYTES);
            // SAFETY: the caller guarantees the instruction set; a and b hold V::BYTES.
            let (va, vb) =
                unsafe { (V::load_unaligned(a.as_ptr()), V::load_unaligned(b.as_ptr())) };
            let got = out(match self.0 {
                "or" => va.or(vb),
                "and" => va.and(vb),
                "xor" => va.xor(vb),
                "saturating_sub" => va.saturating_sub(vb),
                _ => unreachable!(),
            });
            let want: std::vec::Vec<u8> = a.iter().zip(&b).map(|(&x, &y)| (self.1)(x, y)).collect();
            assert_eq!(got, want, "{name}: {} of {a:02X?} and {b:02X?}", self.0);
        }
    }
}

#[test]
fn bitwise_or_and_xor() {
    each_vector(Binary("or", |a, b| a | b));
    each_vector(Binary("and", |a, b| a & b));
    each_vector(Binary("xor", |a, b| a ^ b));
}

#[test]
fn saturating_sub() {
    each_vector(Binary("saturating_sub", u8::saturating_sub));
}

struct LoadStoreSplat;
impl VectorTest for LoadStoreSplat {
    unsafe fn run<V: Vector>(&mut self, name: &str) {
        let a = bytes(7, V::BYTES + 5);
        for start in 0..5 {
            // SAFETY: the caller guarantees the instruction set; a has V::BYTES bytes from
            // `start`.
            let v = unsafe { V::load_unaligned(a.as_ptr().add(start)) };
            assert_eq!(out(v), &a[start..start + V::BYTES], "{name}: load/store");
        }
        for byte in [0u8, 1, 0x0F, 0x7F, 0x80, 0xC0, 0xFF] {
            // SAFETY: the caller guarantees the instruction set.
            let v = unsafe { V::splat(byte) };
            assert_eq!(out(v), std::vec![byte; V::BYTES], "{name}: splat");
        }
        let t: [u8; 16] = core::array::from_fn(|i| (i * 17 + 3) as u8);
        // SAFETY: the caller guarantees the instruction set.
        let v = unsafe { V::repeat16(t) };
        let want: std::vec::Vec<u8> = (0..V::BYTES).map(|i| t[i % 16]).collect();
        assert_eq!(out(v), want, "{name}: repeat16");
    }
}

#[test]
fn load_store_splat_repeat16() {
    each_vector(LoadStoreSplat);
}

struct LoadPartial;
impl VectorTest for LoadPartial {
    unsafe fn run<V: Vector>(&mut self, name: &str) {
        // Every length below one register, at the end of an exact-size allocation (so a load
        // past the input would read outside it), from a run of non-zero bytes.
        for len in 0..V::BYTES {
            let input: std::vec::Vec<u8> = bytes(len as u64, len).iter().map(|b| b | 1).collect();
            // SAFETY: the caller guarantees the instruction set; len < V::BYTES.
            let v = unsafe { V::load_partial(&input) };
            let mut want = input.clone();
            want.resize(V::BYTES, 0);
            assert_eq!(out(v), want, "{name}: load_partial of {len} bytes");
        }
    }
}

#[test]
fn load_partial() {
    each_vector(LoadPartial);
}

struct Shr4AndLookup;
impl VectorTest for Shr4AndLookup {
    unsafe fn run<V: Vector>(&mut self, name: &str) {
        for seed in 0..500 {
            let a = bytes(seed, V::BYTES);
            // SAFETY: the caller guarantees the instruction set; `a` holds V::BYTES bytes.
            let va = unsafe { V::load_unaligned(a.as_ptr()) };
            let want: std::vec::Vec<u8> = a.iter().map(|b| b >> 4).collect();
            assert_eq!(out(va.shr4()), want, "{name}: shr4 of {a:02X?}");

            let table: [u8; 16] = core::array::from_fn(|i| bytes(seed + i as u64, 1)[0]);
            let idx: std::vec::Vec<u8> = a.iter().map(|b| b & 0x0F).collect();
            // SAFETY: as above; `idx` holds V::BYTES bytes.
            let (vt, vi) = unsafe { (V::repeat16(table), V::load_unaligned(idx.as_ptr())) };
            let want: std::vec::Vec<u8> = idx.iter().map(|&i| table[i as usize]).collect();
            assert_eq!(out(vt.lookup16(vi)), want, "{name}: lookup16 of {idx:02X?}");

            // The nibble lookups of any byte (not only 0..16), the form the check uses.
            let high: std::vec::Vec<u8> = a.iter().map(|&b| table[usize::from(b >> 4)]).collect();
            assert_eq!(
                out(V::lookup_high(vt, va)),
                high,
                "{name}: lookup_high of {a:02X?}"
            );
            let low: std::vec::Vec<u8> = a.iter().map(|&b| table[usize::from(b & 0x0F)]).collect();
            // SAFETY: as above.
            let low_nibble = unsafe { V::splat(0x0F) };
            assert_eq!(
                out(V::lookup_low(vt, va, low_nibble)),
                low,
                "{name}: lookup_low of {a:02X?}"
            );
        }
    }
}

#[test]
fn shr4_and_lookup16() {
    each_vector(Shr4AndLookup);
}

struct PrevN;
impl VectorTest for PrevN {
    unsafe fn run<V: Vector>(&mut self, name: &str) {
        // prev = bytes 0..B, cur = bytes B..2B of one run of memory: prevK(cur, prev) must
        // be the register that starts K bytes earlier in memory.
        let mem: std::vec::Vec<u8> = (0..2 * V::BYTES as u16).map(|i| i as u8).collect();
        // SAFETY: the caller guarantees the instruction set; `mem` has 2 * V::BYTES bytes.
        let (prev, cur) = unsafe {
            (
                V::load_unaligned(mem.as_ptr()),
                V::load_unaligned(mem.as_ptr().add(V::BYTES)),
            )
        };
        let want = |k: usize| mem[V::BYTES - k..2 * V::BYTES - k].to_vec();
        assert_eq!(out(cur.prev1(prev)), want(1), "{name}: prev1");
        assert_eq!(out(cur.prev2(prev)), want(2), "{name}: prev2");
        assert_eq!(out(cur.prev3(prev)), want(3), "{name}: prev3");
    }
}

#[test]
fn prev1_prev2_prev3() {
    each_vector(PrevN);
}

struct Reductions;
impl VectorTest for Reductions {
    unsafe fn run<V: Vector>(&mut self, name: &str) {
        for pos in 0..V::BYTES {
            for byte in [0x01u8, 0x40, 0x7F, 0x80, 0xFF] {
                let mut a = std::vec![0u8; V::BYTES];
                a[pos] = byte;
                // SAFETY: the caller guarantees the instruction set; `a` holds V::BYTES.
                let v = unsafe { V::load_unaligned(a.as_ptr()) };
                assert!(v.any_set(), "{name}: any_set with {byte:02X} at {pos}");
                assert_eq!(
                    v.is_ascii(),
                    byte < 0x80,
                    "{name}: is_ascii {byte:02X} at {pos}"
                );
            }
        }
        // SAFETY: the caller guarantees the instruction set.
        let zero = unsafe { V::splat(0) };
        assert!(!zero.any_set() && zero.is_ascii(), "{name}: zero register");
    }
}

#[test]
fn any_set_and_is_ascii() {
    each_vector(Reductions);
}

struct EqMask;
impl VectorTest for EqMask {
    unsafe fn run<V: Vector>(&mut self, name: &str) {
        for seed in 0..500 {
            // Few distinct values, so that many bytes are equal.
            let a: std::vec::Vec<u8> = bytes(seed, V::BYTES).iter().map(|b| b & 0x83).collect();
            let b: std::vec::Vec<u8> = bytes(seed + 7, V::BYTES).iter().map(|b| b & 0x83).collect();
            // SAFETY: the caller guarantees the instruction set; a and b hold V::BYTES.
            let (va, vb) =
                unsafe { (V::load_unaligned(a.as_ptr()), V::load_unaligned(b.as_ptr())) };
            let want = a
                .iter()
                .zip(&b)
                .enumerate()
                .fold(0u64, |m, (i, (x, y))| m | u64::from(x == y) << i);
            assert_eq!(
                va.eq_mask(vb),
                want,
                "{name}: eq_mask of {a:02X?} and {b:02X?}"
            );
        }
        // SAFETY: the caller guarantees the instruction set.
        let (zero, ones) = unsafe { (V::splat(0), V::splat(0xFF)) };
        let all = u64::MAX >> (64 - V::BYTES);
        assert_eq!(zero.eq_mask(zero), all, "{name}: eq_mask all equal");
        assert_eq!(zero.eq_mask(ones), 0, "{name}: eq_mask none equal");
    }
}

#[test]
fn eq_mask() {
    each_vector(EqMask);
}
