//! The results README's section on parallel scaling, from the files that
//! `breakthrough-lab bench --compare threads --out RESULTS/scaling-<machine>.json`
//! wrote.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use breakthrough_cli::text::thousands;

use crate::files::{read_json, BenchFile, BenchRow};

/// The scaling files of `dir`, one table each.
pub fn scaling_section(dir: &Path, text: &mut String) -> anyhow::Result<()> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("scaling-") && n.ends_with(".json"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Ok(());
    }
    writeln!(text, "## Parallel scaling\n")?;
    writeln!(
        text,
        "`breakthrough-lab bench --compare threads` (median seconds and nodes of the\n\
         runs: the whole process's wall time where the file has it, else the search's;\n\
         speed-up is one thread's median time over this one's, overhead this one's\n\
         nodes over one thread's). Rows of `n copies of 1` (`--copies`) are n one-thread\n\
         solves run at once: their speed-up, n times one solve's time over theirs, is\n\
         what the machine gave n busy cores during the benchmark.\n"
    )?;
    for path in files {
        let file: BenchFile = read_json(&path, "a benchmark's file")?;
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        table(&name, &file, text)?;
    }
    Ok(())
}

/// One scaling file's table.
fn table(name: &str, file: &BenchFile, text: &mut String) -> anyhow::Result<()> {
    // A file assembled from several benchmark runs can have rows of different
    // repeats: say the range, read off the rows.
    let repeats: Vec<usize> = file.solve.iter().map(|row| row.runs.len()).collect();
    let runs = match (repeats.iter().min(), repeats.iter().max()) {
        (Some(least), Some(most)) if least != most => format!("{least} to {most}"),
        _ => file.repeat.to_string(),
    };
    writeln!(
        text,
        "### [{name}]({name})\n\n{}, {runs} runs each, table {}.\n",
        file.machine,
        file.tt_mb
            .map_or("as solve's default".to_string(), |mb| format!("{mb} MiB")),
    )?;
    if let Some(note) = &file.note {
        writeln!(text, "{note}\n")?;
    }
    writeln!(
        text,
        "| board | threads | winner | nodes | median s | speed-up | overhead |\n\
         | --- | --- | --- | --- | --- | --- | --- |"
    )?;
    for row in &file.solve {
        writeln!(text, "{}", table_row(row))?;
    }
    writeln!(text)?;
    Ok(())
}

fn table_row(row: &BenchRow) -> String {
    let ratio = |key: &str| {
        row.ratios
            .get(key)
            .copied()
            .flatten()
            .map_or("-".to_string(), |r| format!("{r:.2}x"))
    };
    // The machine's check (`--copies`): n one-thread solves at once.
    let threads = if row.copies > 1 {
        format!("{} copies of 1", row.copies)
    } else {
        row.threads.to_string()
    };
    format!(
        "| {} | {} | {} | {} | {:.2} | {} | {} |",
        row.board,
        threads,
        row.winner,
        thousands(row.nodes as u64),
        row.median_wall_seconds.unwrap_or(row.median_seconds),
        ratio("speed_up"),
        ratio("overhead"),
    )
}
