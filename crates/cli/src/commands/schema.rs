//! `breakthrough schema`: the JSON Schema of a result.

use std::process::ExitCode;

use clap::Args;

/// Print the JSON Schema of the result that `solve --json` prints and `solve --out`
/// and a campaign's result.json hold (also docs/result.schema.json), or with
/// `--verify` of what `verify --json` prints (also docs/verify.schema.json).
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The schema of `verify --json`'s object instead.
    #[arg(long)]
    pub verify: bool,
}

pub fn run(args: SchemaArgs) -> anyhow::Result<ExitCode> {
    let schema = if args.verify {
        breakthrough_result::verify_schema()
    } else {
        breakthrough_result::schema()
    };
    outln!("{}", serde_json::to_string_pretty(&schema)?);
    Ok(ExitCode::SUCCESS)
}
