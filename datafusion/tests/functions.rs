//! The SQL functions, through DataFusion: every function on every input type against the
//! standard library per row, NULL handling, scalar arguments, the error of
//! `validate_utf8`, bad argument types and counts, and arrays of millions of rows.

// The rows and arrays vutf8-arrow's kernel tests use, so both check the same data.
#[path = "../../arrow/tests/common/mod.rs"]
mod common;

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, AsArray, BinaryArray, RecordBatch};
use arrow::datatypes::{DataType, Field, Schema};
use common::{arrays, row, rows, string, Row};
use datafusion::datasource::MemTable;
use datafusion::prelude::SessionContext;

/// A context with the functions and a table `t(id, x)` holding `x` in batches.
async fn context_with(x: ArrayRef, batch: usize) -> SessionContext {
    let ctx = SessionContext::new();
    vutf8_datafusion::register(&ctx);
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("x", x.data_type().clone(), true),
    ]));
    let ids: ArrayRef = Arc::new(arrow::array::Int64Array::from_iter_values(
        0..x.len() as i64,
    ));
    let batches: Vec<RecordBatch> = (0..x.len())
        .step_by(batch)
        .map(|start| {
            let len = batch.min(x.len() - start);
            RecordBatch::try_new(
                schema.clone(),
                vec![ids.slice(start, len), x.slice(start, len)],
            )
            .unwrap()
        })
        .collect();
    let table = MemTable::try_new(schema, vec![batches]).unwrap();
    ctx.register_table("t", Arc::new(table)).unwrap();
    ctx
}

/// The one column of a query's result, in `id` order, as one array.
async fn column(ctx: &SessionContext, sql: &str) -> ArrayRef {
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    let arrays: Vec<&dyn Array> = batches.iter().map(|b| b.column(0).as_ref()).collect();
    arrow::compute::concat(&arrays).unwrap()
}

async fn error_of(ctx: &SessionContext, sql: &str) -> String {
    match ctx.sql(sql).await {
        Err(e) => e.to_string(),
        Ok(df) => match df.collect().await {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{sql} did not fail"),
        },
    }
}

#[tokio::test]
async fn every_function_agrees_with_std_on_every_type() {
    let rows: Vec<Row> = rows(5000, 11);
    let mut inputs = arrays(&rows);
    // The string types: valid rows only (Arrow's promise), checked all the same.
    let valid: Vec<Option<&str>> = rows
        .iter()
        .map(|r| std::str::from_utf8(&r.bytes).ok().filter(|_| !r.null))
        .collect();
    inputs.push(Arc::new(arrow::array::StringArray::from(valid.clone())));
    inputs.push(Arc::new(arrow::array::LargeStringArray::from(
        valid.clone(),
    )));
    inputs.push(Arc::new(arrow::array::StringViewArray::from(valid)));
    for x in inputs {
        let what = x.data_type().to_string();
        let ctx = context_with(x.clone(), 777).await;
        let q = |f: &str| format!("SELECT {f}(x) FROM t ORDER BY id");
        let valid = column(&ctx, &q("is_valid_utf8")).await;
        let repaired = column(&ctx, &q("make_valid_utf8")).await;
        let tried = column(&ctx, &q("try_validate_utf8")).await;
        let offsets = column(&ctx, &q("utf8_error_offset")).await;
        let reasons = column(&ctx, &q("utf8_error_reason")).await;
        let (valid, offsets) = (
            valid.as_boolean(),
            offsets.as_primitive::<arrow::datatypes::Int64Type>(),
        );
        for i in 0..x.len() {
            let Some(bytes) = row(x.as_ref(), i) else {
                assert!(
                    valid.is_null(i) && repaired.is_null(i) && tried.is_null(i),
                    "{what} {i}"
                );
                assert!(offsets.is_null(i) && reasons.is_null(i), "{what} {i}");
                continue;
            };
            let std = std::str::from_utf8(&bytes);
            assert_eq!(valid.value(i), std.is_ok(), "{what} {i}");
            assert_eq!(
                string(repaired.as_ref(), i).unwrap(),
                String::from_utf8_lossy(&bytes),
                "{what} {i}"
            );
            match std {
                Ok(text) => {
                    assert_eq!(
                        string(tried.as_ref(), i).as_deref(),
                        Some(text),
                        "{what} {i}"
                    );
                    assert!(offsets.is_null(i) && reasons.is_null(i), "{what} {i}");
                }
                Err(e) => {
                    assert!(tried.is_null(i), "{what} {i}");
                    assert_eq!(offsets.value(i), e.valid_up_to() as i64, "{what} {i}");
                    let kind = vutf8::from_utf8(&bytes).unwrap_err().kind();
                    assert_eq!(string(reasons.as_ref(), i).unwrap(), kind.description());
                }
            }
        }
        // validate_utf8: the whole query fails on the first invalid row, or returns the rows.
        let first_bad = (0..x.len())
            .find(|&i| row(x.as_ref(), i).is_some_and(|b| std::str::from_utf8(&b).is_err()));
        match first_bad {
            Some(_) => {
                let message = error_of(&ctx, &q("validate_utf8")).await;
                assert!(
                    message.contains("[INVALID_UTF8_STRING] validate_utf8: invalid UTF-8 in row"),
                    "{message}"
                );
            }
            None => {
                let strings = column(&ctx, &q("validate_utf8")).await;
                for i in 0..x.len() {
                    assert_eq!(row(strings.as_ref(), i), row(x.as_ref(), i), "{what} {i}");
                }
            }
        }
    }
}

#[tokio::test]
async fn result_types_follow_the_argument() {
    let ctx = SessionContext::new();
    vutf8_datafusion::register(&ctx);
    let cases = [
        ("X'41'", "Binary", "Utf8"),
        (
            "arrow_cast(X'41', 'LargeBinary')",
            "LargeBinary",
            "LargeUtf8",
        ),
        ("arrow_cast(X'41', 'BinaryView')", "BinaryView", "Utf8View"),
        ("'A'", "Utf8", "Utf8"),
        ("arrow_cast('A', 'LargeUtf8')", "LargeUtf8", "LargeUtf8"),
        ("arrow_cast('A', 'Utf8View')", "Utf8View", "Utf8View"),
    ];
    for (arg, input, output) in cases {
        for (f, t) in [
            ("make_valid_utf8", output),
            ("validate_utf8", output),
            ("try_validate_utf8", output),
            ("is_valid_utf8", "Boolean"),
            ("utf8_error_offset", "Int64"),
            ("utf8_error_reason", "Utf8"),
        ] {
            let sql = format!("SELECT arrow_typeof({f}({arg})), arrow_typeof({arg})");
            let batches = ctx.sql(&sql).await.unwrap().collect().await.unwrap();
            let types = batches[0].column(0).as_string::<i32>().value(0).to_string();
            let arg_type = batches[0].column(1).as_string::<i32>().value(0).to_string();
            assert_eq!((arg_type.as_str(), types.as_str()), (input, t), "{sql}");
        }
    }
}

#[tokio::test]
async fn scalars_and_nulls() {
    let ctx = SessionContext::new();
    vutf8_datafusion::register(&ctx);
    let sql = "SELECT is_valid_utf8(X'C0AF'), make_valid_utf8(X'61C0AF62'), \
               try_validate_utf8(X'FF'), utf8_error_offset(X'6162ED A080'), \
               utf8_error_reason(X'ED A080'), validate_utf8('ok'), \
               is_valid_utf8(NULL), make_valid_utf8(NULL), utf8_error_offset(X'6162')";
    let sql = sql.replace("ED A080", "EDA080");
    let batches = ctx.sql(&sql).await.unwrap().collect().await.unwrap();
    let text = arrow::util::pretty::pretty_format_batches(&batches)
        .unwrap()
        .to_string();
    let values: Vec<&str> = text
        .lines()
        .nth(3)
        .unwrap()
        .split('|')
        .map(str::trim)
        .collect();
    assert_eq!(
        &values[1..10],
        [
            "false",
            "a\u{FFFD}\u{FFFD}b",
            "",
            "2",
            "encoded surrogate",
            "ok",
            "",
            "",
            ""
        ],
        "{text}"
    );
    let message = error_of(&ctx, "SELECT validate_utf8(X'41E282')").await;
    assert!(
        message.contains(
            "[INVALID_UTF8_STRING] validate_utf8: invalid UTF-8 in row 0 at byte 1: \
             input ends inside a sequence (bytes E2 82) (rows are counted from 0 within each \
             record batch)"
        ),
        "{message}"
    );
}

#[tokio::test]
async fn bad_arguments_are_plan_errors() {
    let ctx = SessionContext::new();
    vutf8_datafusion::register(&ctx);
    for f in vutf8_datafusion::Utf8Function::ALL.map(|f| f.name()) {
        for (arg, t) in [
            ("1", "Int64"),
            ("1.5", "Float64"),
            ("true", "Boolean"),
            ("[1]", "List"),
        ] {
            let message = error_of(&ctx, &format!("SELECT {f}({arg})")).await;
            assert!(
                message.contains(&format!("{f} expects a binary or string argument"))
                    && message.contains(t),
                "{f}({arg}): {message}"
            );
        }
        for args in ["", "X'41', X'42'"] {
            let message = error_of(&ctx, &format!("SELECT {f}({args})")).await;
            assert!(
                message.contains(f) && message.contains("argument"),
                "{f}({args}): {message}"
            );
        }
    }
}

/// Two million rows in DataFusion's batches: counts match std's, no error.
#[tokio::test]
async fn millions_of_rows() {
    let base = rows(20_000, 5);
    let n = 2_000_000;
    let values: Vec<&[u8]> = (0..n).map(|i| &base[i % base.len()].bytes[..]).collect();
    let invalid = values
        .iter()
        .filter(|v| std::str::from_utf8(v).is_err())
        .count();
    let x: ArrayRef = Arc::new(BinaryArray::from_vec(values));
    let ctx = context_with(x, 8192).await;
    let counted = column(&ctx, "SELECT count(*) FROM t WHERE NOT is_valid_utf8(x)").await;
    assert_eq!(
        counted
            .as_primitive::<arrow::datatypes::Int64Type>()
            .value(0),
        invalid as i64
    );
    let repaired = column(&ctx, "SELECT sum(length(make_valid_utf8(x))) FROM t").await;
    assert!(
        repaired
            .as_primitive::<arrow::datatypes::Int64Type>()
            .value(0)
            > 0
    );
    let nulls = column(
        &ctx,
        "SELECT count(*) FROM t WHERE try_validate_utf8(x) IS NULL",
    )
    .await;
    assert_eq!(
        nulls.as_primitive::<arrow::datatypes::Int64Type>().value(0),
        invalid as i64
    );
}

/// A repair that would pass the 2 GiB a `Utf8` array holds is an error, not a panic; the
/// same rows as `LargeBinary` repair fine.
#[tokio::test]
async fn repair_past_two_gib_is_an_error() {
    // 2^31 - 64 bytes of valid text and one row of 32 bytes that each become 3.
    let big = vec![b'a'; (1 << 31) - 64];
    let bad = [0xFFu8; 32];
    let x = BinaryArray::from_vec(vec![&big[..], &bad[..]]);
    let error = vutf8_datafusion::kernels::make_valid_utf8(&x).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("the result does not fit a Utf8 array: row 1 would end at byte"),
        "{error}"
    );
    let ctx = context_with(Arc::new(x), 2).await;
    let message = error_of(&ctx, "SELECT make_valid_utf8(x) FROM t").await;
    assert!(message.contains("does not fit a Utf8 array"), "{message}");
}
