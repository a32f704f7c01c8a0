//! Deterministic text in several scripts, for benchmarks, tests and fuzz seeds.
//!
//! Nothing is downloaded: each script has a small built-in vocabulary of real words (or,
//! for emoji, real emoji sequences), and [`generate`] strings them together with spaces and
//! punctuation, driven by a fixed-seed xorshift generator, until the text has exactly the
//! requested length. The same `(script, len, seed)` always gives the same bytes, on every
//! machine. The output is always valid UTF-8 and never splits a character: if the last
//! word does not fit, the text is padded with ASCII spaces.
//!
//! [`with_error`] then corrupts one such text at a chosen place with a chosen kind of
//! error, for the "error near the start / middle / end" inputs.
//!
//! The `samples/` folder holds a 4 KiB sample of each script, written by
//! `cargo run -p vutf8-corpus --example write-samples`, so people can look at what is
//! generated.

#![deny(missing_docs)]

/// The kinds of text the corpus can generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Script {
    /// English prose: pure ASCII.
    Ascii,
    /// French, German, Czech and Polish prose: mostly 1-byte, some 2-byte characters.
    Latin,
    /// Russian (Cyrillic) and Greek prose: mostly 2-byte characters.
    Cyrillic,
    /// Chinese and Japanese prose: mostly 3-byte characters.
    Cjk,
    /// Emoji with short ASCII separators: mostly 4-byte characters.
    Emoji,
    /// JSON records with ASCII keys and string values in every script: a realistic mix.
    Mixed,
}

impl Script {
    /// Every script, in the order above.
    pub const ALL: [Script; 6] = [
        Script::Ascii,
        Script::Latin,
        Script::Cyrillic,
        Script::Cjk,
        Script::Emoji,
        Script::Mixed,
    ];

    /// A short lower-case name: `ascii`, `latin`, `cyrillic`, `cjk`, `emoji`, `mixed`.
    pub const fn name(self) -> &'static str {
        match self {
            Script::Ascii => "ascii",
            Script::Latin => "latin",
            Script::Cyrillic => "cyrillic",
            Script::Cjk => "cjk",
            Script::Emoji => "emoji",
            Script::Mixed => "mixed",
        }
    }

    fn words(self) -> &'static [&'static str] {
        match self {
            Script::Ascii => &[
                "the",
                "quick",
                "brown",
                "fox",
                "jumps",
                "over",
                "lazy",
                "dog",
                "validation",
                "of",
                "logs",
                "arrives",
                "in",
                "pieces",
                "and",
                "every",
                "byte",
                "counts",
                "server",
                "request",
                "completed",
                "with",
                "status",
                "error",
                "warning",
            ],
            Script::Latin => &[
                "être",
                "déjà",
                "où",
                "français",
                "garçon",
                "Größe",
                "Straße",
                "über",
                "schön",
                "Mädchen",
                "příliš",
                "žluťoučký",
                "kůň",
                "úpěl",
                "ďábelské",
                "ódy",
                "zażółć",
                "gęślą",
                "jaźń",
                "la",
                "de",
                "und",
                "der",
                "est",
                "ist",
                "na",
                "się",
                "le",
                "café",
                "naïve",
                "Ærø",
                "smørrebrød",
                "año",
                "mañana",
                "ação",
                "coração",
                "pour",
                "avec",
                "dans",
                "les",
                "des",
                "une",
                "nicht",
                "eine",
                "mit",
                "auf",
                "jest",
                "nie",
                "jak",
                "ale",
                "que",
                "por",
                "para",
                "como",
                "mais",
                "sont",
                "werden",
                "haben",
                "wir",
                "nous",
                "vous",
                "ils",
                "temps",
                "Zeit",
                "Haus",
            ],
            Script::Cyrillic => &[
                "съешь",
                "же",
                "ещё",
                "этих",
                "мягких",
                "французских",
                "булок",
                "да",
                "выпей",
                "чаю",
                "широкая",
                "электрификация",
                "южных",
                "губерний",
                "Ξεσκεπάζω",
                "την",
                "ψυχοφθόρα",
                "βδελυγμία",
                "Γαζέες",
                "καὶ",
                "μυρτιὲς",
                "δὲν",
                "θὰ",
                "βρῶ",
                "πιὰ",
                "στὸ",
                "χρυσαφὶ",
                "ξέφωτο",
                "Україна",
                "їжак",
            ],
            Script::Cjk => &[
                "日本語",
                "の",
                "文章",
                "を",
                "検証",
                "する",
                "高速",
                "な",
                "方法",
                "中文",
                "字符",
                "验证",
                "速度",
                "很",
                "快",
                "漢字",
                "ひらがな",
                "カタカナ",
                "東京",
                "北京",
                "上海",
                "大阪",
                "世界",
                "你好",
                "こんにちは",
                "ありがとう",
                "、",
                "。",
                "한국어",
                "안녕하세요",
            ],
            Script::Emoji => &[
                "😀",
                "😃",
                "😄",
                "😁",
                "😆",
                "🤣",
                "😂",
                "🙂",
                "🙃",
                "😉",
                "🚀",
                "🌍",
                "🎉",
                "💡",
                "🔥",
                "✅",
                "🐍",
                "🦀",
                "👍",
                "🙏",
                "🇫🇷",
                "🇯🇵",
                "👩‍💻",
                "👨‍👩‍👧",
                "🏳️‍🌈",
                "🧪",
                "📦",
                "🧵",
                "🛰️",
                "🪐",
            ],
            Script::Mixed => &[],
        }
    }
}

/// A small, fast, deterministic pseudo-random generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value; 0 is remapped).
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `len` bytes of valid UTF-8 text in `script`, the same for the same arguments.
pub fn generate(script: Script, len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed ^ (script as u64) << 56);
    let mut out = String::with_capacity(len + 64);
    while out.len() < len {
        let piece = match script {
            Script::Mixed => mixed_record(&mut rng),
            _ => sentence(script, &mut rng),
        };
        let room = len - out.len();
        if piece.len() <= room {
            out.push_str(&piece);
        } else {
            // Take whole characters that fit, then pad with spaces.
            let mut cut = room;
            while !piece.is_char_boundary(cut) {
                cut -= 1;
            }
            out.push_str(&piece[..cut]);
            while out.len() < len {
                out.push(' ');
            }
        }
    }
    debug_assert_eq!(out.len(), len);
    out.into_bytes()
}

fn sentence(script: Script, rng: &mut Rng) -> String {
    let words = script.words();
    let n = 3 + rng.below(9);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 && script != Script::Cjk {
            s.push(' ');
        }
        s.push_str(words[rng.below(words.len())]);
    }
    s.push_str(match (script, rng.below(4)) {
        (Script::Cjk, _) => "。",
        (_, 0) => ".\n",
        (_, 1) => ", ",
        (_, 2) => "! ",
        _ => ". ",
    });
    s
}

fn mixed_record(rng: &mut Rng) -> String {
    let scripts = [
        Script::Ascii,
        Script::Latin,
        Script::Cyrillic,
        Script::Cjk,
        Script::Emoji,
    ];
    let script = scripts[rng.below(scripts.len())];
    let words = script.words();
    let name = words[rng.below(words.len())];
    let text = sentence(script, rng);
    format!(
        "{{\"id\":{},\"lang\":\"{}\",\"name\":\"{}\",\"text\":\"{}\",\"ok\":{}}}\n",
        rng.next_u64() % 100_000,
        script.name(),
        name,
        text.trim_end().replace('\n', "\\n"),
        rng.below(2) == 1
    )
}

/// The kinds of error [`with_error`] can put into a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Corruption {
    /// A stray continuation byte `0x80`.
    StrayContinuation,
    /// The overlong `C0 AF` (an encoded `/`).
    Overlong,
    /// `ED A0 80`, the encoding of the surrogate U+D800.
    Surrogate,
    /// `F4 90 80 80`, a value above U+10FFFF.
    TooLarge,
    /// A 3-byte lead `E2` followed by ASCII.
    TooShort,
    /// A byte that never appears: `0xFF`.
    InvalidByte,
}

impl Corruption {
    /// Every corruption.
    pub const ALL: [Corruption; 6] = [
        Corruption::StrayContinuation,
        Corruption::Overlong,
        Corruption::Surrogate,
        Corruption::TooLarge,
        Corruption::TooShort,
        Corruption::InvalidByte,
    ];

    /// The bytes written into the text.
    pub const fn bytes(self) -> &'static [u8] {
        match self {
            Corruption::StrayContinuation => b"\x80",
            Corruption::Overlong => b"\xC0\xAF",
            Corruption::Surrogate => b"\xED\xA0\x80",
            Corruption::TooLarge => b"\xF4\x90\x80\x80",
            Corruption::TooShort => b"\xE2a",
            Corruption::InvalidByte => b"\xFF",
        }
    }
}

/// `text` with `corruption` written over it at the first character boundary at or after
/// `at` (clamped so it fits). Returns the corrupted text and the offset of the error, which
/// is what `valid_up_to` must report.
pub fn with_error(text: &[u8], at: usize, corruption: Corruption) -> (Vec<u8>, usize) {
    let bad = corruption.bytes();
    assert!(text.len() >= bad.len() + 4, "text too short to corrupt");
    let mut pos = at.min(text.len() - bad.len() - 4);
    while text[pos] & 0xC0 == 0x80 {
        pos += 1;
    }
    let mut out = text[..pos].to_vec();
    out.extend_from_slice(bad);
    // Resume after the bad bytes at a character boundary, so the only error is ours.
    let mut resume = pos + bad.len();
    while resume < text.len() && text[resume] & 0xC0 == 0x80 {
        resume += 1;
    }
    out.extend_from_slice(&text[resume..]);
    (out, pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generates_exact_lengths_of_valid_text() {
        for script in Script::ALL {
            for len in (0..300).chain([4096, 65536, 1 << 20]) {
                let t = generate(script, len, 1);
                assert_eq!(t.len(), len);
                assert!(std::str::from_utf8(&t).is_ok(), "{script:?} {len}");
                assert_eq!(t, generate(script, len, 1), "deterministic");
            }
        }
    }

    #[test]
    fn scripts_have_their_byte_mix() {
        let share = |s: Script, w: usize| {
            let t = String::from_utf8(generate(s, 1 << 16, 7)).unwrap();
            let n = t.chars().filter(|c| c.len_utf8() == w).count();
            n as f64 / t.chars().count() as f64
        };
        assert_eq!(share(Script::Ascii, 1), 1.0);
        assert!(share(Script::Latin, 1) > 0.8);
        assert!(share(Script::Cyrillic, 2) > 0.6);
        assert!(share(Script::Cjk, 3) > 0.6);
        assert!(share(Script::Emoji, 4) > 0.3);
    }

    #[test]
    fn corruption_lands_where_reported() {
        let text = generate(Script::Cjk, 1000, 3);
        for c in Corruption::ALL {
            for at in [0, 1, 2, 500, 990] {
                let (bad, pos) = with_error(&text, at, c);
                let e = std::str::from_utf8(&bad).unwrap_err();
                assert_eq!(e.valid_up_to(), pos, "{c:?} at {at}");
            }
        }
    }
}
