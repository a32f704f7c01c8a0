//! Writes the generated text of every script at the given sizes into a directory, as
//! `SCRIPT-SIZE.txt` (seed 7), for the tools that take files: `scripts/ab-compare.sh`, the
//! CLI. Used in docs/PERFORMANCE.md#memory-prefetch, where files larger than the caches are
//! measured.
//!
//! Usage: `cargo run --release -p vutf8-corpus --example write-files -- DIR SIZE...`, each
//! SIZE in bytes or with a `K` or `M` suffix (binary: `64K`, `32M`).
use std::path::PathBuf;
use std::process::ExitCode;

/// `SIZE` in bytes, from `123`, `64K` or `32M`.
fn size(arg: &str) -> Option<usize> {
    let (digits, unit) = match arg.strip_suffix(['K', 'k']) {
        Some(d) => (d, 1 << 10),
        None => match arg.strip_suffix(['M', 'm']) {
            Some(d) => (d, 1 << 20),
            None => (arg, 1),
        },
    };
    digits.parse::<usize>().ok()?.checked_mul(unit)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Option<Vec<(usize, &str)>> = args
        .iter()
        .skip(1)
        .map(|a| size(a).map(|n| (n, a.as_str())))
        .collect();
    let (Some(dir), Some(sizes)) = (args.first(), sizes.filter(|s| !s.is_empty())) else {
        eprintln!("usage: write-files DIR SIZE... (SIZE: bytes, or with K or M)");
        return ExitCode::from(2);
    };
    let dir = PathBuf::from(dir);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("write-files: {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    for script in vutf8_corpus::Script::ALL {
        for &(len, name) in &sizes {
            let text = vutf8_corpus::generate(script, len, 7);
            let path = dir.join(format!("{}-{name}.txt", script.name()));
            if let Err(e) = std::fs::write(&path, &text) {
                eprintln!("write-files: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
            println!("wrote {} ({} bytes)", path.display(), text.len());
        }
    }
    ExitCode::SUCCESS
}
