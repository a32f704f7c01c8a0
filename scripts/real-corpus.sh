#!/usr/bin/env bash
# Builds the real-text corpus (docs/CORPUS.md): files people actually have, in 15 scripts,
# from pinned public packages that this machine's package managers reach. Nothing here is
# committed; the downloads are cached, so a second run takes a second.
#
#   target/real-corpus/
#     man/   man-page source (roff), every page of a translated man-page package, one file
#            per language (Debian's manpages-*; 0.5-11 MB)
#     html/  the Debian Reference, one chapter as HTML per translation (64-650 KB)
#     text/  the Debian Reference as plain text, one whole book per translation (0.5-1.5 MB)
#     json/  CLDR's emoji annotations, one JSON file per locale (npm cldr-annotations-full;
#            Arabic, Hindi, Thai, Korean, Hebrew, Greek, Georgian, ... 0.1-0.6 MB)
#     damaged/  four copies of the files above with one real-world kind of damage each
#            (see below): the files the README's first command finds
#
# Usage: scripts/real-corpus.sh [DIR]   (default target/real-corpus; downloads are cached in
# DIR-downloads). Needs apt-get (with package lists: it runs `apt-get update` once if a
# download fails), dpkg-deb, npm and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/real-corpus}
cache="$out-downloads"
mkdir -p "$cache"

# Pinned versions (Debian 12 "bookworm"; npm). Licences: docs/CORPUS.md.
debs=(
    manpages=6.03-2
    manpages-ja=0.5.0.0.20221215+dfsg-1
    manpages-ru=4.18.1-1
    manpages-uk=4.18.1-1
    manpages-de=4.18.1-1
    manpages-fr=4.18.1-1
    manpages-pl=1:4.18.1-1
    manpages-cs=4.18.1-1
    manpages-zh=1.6.4.0-1
    debian-reference-en=2.100
    debian-reference-ja=2.100
    debian-reference-zh-cn=2.100
    debian-reference-zh-tw=2.100
    debian-reference-de=2.100
    debian-reference-fr=2.100
    debian-reference-es=2.100
    debian-reference-it=2.100
    debian-reference-pt=2.100
)
cldr=cldr-annotations-full@48.2.0
locales=(ar hi th ko he el ka hy am ta bn ru ja zh vi en)

# shellcheck source=scripts/lib/debian.sh
source scripts/lib/debian.sh
fetch_pinned_debs real-corpus "$cache" "${debs[@]}"
tgz="$cache/cldr-annotations-full-${cldr#*@}.tgz"
if [ ! -f "$tgz" ]; then
    echo "real-corpus: downloading $cldr from npm" >&2
    (cd "$cache" && npm pack -q "$cldr" >/dev/null 2>&1)
fi

rm -rf "$out"
mkdir -p "$out"/{man,html,text,json,damaged}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for deb in "$cache"/*.deb; do
    dpkg-deb -x "$deb" "$work/root"
done
tar xzf "$tgz" -C "$work"

# Man pages: every page of each language, decompressed, in a stable order, one file.
for dir in "$work"/root/usr/share/man/*/ "$work/root/usr/share/man/man1"; do
    lang=$(basename "$dir")
    case $lang in man*) lang=en dir="$work/root/usr/share/man" ;; esac
    if [ "$lang" = en ]; then
        files=$(find "$dir" -maxdepth 2 -path '*/man[0-9]*/*.gz' -type f | sort)
    else
        files=$(find "$dir" -name '*.gz' -type f | sort)
    fi
    # shellcheck disable=SC2086
    [ -n "$files" ] && zcat $files >"$out/man/manpages-$lang.man"
done

# The Debian Reference: chapter 1 (system tutorial) as HTML, the whole book as text.
for f in "$work"/root/usr/share/debian-reference/ch01.*.html; do
    lang=$(basename "$f" .html)
    lang=${lang#ch01.}
    cp "$f" "$out/html/debian-reference-ch01.$lang.html"
done
for f in "$work"/root/usr/share/debian-reference/debian-reference.*.txt.gz; do
    lang=$(basename "$f" .txt.gz)
    lang=${lang#debian-reference.}
    zcat "$f" >"$out/text/debian-reference.$lang.txt"
done

# CLDR emoji annotations, one locale a file.
for l in "${locales[@]}"; do
    cp "$work/package/annotations/$l/annotations.json" "$out/json/cldr-annotations.$l.json"
done

# Four kinds of damage that real pipelines meet, each in a copy of a real file.
python3 - "$out" <<'EOF'
import sys, pathlib
out = pathlib.Path(sys.argv[1])
dmg = out / "damaged"
# 1. Text re-encoded in Latin-1 by a tool that assumed the wrong charset.
de = (out / "man/manpages-de.man").read_text(encoding="utf-8")
(dmg / "manpages-de.latin1.man").write_bytes(de[: 1 << 16].encode("latin-1", errors="replace"))
# 2. A download cut short in the middle of a character.
ja = (out / "html/debian-reference-ch01.ja.html").read_bytes()
cut = len(ja) // 2
while (ja[cut] & 0xC0) != 0x80:
    cut += 1
(dmg / "debian-reference-ch01.ja.truncated.html").write_bytes(ja[:cut])
# 3. An emoji written as a UTF-16 surrogate pair, each half encoded alone (CESU-8, as
#    Java's "modified UTF-8" does).
ar = (out / "json/cldr-annotations.ar.json").read_bytes()
cesu = "\U0001F600".encode("utf-16-be")
halves = [int.from_bytes(cesu[i : i + 2], "big") for i in (0, 2)]
enc = b"".join(chr(h).encode("utf-8", errors="surrogatepass") for h in halves)
at = ar.index(b'"', len(ar) // 3)
(dmg / "cldr-annotations.ar.cesu8.json").write_bytes(ar[:at] + enc + ar[at:])
# 4. An overlong encoding of '/' (C0 AF), the classic path-traversal trick.
ru = (out / "man/manpages-ru.man").read_bytes()[: 1 << 16]
at = ru.index(b"/", len(ru) // 2)
(dmg / "manpages-ru.overlong.man").write_bytes(ru[:at] + b"\xC0\xAF" + ru[at + 1 :])
EOF

files=$(find "$out" -type f | wc -l)
bytes=$(du -sb "$out" | cut -f1)
echo "real-corpus: $files files, $((bytes / 1000000)) MB in $out (4 of them damaged on purpose, in $out/damaged)" >&2
