//! Colour on a terminal, plain text elsewhere.
//!
//! `--color auto` (the default) colours a stream only when it is a terminal that supports
//! colour and `NO_COLOR` is not set (`CLICOLOR=0` also turns it off, `CLICOLOR_FORCE=1`
//! turns it on): the rules of `anstream`, shared by many command-line tools. `always` and
//! `never` decide for every stream. The decision is taken once per stream; the text is then
//! written with or without `anstyle`'s escapes, so plain output costs nothing extra.
//!
//! The colours follow ripgrep's: file names magenta, line and column green; reasons are red
//! and the bytes shown yellow; in the summary, counts of invalid and unreadable inputs are
//! red when they are not zero.
//!
//! The palettes are used by [`crate::report::finding`] and [`crate::report::summary`].

use std::fmt::{self, Display};

use anstream::stream::RawStream;
use anstream::{AutoStream, ColorChoice};
use anstyle::{AnsiColor, Style};
use clap::ValueEnum;

/// When to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

/// The styles of one output stream: all plain when colour is off.
#[derive(Clone, Copy, Debug, Default)]
pub struct Palette {
    /// A file name.
    pub path: Style,
    /// Line and column.
    pub position: Style,
    /// The reason of an error, and a count of failures.
    pub bad: Style,
    /// The bytes of an error.
    pub bytes: Style,
}

impl Palette {
    /// The palette for `stream` under `--color when`.
    pub fn for_stream(when: ColorWhen, stream: &impl RawStream) -> Palette {
        let on = match when {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => AutoStream::choice(stream) != ColorChoice::Never,
        };
        if !on {
            return Palette::default();
        }
        Palette {
            path: AnsiColor::Magenta.on_default(),
            position: AnsiColor::Green.on_default(),
            bad: AnsiColor::Red.on_default().bold(),
            bytes: AnsiColor::Yellow.on_default(),
        }
    }
}

/// `value` written in `style` (just `value` when the style is plain).
pub fn paint<T: Display>(style: Style, value: T) -> Painted<T> {
    Painted { style, value }
}

/// A value and its style, see [`paint`].
pub struct Painted<T> {
    style: Style,
    value: T,
}

impl<T: Display> Display for Painted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.style == Style::new() {
            self.value.fmt(f)
        } else {
            write!(
                f,
                "{}{}{}",
                self.style.render(),
                self.value,
                self.style.render_reset()
            )
        }
    }
}
