//! Tests: the slice and stream scanners against one decode of the whole input, for every
//! backend, chunk sizes 16 to 64 and reads of 1 to 1000 bytes. The scanners are
//! [`crate::read::slicing`] and [`crate::read::streams`].

mod tests {
    use std::io::{self, Read};

    use vutf8::{Backend, Utf8Error};

    use crate::read::slicing::scan_slice;
    use crate::read::streams::scan_stream;
    use crate::scan::bom::BomPolicy;
    use crate::scan::engine::{Engine, Settings};
    use crate::scan::findings::{Emit, Failure, Finding, Problem, Scanned};

    /// A finding as plain values: offset, line, column, error, bytes shown.
    type Plain = (u64, u64, u64, Utf8Error, Vec<u8>);

    /// What `--all` must report: every error of `scalar::decode` over the whole input, with
    /// line and column counted naively.
    fn reference(input: &[u8]) -> Vec<Plain> {
        let (mut line, mut column) = (1, 1);
        let mut out = Vec::new();
        for item in vutf8::scalar::decode(input) {
            match item {
                Ok((_, '\n')) => (line, column) = (line + 1, 1),
                Ok(_) => column += 1,
                Err(e) => {
                    let at = e.valid_up_to();
                    let shown = Finding::new(at as u64, e, &input[at..], None);
                    out.push((at as u64, line, column, e, shown.bytes().to_vec()));
                    column += 1;
                }
            }
        }
        out
    }

    fn collect(run: impl FnOnce(Emit<'_>) -> Result<Scanned, Failure>) -> (Scanned, Vec<Plain>) {
        let mut found = Vec::new();
        let scanned = run(&mut |f: &Finding| {
            let Problem::Utf8(error) = f.problem else {
                panic!("a signature reported without --bom report")
            };
            found.push((f.offset, f.line, f.column, error, f.bytes().to_vec()));
            Ok(())
        })
        .expect("no I/O error");
        (scanned, found)
    }

    /// Compares findings, ignoring `valid_up_to` (relative to a chunk in the scanners).
    fn same(got: &[Plain], want: &[Plain]) -> bool {
        got.len() == want.len()
            && got.iter().zip(want).all(|(g, w)| {
                (g.0, g.1, g.2, &g.4) == (w.0, w.1, w.2, &w.4)
                    && (
                        g.3.kind(),
                        g.3.error_len(),
                        g.3.code_point(),
                        g.3.sequence_len(),
                    ) == (
                        w.3.kind(),
                        w.3.error_len(),
                        w.3.code_point(),
                        w.3.sequence_len(),
                    )
            })
    }

    /// A reader that hands out at most `step` bytes per read.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    /// Inputs with errors of every kind near every offset of a small chunk size.
    fn inputs() -> Vec<Vec<u8>> {
        let pieces: &[&[u8]] = &[
            b"\xC0\xAF",
            b"\xE0\x80\xAF",
            b"\xED\xA0\x80",
            b"\xF4\x90\x80\x80",
            b"\xF0\x9F\x98",
            b"\xE2\x82",
            b"\x80\xBF",
            b"\xFF",
            b"\xF8\x88\x80\x80\x80",
            "é世🌍".as_bytes(),
            b"\n",
            b"\r\n",
        ];
        let mut out = Vec::new();
        for (i, piece) in pieces.iter().enumerate() {
            for pad in 0..40 {
                let mut v = Vec::new();
                v.extend(std::iter::repeat_n(b'a', pad));
                v.extend_from_slice(piece);
                v.extend_from_slice("x\nß".as_bytes());
                v.extend_from_slice(pieces[(i + 3) % pieces.len()]);
                v.extend(std::iter::repeat_n(b'b', pad % 7));
                out.push(v);
            }
            // And the piece at the very end, cut at every length.
            for cut in 0..=piece.len() {
                let mut v = b"start\n".repeat(3);
                v.extend_from_slice(&piece[..cut]);
                out.push(v);
            }
        }
        out
    }

    #[test]
    fn slices_and_streams_agree_with_a_whole_input_decode() {
        let engines = std::iter::once(Engine::Auto)
            .chain(Backend::available().map(Engine::Forced))
            .collect::<Vec<_>>();
        for input in inputs() {
            let want = reference(&input);
            let chars = std::str::from_utf8(&input).map_or(0, |s| s.chars().count() as u64);
            for &engine in &engines {
                for chunk in [16, 17, 19, 23, 64] {
                    for all in [false, true] {
                        let settings = Settings {
                            engine,
                            all,
                            track: true,
                            chunk,
                            count: true,
                            bom: BomPolicy::Accept,
                        };
                        let want = if all {
                            &want[..]
                        } else {
                            &want[..want.len().min(1)]
                        };
                        let (scanned, got) =
                            collect(|emit| scan_slice(&input, &settings, &(), emit));
                        assert_eq!(scanned.valid, want.is_empty());
                        assert_eq!(scanned.chars, chars, "slice {engine:?} chunk {chunk}");
                        assert!(same(&got, want), "slice {engine:?} chunk {chunk} all {all} {input:02X?}:\n{got:?}\n{want:?}");
                        for step in [1, 2, 3, 5, 1000] {
                            let (scanned, got) = collect(|emit| {
                                let mut reader = Trickle { data: &input, step };
                                scan_stream(&mut reader, None, &settings, &(), emit)
                            });
                            assert_eq!(scanned.valid, want.is_empty());
                            assert_eq!(scanned.chars, chars, "stream {engine:?} step {step}");
                            assert!(same(&got, want), "stream {engine:?} chunk {chunk} step {step} all {all} {input:02X?}:\n{got:?}\n{want:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_signature_is_skipped_or_reported() {
        let text = "\u{FEFF}a\nb\u{FEFF}c".as_bytes();
        let bad = b"\xEF\xBB\xBFab\xFF";
        for bom in [BomPolicy::Accept, BomPolicy::Strip, BomPolicy::Report] {
            for all in [false, true] {
                let settings = Settings {
                    engine: Engine::Auto,
                    all,
                    track: true,
                    chunk: 16,
                    count: true,
                    bom,
                };
                let run = |input: &[u8], step: Option<usize>| {
                    let mut found = Vec::new();
                    let scanned = match step {
                        None => scan_slice(input, &settings, &(), &mut |f| {
                            found.push((f.offset, f.line, f.column, f.bytes().to_vec()));
                            Ok(())
                        }),
                        Some(step) => {
                            let mut reader = Trickle { data: input, step };
                            scan_stream(&mut reader, None, &settings, &(), &mut |f| {
                                found.push((f.offset, f.line, f.column, f.bytes().to_vec()));
                                Ok(())
                            })
                        }
                    }
                    .unwrap();
                    (scanned, found)
                };
                for step in [None, Some(1), Some(2), Some(100)] {
                    let (scanned, found) = run(text, step);
                    let bom_found = (0, 1, 1, vec![0xEF, 0xBB, 0xBF]);
                    if bom == BomPolicy::Report {
                        assert!(!scanned.valid);
                        assert_eq!(found, vec![bom_found.clone()]);
                    } else {
                        assert!(scanned.valid);
                        assert!(found.is_empty());
                        // The signature is no character; the later U+FEFF is one.
                        assert_eq!(scanned.chars, 5);
                    }
                    // Columns do not count the signature.
                    let (_, found) = run(bad, step);
                    let last = (5, 1, 3, vec![0xFF]);
                    match (bom, all) {
                        (BomPolicy::Report, false) => assert_eq!(found, vec![bom_found]),
                        (BomPolicy::Report, true) => assert_eq!(found, vec![bom_found, last]),
                        _ => assert_eq!(found, vec![last]),
                    }
                }
            }
        }
    }
}
