//! Sample data for the examples and the cluster test: application log lines in several
//! languages, as an ingest pipeline sees them, with the damage real logs carry (Latin-1
//! text in a UTF-8 log, lines cut inside a character, stray bytes, overlong encodings).

use std::sync::Arc;

use arrow::array::{ArrayRef, BinaryArray, Int64Array, RecordBatch, StringArray};
use arrow::datatypes::{DataType, Field, Schema};

/// Messages an application logs, in several scripts.
const MESSAGES: [&str; 16] = [
    "user 4711 logged in from 192.0.2.17",
    "GET /api/v2/orders?id=93 200 12ms",
    "Benutzer „müller“ hat sich angemeldet",
    "Connexion réussie pour l’utilisateur « zoé »",
    "Пользователь вошёл в систему",
    "ユーザーがログインしました（セッション 42）",
    "用户已登录，会话编号 42",
    "사용자가 로그인했습니다",
    "Ο χρήστης συνδέθηκε",
    "המשתמש התחבר למערכת",
    "تم تسجيل دخول المستخدم",
    "उपयोगकर्ता ने लॉग इन किया",
    "ผู้ใช้เข้าสู่ระบบแล้ว",
    "payment of 12,50 € accepted",
    "{\"event\":\"deploy\",\"service\":\"api\",\"ok\":true}",
    "cache warm-up finished ✓ 🚀",
];

/// The levels of the lines.
const LEVELS: [&str; 4] = ["INFO", "WARN", "ERROR", "DEBUG"];

/// The schema of [`log_lines`]: `id BIGINT, level STRING, msg BINARY`.
pub fn schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("level", DataType::Utf8, false),
        Field::new("msg", DataType::Binary, true),
    ]))
}

/// `rows` log lines numbered from `first_id`: about one in `every` damaged, one in 50
/// null. The same arguments give the same lines.
pub fn log_lines(first_id: i64, rows: usize, every: usize) -> RecordBatch {
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ first_id as u64;
    let mut next = move || {
        // xorshift64*: a fixed, dependency-free sequence.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut ids = Vec::with_capacity(rows);
    let mut levels = Vec::with_capacity(rows);
    let mut messages: Vec<Option<Vec<u8>>> = Vec::with_capacity(rows);
    for i in 0..rows {
        let id = first_id + i as i64;
        let r = next();
        ids.push(id);
        levels.push(LEVELS[(r % 4) as usize]);
        let text = MESSAGES[(r >> 8) as usize % MESSAGES.len()];
        let mut msg = format!(
            "2026-11-23T10:{:02}:{:02}Z {}",
            (id / 60) % 60,
            id % 60,
            text
        )
        .into_bytes();
        if (r >> 16) % 50 == 0 {
            messages.push(None);
            continue;
        }
        if every > 0 && ((r >> 24) as usize).is_multiple_of(every) {
            damage(&mut msg, r >> 32);
        }
        messages.push(Some(msg));
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from(ids)),
        Arc::new(StringArray::from(levels)),
        Arc::new(BinaryArray::from_iter(messages)),
    ];
    RecordBatch::try_new(schema(), columns).expect("columns match the schema")
}

/// One kind of damage real logs carry.
fn damage(msg: &mut Vec<u8>, r: u64) {
    let at = 21 + (r as usize >> 3) % (msg.len() - 21);
    match r % 5 {
        // A Latin-1 "é" from a system that does not speak UTF-8.
        0 => msg.splice(at..at, *b" caf\xE9").for_each(drop),
        // Cut by a fixed-size buffer inside a character: "€" without its last byte.
        1 => {
            msg.truncate(at);
            msg.extend_from_slice(b" \xE2\x82");
        }
        // A stray byte.
        2 => msg.insert(at, 0xFF),
        // An overlong "/" that a naive decoder would accept.
        3 => msg.splice(at..at, *b"\xC0\xAF").for_each(drop),
        // An encoded surrogate, as CESU-8 writes.
        _ => msg.splice(at..at, *b"\xED\xA0\x80").for_each(drop),
    }
}
