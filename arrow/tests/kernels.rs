//! Every kernel against the standard library, row by row: on rows of real text with random
//! corruption, nulls (holding invalid bytes too), empty strings, long values across many
//! 64-byte blocks, view values inline and in buffers; whole arrays and slices of them.

mod common;

use arrow_array::cast::AsArray;
use arrow_array::{Array, BinaryArray, BinaryViewArray, StringArray};
use arrow_schema::DataType;
use common::{arrays, row, rows, string, Row};
use vutf8::records::Policy;
use vutf8_arrow::kernels;
use vutf8_arrow::Utf8ArrayError;

/// What std says of one row: `None` if valid, else `(valid_up_to, kind)` from vutf8's
/// scalar reference (whose offsets std's must equal).
fn std_error(bytes: &[u8]) -> Option<usize> {
    std::str::from_utf8(bytes).err().map(|e| e.valid_up_to())
}

/// Checks every kernel on `array`, whose rows are `expected` (`None` for null).
fn check_all(array: &dyn Array, expected: &[Option<Vec<u8>>]) {
    let what = format!("{} of {} rows", array.data_type(), array.len());
    assert_eq!(array.len(), expected.len());

    let valid = kernels::is_valid_utf8(array).unwrap();
    let offsets = kernels::utf8_error_offsets(array).unwrap();
    let reasons = kernels::utf8_error_reasons(array).unwrap();
    let repaired = kernels::make_valid_utf8(array).unwrap();
    let tried = kernels::try_validate_utf8(array).unwrap();
    let string_type = repaired.data_type().clone();
    assert_eq!(tried.data_type(), &string_type);
    let mut first_invalid = None;
    for (i, value) in expected.iter().enumerate() {
        let Some(bytes) = value else {
            assert!(
                valid.is_null(i) && offsets.is_null(i) && reasons.is_null(i),
                "{what}: {i}"
            );
            assert!(repaired.is_null(i) && tried.is_null(i), "{what}: {i}");
            continue;
        };
        let error = std_error(bytes);
        assert_eq!(
            valid.value(i),
            error.is_none(),
            "{what}: row {i} {bytes:02X?}"
        );
        assert_eq!(
            string(repaired.as_ref(), i).unwrap(),
            String::from_utf8_lossy(bytes),
            "{what}: row {i}"
        );
        match error {
            None => {
                assert!(offsets.is_null(i) && reasons.is_null(i), "{what}: row {i}");
                assert_eq!(
                    row(tried.as_ref(), i).as_deref(),
                    Some(&bytes[..]),
                    "{what}: {i}"
                );
            }
            Some(at) => {
                first_invalid.get_or_insert(i);
                assert_eq!(offsets.value(i), at as i64, "{what}: row {i}");
                let kind = vutf8::from_utf8(bytes).unwrap_err().kind();
                assert_eq!(reasons.value(i), kind.description(), "{what}: row {i}");
                assert!(tried.is_null(i), "{what}: row {i}");
            }
        }
    }
    match (kernels::validate_utf8(array), first_invalid) {
        (Ok(strings), None) => {
            assert_eq!(strings.data_type(), &string_type);
            for (i, value) in expected.iter().enumerate() {
                assert_eq!(row(strings.as_ref(), i), *value, "{what}: row {i}");
            }
        }
        (Err(Utf8ArrayError::InvalidRow(e)), Some(first)) => {
            let bytes = expected[first].as_ref().unwrap();
            assert_eq!(
                (e.row, e.offset),
                (first, std_error(bytes).unwrap()),
                "{what}"
            );
            assert!(e
                .to_string()
                .contains(&format!("row {first} at byte {}", e.offset)));
        }
        (other, first) => panic!("{what}: validate gave {other:?}, first invalid {first:?}"),
    }
    assert_eq!(
        kernels::first_invalid_row(array).unwrap().map(|e| e.row),
        first_invalid,
        "{what}"
    );
    check_policies(array, expected, &what);
}

/// `repair_utf8` under every policy this build has: each row that is not null is what
/// `Policy::text` gives for that row alone (null where it gives none: `Drop`), null rows
/// stay null, the length stays; `Strict` gives what `validate_utf8` gives.
fn check_policies(array: &dyn Array, expected: &[Option<Vec<u8>>], what: &str) {
    for &policy in Policy::ALL {
        let result = kernels::repair_utf8(array, policy);
        if policy == Policy::Strict {
            let strict = kernels::validate_utf8(array);
            assert_eq!(
                result.map(|a| a.to_data()),
                strict.map(|a| a.to_data()),
                "{what}"
            );
            continue;
        }
        let out = result.unwrap();
        assert_eq!(out.len(), expected.len(), "{what}: {policy}");
        for (i, value) in expected.iter().enumerate() {
            let want = value.as_deref().and_then(|b| policy.text(b));
            assert_eq!(
                string(out.as_ref(), i).as_deref(),
                want.as_deref(),
                "{what}: {policy}, row {i}"
            );
        }
    }
}

fn expected(rows: &[Row]) -> Vec<Option<Vec<u8>>> {
    rows.iter().map(|r| r.value().map(<[u8]>::to_vec)).collect()
}

#[test]
fn every_kernel_agrees_with_std_on_real_text_with_corruption() {
    let mut checked = 0;
    for seed in 0..6 {
        let rows = rows(3000, seed);
        for array in arrays(&rows) {
            check_all(array.as_ref(), &expected(&rows));
            checked += array.len();
        }
    }
    assert_eq!(checked, 6 * 3 * 3000);
}

#[test]
fn slices_of_arrays_agree_with_std() {
    use rand::{Rng, SeedableRng};
    let rows = rows(4000, 99);
    let all = expected(&rows);
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for array in arrays(&rows) {
        for _ in 0..20 {
            let start = rng.random_range(0..array.len());
            let len = rng.random_range(0..=array.len() - start);
            check_all(array.slice(start, len).as_ref(), &all[start..start + len]);
        }
    }
}

/// Valid rows only (the null rows' bytes too): validation shares the input's buffers.
#[test]
fn validation_of_valid_rows_copies_no_value() {
    let rows: Vec<Row> = rows(5000, 3)
        .into_iter()
        .filter(|r| std::str::from_utf8(&r.bytes).is_ok())
        .collect();
    assert!(rows.iter().any(|r| r.null) && rows.len() > 3000);
    let all = expected(&rows);
    for array in arrays(&rows) {
        check_all(array.as_ref(), &all);
        let strings = kernels::validate_utf8(array.as_ref()).unwrap();
        let (input, output) = (array.to_data(), strings.to_data());
        match array.data_type() {
            DataType::BinaryView => {
                assert_eq!(input.buffers()[0].as_ptr(), output.buffers()[0].as_ptr());
                for (a, b) in input.buffers()[1..].iter().zip(&output.buffers()[1..]) {
                    assert_eq!(a.as_ptr(), b.as_ptr());
                }
            }
            _ => assert_eq!(input.buffers()[1].as_ptr(), output.buffers()[1].as_ptr()),
        }
        // A slice: the values are still shared (the offsets are rebased).
        let slice = array.slice(100, 2000);
        let strings = kernels::validate_utf8(slice.as_ref()).unwrap();
        let input = slice.to_data();
        let output = strings.to_data();
        let values = match slice.data_type() {
            DataType::BinaryView => 2,
            _ => 1,
        };
        let range = input.buffers()[values].as_slice().as_ptr_range();
        assert!(range.contains(&output.buffers()[values].as_ptr()));
    }
}

/// Repairing a view array writes only the repaired values: kept rows still point into the
/// input's buffers.
#[test]
fn repair_of_views_copies_only_repaired_rows() {
    let long = "a line of text that is longer than twelve bytes, ".repeat(3);
    let mut bad = long.clone().into_bytes();
    bad.insert(5, 0xFF);
    let input = BinaryViewArray::from_iter_values([long.as_bytes(), &bad, b"short", b"\xC3"]);
    let repaired = kernels::make_valid_utf8(&input).unwrap();
    let repaired = repaired.as_string_view();
    assert_eq!(repaired.value(0), long);
    assert_eq!(repaired.value(1), String::from_utf8_lossy(&bad));
    assert_eq!(
        (repaired.value(2), repaired.value(3)),
        ("short", "\u{FFFD}")
    );
    assert_eq!(repaired.views()[0], input.views()[0]);
    assert_eq!(repaired.views()[2], input.views()[2]);
    let old = input.data_buffers().len();
    assert_eq!(repaired.data_buffers().len(), old + 1);
    assert_eq!(
        repaired.data_buffers()[old].len(),
        String::from_utf8_lossy(&bad).len()
    );
}

/// Only null rows hold invalid bytes: validation succeeds (those rows are emptied, as
/// Arrow requires of a string array) and the values are what they were.
#[test]
fn invalid_bytes_under_nulls_do_not_fail_validation() {
    let values: Vec<&[u8]> = vec![b"ok", b"\xFF\xFE", b"fine \xE2\x82\xAC", b"\xC0"];
    let nulls = arrow_buffer::NullBuffer::from(vec![true, false, true, false]);
    let (offsets, data, _) = BinaryArray::from_vec(values.clone()).into_parts();
    let array = BinaryArray::new(offsets, data, Some(nulls));
    let strings = kernels::validate_utf8(&array).unwrap();
    let strings = strings.as_any().downcast_ref::<StringArray>().unwrap();
    assert_eq!(strings.value(0), "ok");
    assert_eq!(strings.value(2), "fine €");
    assert!(strings.is_null(1) && strings.is_null(3));
    // What Arrow itself checks of a string array holds.
    let (o, v, n) = strings.clone().into_parts();
    StringArray::try_new(o, v, n).unwrap();
}

/// The typed entry points, and the error for what is not bytes.
#[test]
fn typed_entry_points_and_unsupported_types() {
    let input = BinaryArray::from_vec(vec![b"abc", "été".as_bytes()]);
    let strings = kernels::binary_to_string(&input).unwrap();
    assert_eq!(strings.value(1), "été");
    let views = BinaryViewArray::from_iter_values([b"x".as_slice(), b"\xF4\x90\x80\x80"]);
    let error = kernels::binary_view_to_string_view(&views).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid UTF-8 in row 1 at byte 0: code point above U+10FFFF (bytes F4 90 80 80)"
    );
    let numbers = arrow_array::Int32Array::from(vec![1, 2]);
    let error = kernels::is_valid_utf8(&numbers).unwrap_err();
    assert_eq!(error, Utf8ArrayError::UnsupportedType(DataType::Int32));
    assert_eq!(
        error.to_string(),
        "expected a binary or string array, got Int32"
    );
}

/// String arrays are checked as the bytes they are, and give their own type back.
#[test]
fn string_arrays_are_checked_too() {
    let strings = StringArray::from(vec![Some("añb"), None, Some("")]);
    let valid = kernels::is_valid_utf8(&strings).unwrap();
    assert!(valid.value(0) && valid.is_null(1) && valid.value(2));
    let same = kernels::validate_utf8(&strings).unwrap();
    assert_eq!(same.data_type(), &DataType::Utf8);
    let views = arrow_array::StringViewArray::from(vec!["a", "a longer value than twelve"]);
    assert_eq!(
        kernels::make_valid_utf8(&views).unwrap().data_type(),
        &DataType::Utf8View
    );
    let large = arrow_array::LargeStringArray::from(vec!["x"]);
    assert_eq!(
        kernels::try_validate_utf8(&large).unwrap().data_type(),
        &DataType::LargeUtf8
    );
}

/// Rows cut from one valid text at every set of positions, inside characters too: the
/// values buffer has no error at all, so each row's verdict comes from its two ends alone.
#[test]
fn rows_cut_from_valid_text_at_every_set_of_positions() {
    let text = "añ€😀b".as_bytes();
    for cuts in 0u32..1 << (text.len() - 1) {
        let mut rows: Vec<&[u8]> = Vec::new();
        let mut start = 0;
        for i in 1..text.len() {
            if cuts >> (i - 1) & 1 == 1 {
                rows.push(&text[start..i]);
                start = i;
            }
        }
        rows.push(&text[start..]);
        let expected: Vec<Option<Vec<u8>>> = rows.iter().map(|r| Some(r.to_vec())).collect();
        check_all(&BinaryArray::from_vec(rows), &expected);
    }
    // Views: values of more than 12 bytes lie in a data buffer, back to back.
    let text = "añ€😀".repeat(3);
    for cut in 0..=text.len() {
        let rows = [&text.as_bytes()[..cut], &text.as_bytes()[cut..]];
        let expected: Vec<Option<Vec<u8>>> = rows.iter().map(|r| Some(r.to_vec())).collect();
        check_all(&BinaryViewArray::from_iter_values(rows), &expected);
    }
}
