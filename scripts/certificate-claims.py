#!/usr/bin/env python3
"""Refuses a commit after FIRST that rewrites a committed results/<board>.cert
whose claim and format stay the same (a regeneration): every committed byte stays
in every clone for good, so a certificate is committed again only when what it
proves (the position, each part's side and claim) or its format version changes.
The claim is read from results/<board>.json's `proof`, which the same commit
writes. Run by scripts/results-guard.sh; exit code 1 names each commit refused.
Usage: scripts/certificate-claims.py FIRST
"""
import json
import subprocess
import sys


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def claim(commit, board):
    """What results/<board>.json at `commit` says its certificate proves, or None."""
    try:
        result = json.loads(git("show", f"{commit}:results/{board}.json"))
    except (subprocess.CalledProcessError, json.JSONDecodeError):
        return None
    proof = result.get("proof") or {}
    parts = [(p.get("side"), json.dumps(p.get("claim"), sort_keys=True)) for p in proof.get("parts", [])]
    return (result.get("position"), proof.get("format_version"), parts)


def main():
    first = sys.argv[1]
    try:
        git("rev-parse", "--verify", "--quiet", f"{first}^{{commit}}")
    except subprocess.CalledProcessError:
        print(f"certificate-claims: {first} is not in this clone; nothing to check", file=sys.stderr)
        return 0
    refused = 0
    for commit in git("rev-list", "--no-merges", f"{first}..HEAD", "--", "results").split():
        changes = git("diff-tree", "--no-commit-id", "-r", "--name-status", f"{commit}^", commit)
        for line in changes.splitlines():
            status, path = line.split("\t", 1)
            if status != "M" or not (path.startswith("results/") and path.endswith(".cert")):
                continue
            board = path[len("results/"):-len(".cert")]
            before, after = claim(f"{commit}^", board), claim(commit, board)
            if before is not None and before == after:
                print(
                    f"certificate-claims: {commit[:10]} rewrites {path} with the same claim and "
                    f"format: keep the committed certificate (and its result) unless what it "
                    f"proves or its format changes",
                    file=sys.stderr,
                )
                refused = 1
    return refused


if __name__ == "__main__":
    sys.exit(main())
