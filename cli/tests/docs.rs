//! `docs/CLI.md` and `vutf8 --help` name the same options, so they cannot drift apart.

mod common;

use std::collections::BTreeSet;

/// The long options (`--name`) in `text`.
fn long_options(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.len() > 2 && w.starts_with("--") && w.as_bytes()[2].is_ascii_lowercase())
        .map(str::to_string)
        .collect()
}

fn docs() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/CLI.md"))
        .expect("docs/CLI.md")
}

/// Every long option of `--help` (the command's and each subcommand's).
fn help_options() -> BTreeSet<String> {
    let mut options = BTreeSet::new();
    for command in [&[][..], &["repair"], &["bench"], &["info"]] {
        let mut args = command.to_vec();
        args.push("--help");
        let r = common::run(&args, b"");
        assert_eq!(r.status, 0, "{args:?}: {}", r.stderr);
        options.extend(long_options(&r.stdout));
    }
    options
}

#[test]
fn every_long_option_in_help_is_in_the_docs() {
    let help = help_options();
    // The walker's options and the older ones: the help really was read.
    for known in [
        "--all",
        "--no-ignore",
        "--glob",
        "--color",
        "--output",
        "--runs",
    ] {
        assert!(help.contains(known), "{known} not in --help: {help:?}");
    }
    let documented = long_options(&docs());
    let missing: Vec<_> = help.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "in --help, not in docs/CLI.md: {missing:?}"
    );
}

#[test]
fn every_option_in_the_docs_table_is_in_help() {
    let docs = docs();
    let table: String = docs
        .lines()
        .filter(|l| l.starts_with("| `-"))
        .map(|l| l.split(" | ").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let in_table = long_options(&table);
    assert!(in_table.len() >= 15, "{in_table:?}");
    let help = help_options();
    let extra: Vec<_> = in_table.difference(&help).collect();
    assert!(
        extra.is_empty(),
        "in docs/CLI.md's table, not in --help: {extra:?}"
    );
}
