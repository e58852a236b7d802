//! Every solve and campaign result in `results/` reads into the type, and writes
//! back as the same JSON (the race rules' flag under its current name).

use std::path::{Path, PathBuf};

use breakthrough_result::SolveResult;
use serde_json::Value;

/// Results directory files that are other kinds of JSON.
fn is_other_kind(name: &str) -> bool {
    name == "published.json"
        || name == "mpi-2core.json"
        || name.starts_with("scaling-")
        || name.starts_with("bench-")
        || name.ends_with("-first-moves.json")
        || name.ends_with("-campaign.json")
        || name.ends_with("-progress.json")
}

fn result_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_str().unwrap();
            name.ends_with(".json") && !is_other_kind(name)
        })
        .collect();
    files.sort();
    files
}

/// `patterns` renamed to `race_rules`, as the type writes it.
fn renamed(mut json: Value) -> Value {
    for pointer in ["/solver", "/campaign/settings"] {
        if let Some(object) = json.pointer_mut(pointer).and_then(Value::as_object_mut) {
            if let Some(on) = object.remove("patterns") {
                object.insert("race_rules".into(), on);
            }
        }
    }
    json
}

#[test]
fn every_result_file_reads_and_writes_back_the_same() {
    let files = result_files();
    assert!(files.len() >= 15, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let result =
            SolveResult::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let original: Value = serde_json::from_str(&text).unwrap();
        let written = serde_json::to_value(&result).unwrap();
        let mut differences = Vec::new();
        compare(
            &written,
            &renamed(original),
            String::new(),
            &mut differences,
        );
        assert!(
            differences.is_empty(),
            "{}: {differences:?}",
            path.display()
        );
    }
}

/// Paths where `written` differs from `original`; a null field that an older file
/// lacks is no difference.
fn compare(written: &Value, original: &Value, at: String, differences: &mut Vec<String>) {
    match (written, original) {
        (Value::Object(w), Value::Object(o)) => {
            for (key, value) in w {
                match o.get(key) {
                    Some(theirs) => compare(value, theirs, format!("{at}/{key}"), differences),
                    None if value.is_null() => {}
                    None => differences.push(format!("{at}/{key} added")),
                }
            }
            for key in o.keys().filter(|key| !w.contains_key(*key)) {
                differences.push(format!("{at}/{key} dropped"));
            }
        }
        (Value::Array(w), Value::Array(o)) if w.len() == o.len() => {
            for (i, (w, o)) in w.iter().zip(o).enumerate() {
                compare(w, o, format!("{at}/{i}"), differences);
            }
        }
        (w, o) if w == o => {}
        (w, o) => differences.push(format!("{at}: {w} against {o}")),
    }
}

#[test]
fn a_renamed_flag_still_reads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/4x4.json");
    // The results written before the rename said `patterns`; those since,
    // `race_rules`.
    let text = std::fs::read_to_string(path).unwrap().replacen(
        "\"race_rules\": true",
        "\"patterns\": true",
        1,
    );
    assert!(text.contains("\"patterns\": true"));
    let result = SolveResult::from_json(&text).unwrap();
    assert!(result.solver.race_rules);
    let written = serde_json::to_string(&result).unwrap();
    assert!(written.contains("\"race_rules\":true") && !written.contains("patterns"));
}

/// A solve's own blocks with a field renamed would read as absent; `from_json`
/// refuses them, and any other renamed field that is required.
#[test]
fn a_renamed_field_is_refused() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/5x5.json");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(SolveResult::from_json(&text).is_ok());
    for (field, renamed) in [
        ("\"table\":", "\"tables\":"),
        ("\"thread_nodes\":", "\"threads_nodes\":"),
        ("\"length_resumed\":", "\"resumed\":"),
        ("\"verdict\":", "\"verdicts\":"),
        ("\"nodes_per_second\":", "\"rate\":"),
    ] {
        assert!(text.contains(field), "{field}");
        let changed = text.replacen(field, renamed, 1);
        assert!(SolveResult::from_json(&changed).is_err(), "{field}");
    }
}

#[test]
fn every_campaign_status_file_reads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        // A campaign's status, or a replay's (a solved board's campaign run again
        // with its progress samples).
        for kind in ["campaign", "progress"] {
            if name.ends_with(&format!("-{kind}.json")) {
                let text = std::fs::read_to_string(&path).unwrap();
                let status: breakthrough_result::CampaignStatus =
                    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(format!("{}-{kind}.json", status.board), name);
                read += 1;
            }
        }
    }
    assert!(read > 0);
}
