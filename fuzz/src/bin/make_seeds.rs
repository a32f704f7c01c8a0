//! Writes the seed corpus of every fuzz target into `DIR/<target>/` (default `fuzz/corpus`):
//!
//! - `differential`: the samples in `corpus/samples/` (whole, and cut at lengths around
//!   the register and block sizes, so that many end inside a character), generated text of
//!   every script at those lengths, and, at a few of them, corrupted copies (every
//!   `Corruption` near the start, in the middle and near the end, plus cut inside the last
//!   character);
//! - `mutate_valid`: every script at those lengths with no edit, and at a few of them with
//!   each kind of edit near the start, the middle and the end;
//! - `stream_chunks`: a selection of the `differential` seeds, each with several
//!   chunkings (1-byte, 3-byte, odd sizes with empty chunks, 64-byte, whole);
//! - `records`: half of the `differential` seeds with their spaces turned into LF, CRLF
//!   or NUL (`lines`, and `split` at NUL).
//!
//! Deterministic: the same files every run (named by what they hold). Existing files in
//! the folders (what fuzzing added) are kept.
//!
//! Usage: `cargo run --manifest-path fuzz/Cargo.toml --release --bin make_seeds [DIR]`

use std::fs;
use std::path::{Path, PathBuf};

use vutf8_corpus::{generate, with_error, Corruption, Script};
use vutf8_fuzz::chunks;
use vutf8_fuzz::mutate::{self, Edit};

const LENGTHS: &[usize] = &[
    0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 127, 128, 129, 255, 256, 511, 512,
    513, 1000, 2047, 4096,
];

/// The lengths that also get corrupted copies and edits.
const EDITED_LENGTHS: &[usize] = &[17, 64, 129, 513, 4096];

struct Out {
    dir: PathBuf,
    count: usize,
}

impl Out {
    fn new(root: &Path, target: &str) -> Out {
        let dir = root.join(target);
        fs::create_dir_all(&dir).expect("create the corpus folder");
        Out { dir, count: 0 }
    }
    fn write(&mut self, name: &str, bytes: &[u8]) {
        fs::write(self.dir.join(format!("seed-{name}")), bytes).expect("write a seed");
        self.count += 1;
    }
}

fn main() {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/corpus".into()),
    );
    let samples_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/samples");

    // Raw inputs, shared by `differential` and (some of them) `stream_chunks`.
    let mut raw: Vec<(String, Vec<u8>)> = Vec::new();
    let mut samples: Vec<_> = fs::read_dir(&samples_dir)
        .expect("corpus/samples")
        .map(|e| e.expect("a sample").path())
        .collect();
    samples.sort();
    for path in samples {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let bytes = fs::read(&path).expect("read a sample");
        raw.push((format!("sample-{name}"), bytes.clone()));
        for &len in LENGTHS.iter().filter(|&&l| l > 0 && l < bytes.len()) {
            raw.push((format!("sample-{name}-{len}"), bytes[..len].to_vec()));
        }
    }
    for script in Script::ALL {
        for &len in LENGTHS {
            let text = generate(script, len, len as u64);
            raw.push((format!("{}-{len}", script.name()), text.clone()));
            // Cut inside the last multi-byte character, if it is one.
            if let Some(last) = text.iter().rposition(|&b| b >= 0xC0) {
                raw.push((
                    format!("{}-{len}-cut", script.name()),
                    text[..last + 1].to_vec(),
                ));
            }
            if !EDITED_LENGTHS.contains(&len) {
                continue;
            }
            for c in Corruption::ALL {
                for (place, at) in [("start", 1), ("middle", len / 2), ("end", len - 1)] {
                    let (bad, _) = with_error(&text, at, c);
                    raw.push((format!("{}-{len}-{c:?}-{place}", script.name()), bad));
                }
            }
        }
    }

    let mut differential = Out::new(&root, "differential");
    for (name, bytes) in &raw {
        differential.write(name, bytes);
    }

    let mut mutate_valid = Out::new(&root, "mutate_valid");
    for script in Script::ALL {
        for &len in LENGTHS {
            let l = len as u16;
            mutate_valid.write(
                &format!("{}-{len}", script.name()),
                &mutate::encode(script, l, 1, &[]),
            );
            if !EDITED_LENGTHS.contains(&len) {
                continue;
            }
            for (place, at) in [("start", 1u16), ("middle", l / 2), ("end", l - 2)] {
                let edits = [
                    ("flip", Edit::FlipBit { at, bit: 6 }),
                    ("insert", Edit::Insert { at, byte: 0x80 }),
                    ("delete", Edit::Delete { at }),
                    ("truncate", Edit::Truncate { at }),
                    ("overwrite", Edit::Overwrite { at, byte: 0xC0 }),
                    ("surrogate", Edit::InsertSequence { at, which: 15 }),
                    ("too-large", Edit::OverwriteSequence { at, which: 25 }),
                ];
                for (what, edit) in edits {
                    let name = format!("{}-{len}-{what}-{place}", script.name());
                    mutate_valid.write(&name, &mutate::encode(script, l, 2, &[edit]));
                }
            }
            let shifted = [Edit::DropFront { count: 3 }, Edit::Truncate { at: l - 1 }];
            let name = format!("{}-{len}-shifted", script.name());
            mutate_valid.write(&name, &mutate::encode(script, l, 3, &shifted));
        }
    }

    let mut stream_chunks = Out::new(&root, "stream_chunks");
    let chunkings: [(&str, &[u8], &[u8], u8); 5] = [
        ("whole", &[0xFF], &[0xFF], 0xFF),
        ("ones", &[1], &[0, 3], 0),
        ("threes", &[3], &[7], 3),
        ("odd", &[5, 0, 17, 1, 0, 2], &[4, 1, 63], 6),
        ("blocks", &[64, 0xF0, 63], &[255, 2], 31),
    ];
    for (i, (name, bytes)) in raw.iter().enumerate() {
        // Every fourth raw input, with every chunking: a few hundred seeds.
        if i % 4 != 0 || bytes.len() > 2048 {
            continue;
        }
        for (how, sizes, buffers, capacity) in chunkings {
            let input = chunks::encode(sizes, buffers, capacity, bytes);
            stream_chunks.write(&format!("{name}-{how}"), &input);
        }
    }

    // `records`: the raw inputs with spaces turned into line ends (LF for `lines`, CRLF, and
    // NUL for `split` at NUL), so that the records have every length and many end inside a
    // character.
    let mut records = Out::new(&root, "records");
    for (i, (name, bytes)) in raw.iter().enumerate() {
        if i % 2 != 0 {
            continue;
        }
        let lf: Vec<u8> = bytes
            .iter()
            .map(|&b| if b == b' ' { b'\n' } else { b })
            .collect();
        let mut crlf = Vec::with_capacity(bytes.len() + bytes.len() / 8);
        for &b in bytes {
            if b == b' ' {
                crlf.extend_from_slice(b"\r\n");
            } else {
                crlf.push(b);
            }
        }
        let nul: Vec<u8> = bytes
            .iter()
            .map(|&b| if b == b' ' { 0 } else { b })
            .collect();
        for (how, first, body) in [("lf", 0u8, lf), ("crlf", 0, crlf), ("nul", 1, nul)] {
            let mut input = vec![first];
            input.extend(body);
            records.write(&format!("{name}-{how}"), &input);
        }
    }

    for out in [differential, mutate_valid, stream_chunks, records] {
        println!("{} seeds in {}", out.count, out.dir.display());
    }
}
