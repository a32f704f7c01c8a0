//! The workspace's map and layering, checked: `docs/ARCHITECTURE.md` names every source file
//! of the library, the CLI, the Arrow, DataFusion and Python crates, every script and every doc, and names
//! nothing that does not exist; the modules of each crate import each other without a
//! circle; nothing in the library calls into its façade (`src/lib.rs` only declares and
//! re-exports); and the library's folders are the layers that the map's table of layers
//! lists, each importing only from itself and the layers below it.
//!
//! The import graph is read from the source text: every `crate::…` and `super::…` path in
//! code (comments, doc comments and string literals left out), resolved to the longest
//! module of the crate it names. A path into a module's own descendants or ancestors is an
//! edge like any other, so a parent that uses its child's items while the child uses the
//! parent's is a circle too.
//!
//! Not on WASI (no file system without preopened folders; scripts/test-cross.sh lists it as
//! excluded there).
#![cfg(not(target_os = "wasi"))]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace root (this package's manifest folder).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` (relative to the root) whose name ends with `ext`, as
/// root-relative paths with `/`.
fn files(dir: &str, ext: &str) -> Vec<String> {
    fn walk(path: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(path) else {
            return;
        };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                walk(&p, ext, out);
            } else if p.to_string_lossy().ends_with(ext) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join(dir), ext, &mut out);
    let mut names: Vec<String> = out
        .iter()
        .map(|p| {
            p.strip_prefix(root())
                .expect("under the root")
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    names.sort();
    names
}

/// The source folders whose modules the map and the layering cover, with each crate's root
/// file.
const CRATES: &[(&str, &str)] = &[
    ("src", "src/lib.rs"),
    ("cli/src", "cli/src/main.rs"),
    ("arrow/src", "arrow/src/lib.rs"),
    ("datafusion/src", "datafusion/src/lib.rs"),
    ("python/src", "python/src/lib.rs"),
];

#[test]
fn the_map_names_every_file_and_only_files_that_exist() {
    let map = fs::read_to_string(root().join("docs/ARCHITECTURE.md")).expect("read the map");
    let mut wanted: Vec<String> = Vec::new();
    for (dir, _) in CRATES {
        wanted.extend(files(dir, ".rs"));
    }
    wanted.extend(files("scripts", ".sh"));
    wanted.extend(files("scripts", ".mjs"));
    wanted.extend(files("scripts", ".py"));
    wanted.extend(files("docs", ".md"));
    // Every path the map names under these folders, as a word of its own.
    let mut named = BTreeSet::new();
    for word in map.split(|c: char| c.is_whitespace() || "`(),;:|[]*".contains(c)) {
        let word = word.trim_end_matches('.');
        let covered = CRATES
            .iter()
            .any(|(dir, _)| word.starts_with(&format!("{dir}/")))
            || word.starts_with("scripts/")
            || word.starts_with("docs/");
        let source = [".rs", ".sh", ".mjs", ".py", ".md"]
            .iter()
            .any(|e| word.ends_with(e));
        if covered && source {
            named.insert(word.to_string());
        }
    }
    let missing: Vec<&String> = wanted.iter().filter(|f| !named.contains(*f)).collect();
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md does not name these files (by their path from the root): {missing:#?}"
    );
    let stale: Vec<&String> = named.iter().filter(|w| !root().join(w).exists()).collect();
    assert!(
        stale.is_empty(),
        "docs/ARCHITECTURE.md names files that do not exist: {stale:#?}"
    );
}

/// The members of the root `Cargo.toml`'s `[workspace]` (their folders, `.` for the root)
/// and each one's package name.
fn workspace_members() -> Vec<(String, String)> {
    let manifest = fs::read_to_string(root().join("Cargo.toml")).expect("read Cargo.toml");
    let list = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("a `members = [...]` list in Cargo.toml")
        .0;
    list.split(',')
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
        .map(|folder| {
            let own = fs::read_to_string(root().join(&folder).join("Cargo.toml"))
                .unwrap_or_else(|e| panic!("read {folder}/Cargo.toml: {e}"));
            let name = own
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .and_then(|l| l.strip_suffix('"'))
                .unwrap_or_else(|| panic!("{folder}/Cargo.toml names its package"))
                .to_string();
            (folder, name)
        })
        .collect()
}

#[test]
fn the_map_names_every_workspace_member() {
    let map = fs::read_to_string(root().join("docs/ARCHITECTURE.md")).expect("read the map");
    let members = workspace_members();
    assert!(members.len() >= 8, "{members:?}");
    let missing: Vec<&(String, String)> = members
        .iter()
        .filter(|(folder, name)| {
            let folder = if folder == "." {
                "`.`".to_string()
            } else {
                format!("`{folder}/`")
            };
            let name = format!("`{name}`");
            // A row of the members' table: `| folder | crate | ...`.
            !map.lines().any(|l| {
                let cells: Vec<&str> = l.split('|').map(str::trim).collect();
                cells.len() > 3 && cells[1] == folder && cells[2] == name
            })
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md's table of workspace members misses (folder, crate): {missing:?}"
    );
}

/// A crate's modules: module path (`arch::generic::schedule`; "" for the root) -> its file.
fn modules(dir: &str, root_file: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for file in files(dir, ".rs") {
        // Binaries of their own (src/bin/*.rs, src/main.rs beside a lib.rs) are crate roots:
        // they reach the library by its name, not by `crate::`, so they have no edges here.
        if file.contains("/bin/") || (file != root_file && file.ends_with("/main.rs")) {
            continue;
        }
        let rel = &file[dir.len() + 1..file.len() - 3];
        let path = if file == root_file {
            String::new()
        } else {
            rel.trim_end_matches("/mod").replace('/', "::")
        };
        out.insert(path, file);
    }
    out
}

/// The code of a Rust file with comments, doc comments and string and char literals
/// replaced by spaces (good enough for reading paths: raw strings with `"#` inside are not
/// used in these crates' module paths).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('a', '\n', '\''), not a lifetime.
            i += 1;
            while i < b.len() && b[i] != b'\'' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The inline modules of `code` (`mod name { … }`, and `mod $name { … }` in a macro, which
/// declares one module per expansion: a `super::` inside goes up to the module of the
/// macro's call, its file's): the byte range of each body and its name.
fn inline_modules(code: &str) -> Vec<(usize, usize, String)> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("mod ") {
        let i = from + at;
        from = i + 4;
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let name: String = code[i + 4..]
            .chars()
            .enumerate()
            .take_while(|&(k, c)| c.is_ascii_alphanumeric() || c == '_' || (k == 0 && c == '$'))
            .map(|(_, c)| c)
            .collect();
        let after = code[i + 4 + name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = code.len() - after.len();
        let mut depth = 0;
        let mut end = code.len();
        for (k, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((open, end, name));
    }
    out
}

/// The module paths `code` names, from `crate::` or `super::` (resolved against `module`
/// and the inline modules around each path), with `{a, b::c}` groups expanded one level.
fn paths(code: &str, module: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let inline = inline_modules(code);
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let rest = &code[i..];
        let starts = (rest.starts_with("crate::") || rest.starts_with("super::"))
            && (i == 0 || !is_ident(bytes[i - 1]) && bytes[i - 1] != b':');
        if !starts {
            i += 1;
            continue;
        }
        // The base: `crate` is the root; each `super` goes one module up from the module
        // the path is in (the file's, and the inline modules around it).
        let mut base: Vec<String> = if module.is_empty() {
            Vec::new()
        } else {
            module.split("::").map(String::from).collect()
        };
        base.extend(
            inline
                .iter()
                .filter(|(open, end, _)| *open < i && i < *end)
                .map(|(_, _, name)| name.clone()),
        );
        let mut j = i;
        if rest.starts_with("crate::") {
            base.clear();
            j += "crate::".len();
        } else {
            while code[j..].starts_with("super::") {
                base.pop();
                j += "super::".len();
            }
        }
        // Segments until something that is not `ident::`.
        let mut segs = base.clone();
        loop {
            let start = j;
            while j < bytes.len() && is_ident(bytes[j]) {
                j += 1;
            }
            if j > start {
                segs.push(code[start..j].to_string());
            }
            // A group (`::{` after a segment, `{` right after the prefix or a `::`).
            let group = if code[j..].starts_with("::{") {
                Some(j + 3)
            } else if j == start && code[j..].starts_with('{') {
                Some(j + 1)
            } else {
                None
            };
            if let Some(open) = group {
                // A group: each member is a path from here.
                let end = code[j..].find('}').map_or(bytes.len(), |e| j + e);
                for member in code[open..end].split(',') {
                    let mut s = segs.clone();
                    s.extend(
                        member
                            .split("::")
                            .map(|m| m.trim().trim_start_matches('{').to_string())
                            .filter(|m| !m.is_empty() && m != "self" && m != "*"),
                    );
                    found.push(s);
                }
                j = end;
                break;
            }
            if code[j..].starts_with("::") {
                j += 2;
                continue;
            }
            found.push(segs);
            break;
        }
        i = j.max(i + 1);
    }
    found
}

/// The module a path lands in: its longest prefix that is a module of the crate.
fn target(path: &[String], mods: &BTreeMap<String, String>) -> String {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|p| mods.contains_key(p))
        .unwrap_or_default()
}

/// The import graph of a crate: module -> the modules it names (itself left out).
fn graph(dir: &str, root_file: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules(dir, root_file);
    let mut g = BTreeMap::new();
    for (module, file) in &mods {
        let code = code_only(&fs::read_to_string(root().join(file)).expect("read a source file"));
        let mut edges: BTreeSet<String> = paths(&code, module)
            .iter()
            .map(|p| target(p, &mods))
            .filter(|t| t != module)
            .collect();
        // Paths relative to this module (`child::item`, `use child::{…}`): its submodules.
        let bytes = code.as_bytes();
        for (k, _) in code.match_indices("::") {
            let start = code[..k]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |p| p + 1);
            if start < k && (start < 2 || &bytes[start - 2..start] != b"::") {
                let child = if module.is_empty() {
                    code[start..k].to_string()
                } else {
                    format!("{module}::{}", &code[start..k])
                };
                if mods.contains_key(&child) {
                    edges.insert(child);
                }
            }
        }
        g.insert(module.clone(), edges);
    }
    g
}

/// A circle in `g`, if there is one, as the modules along it.
fn find_circle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in g.get(n).into_iter().flatten() {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = stack.iter().position(|s| s == m).unwrap_or(0);
                    let mut c = stack[at..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(m, g, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in g.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, g, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_import_circles_in_any_crate() {
    for (dir, root_file) in CRATES {
        let g = graph(dir, root_file);
        assert!(g.len() > 1, "{dir}: no modules found");
        if let Some(c) = find_circle(&g) {
            let shown: Vec<String> = c
                .iter()
                .map(|m| {
                    if m.is_empty() {
                        "(crate root)".into()
                    } else {
                        m.clone()
                    }
                })
                .collect();
            panic!("{dir}: import circle {}", shown.join(" -> "));
        }
    }
}

#[test]
fn the_map_lists_each_crate_from_its_top_layer_down() {
    // Every import goes to a file the map lists further down, except a file's use of the
    // folder it is in (`super::item` from a child of `arch/mod.rs`): a folder's `mod.rs`
    // is listed first, as the heading of its files.
    // (The lists of files, from the map's heading on: the table of the library's layers
    // above it names some files too.)
    let whole = fs::read_to_string(root().join("docs/ARCHITECTURE.md")).expect("read the map");
    let map = &whole[whole.find("## Layout: the map").expect("the map's heading")..];
    for (dir, root_file) in CRATES {
        let mods = modules(dir, root_file);
        let at = |m: &str| {
            map.find(mods[m].as_str())
                .expect("named (see the map test)")
        };
        for (from, edges) in graph(dir, root_file) {
            for to in edges {
                let ancestor = to.is_empty() || from.starts_with(&format!("{to}::"));
                assert!(
                    ancestor || at(&to) > at(&from),
                    "{} imports {}, which docs/ARCHITECTURE.md lists above it: the map's order is the layering",
                    mods[&from],
                    mods[&to]
                );
            }
        }
    }
}

#[test]
fn nothing_calls_into_the_library_facade() {
    // The root of each crate may name its modules; no module may name the root's own items
    // (re-exports included): every edge into "" comes from a path that stops at the root.
    for (dir, root_file) in &CRATES[..1] {
        let mods = modules(dir, root_file);
        for (module, file) in mods.iter().filter(|(m, _)| !m.is_empty()) {
            let code = code_only(&fs::read_to_string(root().join(file)).expect("read"));
            for p in paths(&code, module) {
                assert!(
                    !target(&p, &mods).is_empty() || p.is_empty(),
                    "{file} uses crate::{} from the façade (src/lib.rs); import it from the module that defines it ({p:?})",
                    p.join("::")
                );
            }
        }
    }
}

#[test]
fn the_checker_sees_a_circle_and_a_facade_call() {
    // The reader of paths on a made-up crate: a -> b -> a is a circle; `crate::is_valid` from
    // a module lands in the root.
    let code = code_only(
        "use crate::{b::f, c}; // crate::z in a comment\nfn g() { super::super::b::h(); \"crate::y\"; }",
    );
    let found = paths(&code, "a::x");
    assert_eq!(
        found,
        vec![
            vec!["b".to_string(), "f".to_string()],
            vec!["c".to_string()],
            vec!["b".to_string(), "h".to_string()],
        ]
    );
    let mods: BTreeMap<String, String> = ["", "a", "b"]
        .iter()
        .map(|m| (m.to_string(), String::new()))
        .collect();
    assert_eq!(target(&["is_valid".to_string()], &mods), "");
    assert_eq!(target(&["b".to_string(), "h".to_string()], &mods), "b");
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert!(find_circle(&g).is_some());
    g.insert("b".to_string(), BTreeSet::new());
    assert!(find_circle(&g).is_none());
}

/// The library's layers from the table at the top of docs/ARCHITECTURE.md ("The layers of
/// the library"), top first: each layer's name and the paths of its row (a folder, `src/x/`,
/// or files).
fn layers() -> Vec<(String, Vec<String>)> {
    let map = fs::read_to_string(root().join("docs/ARCHITECTURE.md")).expect("read the map");
    let section = map
        .split_once("## The layers of the library")
        .expect("a table of the layers in docs/ARCHITECTURE.md")
        .1;
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2) // The header and its rule.
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let paths = cells[2]
                .split(',')
                .map(|p| p.trim().trim_matches('`').to_string())
                .collect();
            (cells[1].to_string(), paths)
        })
        .collect()
}

#[test]
fn each_folder_of_the_library_imports_only_from_the_layers_below() {
    let layers = layers();
    assert!(layers.len() >= 5, "{layers:?}");
    // Every folder of src/ and every file at its top is in exactly one row, and every path of
    // the table exists.
    let mut top: Vec<String> = fs::read_dir(root().join("src"))
        .expect("read src/")
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() {
                format!("src/{name}/")
            } else {
                format!("src/{name}")
            }
        })
        .filter(|p| p.ends_with('/') || p.ends_with(".rs"))
        .collect();
    top.sort();
    let mut named: Vec<String> = layers.iter().flat_map(|(_, p)| p.clone()).collect();
    named.sort();
    assert_eq!(
        named, top,
        "docs/ARCHITECTURE.md's table of layers names each folder and top-level file of src/ once"
    );
    // A module's layer: the row of its folder (or, at the top, of its file).
    let rank = |file: &str| -> usize {
        layers
            .iter()
            .position(|(_, paths)| {
                paths.iter().any(|p| {
                    if p.ends_with('/') {
                        file.starts_with(p.as_str())
                    } else {
                        file == p
                    }
                })
            })
            .unwrap_or_else(|| panic!("{file} is in no layer"))
    };
    let mods = modules("src", "src/lib.rs");
    let mut edges = 0;
    for (from, to) in graph("src", "src/lib.rs") {
        let (from_file, from_rank) = (&mods[&from], rank(&mods[&from]));
        for t in to {
            let to_rank = rank(&mods[&t]);
            assert!(
                to_rank >= from_rank,
                "{from_file} ({}) imports {} ({}), a layer above it",
                layers[from_rank].0,
                mods[&t],
                layers[to_rank].0
            );
            edges += 1;
        }
    }
    assert!(edges > 50, "{edges} imports");
}
