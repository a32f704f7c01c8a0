#!/usr/bin/env bash
# The library's public API as text, one item per line (path, kind, and for functions their
# signature), read from rustdoc's JSON output (nightly) with every feature on; with a
# commit as argument, the difference between that commit's API and this tree's (empty:
# the same API). Items hidden from the docs (`#[doc(hidden)]`, e.g. `vutf8::tiers`) are
# not part of the API and are left out, as rustdoc leaves them out. Types in signatures are
# named by their public paths too.
#
#   scripts/public-api.sh            # this tree's API
#   scripts/public-api.sh COMMIT     # diff COMMIT -> this tree; exit 1 if they differ
set -euo pipefail
cd "$(dirname "$0")/.."
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal

api() { # $1: source folder; prints its API
    local dir=$1
    (cd "$dir" && CARGO_TARGET_DIR="$dir/target/public-api" cargo +nightly rustdoc -q -p vutf8 \
        --all-features --lib -- -Z unstable-options --output-format json)
    python3 - "$dir/target/public-api/doc/vutf8.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
index, paths = doc["index"], doc["paths"]
def name(t):
    """A type as text, with item ids replaced by their paths: the public path where the
    crate exports the item (`public`, filled in below before any call), else rustdoc's path
    of its definition (items of other crates), so that moving a type's definition between
    private modules is no change."""
    if isinstance(t, dict):
        if "id" in t and isinstance(t.get("id"), (int, str)) and str(t["id"]) in paths:
            where = public.get(str(t["id"])) or "::".join(paths[str(t["id"])]["path"])
            return where + name({k: v for k, v in t.items() if k not in ("id", "path")})
        return "{" + ",".join(f"{k}:{name(v)}" for k, v in sorted(t.items()) if k != "id") + "}"
    if isinstance(t, list):
        return "[" + ",".join(name(x) for x in t) + "]"
    return json.dumps(t)
# Public paths: walk the modules from the crate root, following re-exports (`pub use`), so an
# item is named where users reach it, not where it is defined.
public = {}
def walk(mod_id, prefix):
    for item_id in index[str(mod_id)]["inner"]["module"]["items"]:
        item = index.get(str(item_id))
        if not item or item.get("visibility") != "public":
            continue
        inner = item["inner"]
        if "use" in inner:
            use = inner["use"]
            target = use.get("id")
            if target is None or str(target) not in index:
                continue
            if use.get("is_glob"):
                walk(target, prefix)
                continue
            name_, id_ = use["name"], str(target)
        else:
            name_, id_ = item["name"], str(item_id)
        path = prefix + [name_]
        public.setdefault(id_, "::".join(path))
        if "module" in index[id_]["inner"]:
            walk(id_, path)
walk(doc["root"], [index[str(doc["root"])]["name"]])
out = set()
for id_, path in public.items():
    item = index[id_]
    inner = item.get("inner", {})
    kind = next(iter(inner), "?")
    line = path + " " + kind
    if "function" in inner:
        line += " " + name(inner["function"]["sig"])
    out.add(line)
    # Methods and associated items of inherent impls and trait impls.
    for k in ("struct", "enum", "union"):
        if k in inner:
            for impl_id in inner[k].get("impls", []):
                impl = index.get(str(impl_id), {}).get("inner", {}).get("impl")
                if not impl:
                    continue
                trait = impl.get("trait")
                for member in impl.get("items", []):
                    m = index.get(str(member))
                    if not m or (trait is None and m.get("visibility") != "public"):
                        continue
                    sig = m.get("inner", {}).get("function", {}).get("sig")
                    via = f" (impl {trait['path'] if trait else 'inherent'})"
                    out.add(path + "::" + str(m.get("name")) + via + (" " + name(sig) if sig else ""))
for line in sorted(out):
    print(line)
PY
}

if [ $# -eq 0 ]; then
    api "$PWD"
    exit 0
fi
base=$(mktemp -d)
trap 'git worktree remove --force "$base/tree" >/dev/null 2>&1 || true; rm -rf "$base"' EXIT
git worktree add -q --detach "$base/tree" "$1"
api "$base/tree" >"$base/before.txt"
api "$PWD" >"$base/after.txt"
echo "public API items: $(wc -l <"$base/before.txt") at $1, $(wc -l <"$base/after.txt") here"
diff -u --label "$1" --label "this tree" "$base/before.txt" "$base/after.txt" && echo "public API: unchanged"
