//! `breakthrough schema`: the JSON Schema of a result.

use std::process::ExitCode;

use clap::Args;

/// Print the JSON Schema of the result that `solve --json` prints and `solve --out`
/// and a campaign's result.json hold (also docs/result.schema.json).
#[derive(Debug, Args)]
pub struct SchemaArgs {}

pub fn run(_args: SchemaArgs) -> anyhow::Result<ExitCode> {
    outln!(
        "{}",
        serde_json::to_string_pretty(&breakthrough_result::schema())?
    );
    Ok(ExitCode::SUCCESS)
}
