//! Progress bars on stderr, hidden when stderr is no terminal or with `--quiet`.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `len` steps with this template, or a hidden one.
pub fn bar(len: u64, quiet: bool, template: &str) -> ProgressBar {
    let visible = !quiet && std::io::stderr().is_terminal();
    let target = if visible {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// A spinner with elapsed time and a message, or a hidden one.
pub fn spinner(quiet: bool) -> ProgressBar {
    bar(0, quiet, "{spinner} [{elapsed_precise}] {msg}")
}
