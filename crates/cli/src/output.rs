//! Results on stdout.

use std::io::{ErrorKind, Write};

/// Writes to stdout. When the reader has gone (a closed pipe) the program exits with
/// success at once: nobody is left to read the rest.
pub fn write(args: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    if let Err(err) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        if err.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {err}");
        std::process::exit(1);
    }
}
