//! Test data: rows of real text (the corpus samples and the project's own documents, in
//! several scripts), cut into lines, words and long runs, some corrupted at random, some
//! null; and the per-row answers of the standard library to check against.
#![allow(dead_code)]

use std::path::Path;

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, BinaryArray, BinaryViewArray, LargeBinaryArray};
use arrow_buffer::NullBuffer;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The real text the rows are cut from.
pub fn texts() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut texts = Vec::new();
    for dir in ["corpus/samples", "docs"] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        paths.sort();
        for path in paths {
            texts.push(std::fs::read(&path).unwrap());
        }
    }
    texts.push(std::fs::read(root.join("README.md")).unwrap());
    assert!(texts.len() > 8);
    texts
}

/// One way to break a value.
fn corrupt(rng: &mut StdRng, value: &mut Vec<u8>) {
    let at = if value.is_empty() {
        0
    } else {
        rng.random_range(0..=value.len())
    };
    match rng.random_range(0..8) {
        0 if !value.is_empty() => {
            let last = value.len() - 1;
            value[at.min(last)] = rng.random();
        }
        1 => value.insert(at, 0xFF),
        2 => value.splice(at..at, [0xC0, 0xAF]).for_each(drop),
        3 => value.splice(at..at, [0xED, 0xA0, 0x80]).for_each(drop),
        4 => value.insert(at, 0x80),
        5 => value.extend_from_slice(&[0xF0, 0x9F, 0x98]),
        6 => value.splice(at..at, [0xE2, 0x82]).for_each(drop),
        _ => {
            // Cut the value anywhere, possibly inside a character.
            value.truncate(at);
        }
    }
}

/// One row: its bytes, and whether it is null (a null row keeps bytes, often invalid ones:
/// Arrow lets a null row cover any bytes).
#[derive(Clone, Debug)]
pub struct Row {
    pub bytes: Vec<u8>,
    pub null: bool,
}

impl Row {
    /// The row as SQL sees it.
    pub fn value(&self) -> Option<&[u8]> {
        (!self.null).then_some(&self.bytes[..])
    }
}

/// `n` rows cut from the real texts: lines, single words (short enough to be inlined in a
/// view), runs of several lines (across many 64-byte blocks), empty strings; about a
/// quarter corrupted, a tenth null (half of those holding an invalid byte).
pub fn rows(n: usize, seed: u64) -> Vec<Row> {
    let texts = texts();
    let lines: Vec<&[u8]> = texts
        .iter()
        .flat_map(|t| t.split(|&b| b == b'\n'))
        .collect();
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut bytes: Vec<u8> = match rng.random_range(0..10) {
                0 => Vec::new(),
                1..=2 => {
                    let line = lines[rng.random_range(0..lines.len())];
                    let word = line.split(|&b| b == b' ').next().unwrap_or(b"");
                    word[..word.len().min(12)].to_vec()
                }
                3 => {
                    let start = rng.random_range(0..lines.len());
                    let count = rng.random_range(2..40);
                    lines[start..lines.len().min(start + count)].join(&b'\n')
                }
                _ => lines[rng.random_range(0..lines.len())].to_vec(),
            };
            if rng.random_bool(0.25) {
                corrupt(&mut rng, &mut bytes);
            }
            let null = rng.random_bool(0.1);
            if null && rng.random_bool(0.5) {
                bytes.push(0xFF);
            }
            Row { bytes, null }
        })
        .collect()
}

/// The rows in each binary layout, null rows keeping their bytes.
pub fn arrays(rows: &[Row]) -> Vec<ArrayRef> {
    let values: Vec<&[u8]> = rows.iter().map(|r| &r.bytes[..]).collect();
    let nulls = NullBuffer::from(rows.iter().map(|r| !r.null).collect::<Vec<bool>>());
    let (offsets, data, _) = BinaryArray::from_vec(values.clone()).into_parts();
    let (large_offsets, large_data, _) = LargeBinaryArray::from_vec(values.clone()).into_parts();
    let (views, buffers, _) = BinaryViewArray::from_iter(values.iter().map(Some)).into_parts();
    vec![
        Arc::new(BinaryArray::new(offsets, data, Some(nulls.clone()))),
        Arc::new(LargeBinaryArray::new(
            large_offsets,
            large_data,
            Some(nulls.clone()),
        )),
        Arc::new(BinaryViewArray::new(views, buffers, Some(nulls))),
    ]
}

/// The bytes of row `i` of a binary array of any layout (`None` if null).
pub fn row(array: &dyn Array, i: usize) -> Option<Vec<u8>> {
    use arrow_array::cast::AsArray;
    if array.is_null(i) {
        return None;
    }
    Some(match array.data_type() {
        arrow_schema::DataType::Binary => array.as_binary::<i32>().value(i).to_vec(),
        arrow_schema::DataType::LargeBinary => array.as_binary::<i64>().value(i).to_vec(),
        arrow_schema::DataType::BinaryView => array.as_binary_view().value(i).to_vec(),
        arrow_schema::DataType::Utf8 => array.as_string::<i32>().value(i).as_bytes().to_vec(),
        arrow_schema::DataType::LargeUtf8 => array.as_string::<i64>().value(i).as_bytes().to_vec(),
        arrow_schema::DataType::Utf8View => array.as_string_view().value(i).as_bytes().to_vec(),
        other => panic!("not bytes: {other}"),
    })
}

/// The string value of row `i` of a string array of any layout (`None` if null).
pub fn string(array: &dyn Array, i: usize) -> Option<String> {
    row(array, i).map(|b| String::from_utf8(b).expect("a string array holds UTF-8"))
}
