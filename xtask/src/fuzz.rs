//! `cargo xtask fuzz [SECONDS]`: every cargo-fuzz target in `fuzz/` for SECONDS each (60
//! by default), starting from its committed seed corpus, then a line per target: how
//! many inputs it ran, and whether it found anything.
//!
//! cargo-fuzz needs nightly: the targets build on the pinned nightly the web app already
//! uses. They run without a sanitizer (every crate forbids `unsafe`, so AddressSanitizer
//! would find nothing a panic does not) but with debug assertions, so an overflow is a
//! finding. A finding stops the run; libFuzzer names the input it saved under
//! `fuzz/artifacts/`, which belongs in a regression test of the crate's own tests.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use crate::exec::{Result, cargo, output, root, run};
use crate::tools::{self, WASM_TOOLCHAIN};

/// The cargo-fuzz release the targets are built with.
const CARGO_FUZZ_VERSION: &str = "0.13.1";

/// Runs every target for `seconds` each.
pub fn fuzz(seconds: u64) -> Result {
    ensure_cargo_fuzz()?;
    tools::ensure_wasm_toolchain()?;
    let targets = fuzz_command().arg("list").output()?;
    let targets = String::from_utf8_lossy(&targets.stdout).into_owned();
    let targets: Vec<&str> = targets.split_whitespace().collect();
    if targets.is_empty() {
        return Err("`cargo fuzz list` found no targets in fuzz/".into());
    }
    let mut summary = Vec::new();
    for target in targets {
        let runs = run_target(target, seconds)?;
        summary.push(format!(
            "{target:<12} {runs} inputs in {seconds} s, no finding"
        ));
    }
    println!("\nfuzz:\n  {}", summary.join("\n  "));
    Ok(())
}

/// `cargo +nightly fuzz` in `fuzz/`.
fn fuzz_command() -> std::process::Command {
    let mut fuzz = cargo();
    fuzz.arg(format!("+{WASM_TOOLCHAIN}"))
        .arg("fuzz")
        .current_dir(root().join("fuzz"));
    fuzz
}

/// Fuzzes one target, showing libFuzzer's progress; the number of inputs it ran.
fn run_target(target: &str, seconds: u64) -> Result<String> {
    let mut fuzz = fuzz_command();
    fuzz.args(["run", "--sanitizer", "none", "--debug-assertions", target])
        .arg("--")
        .arg(format!("-max_total_time={seconds}"))
        .stderr(Stdio::piped());
    println!("\n$ cargo +{WASM_TOOLCHAIN} fuzz run {target} -- -max_total_time={seconds}");
    let mut child = fuzz.spawn()?;
    let mut runs = None;
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines() {
            let line = line?;
            eprintln!("{line}");
            // libFuzzer's last words: `Done 123456 runs in 61 second(s)`.
            if let Some(rest) = line.strip_prefix("Done ") {
                runs = rest.split_whitespace().next().map(str::to_owned);
            }
        }
    }
    let status = child.wait()?;
    if !status.success() {
        return Err(format!(
            "fuzz target `{target}` failed ({status}): the input is saved under \
             fuzz/artifacts/{target}/ (replay it with `cargo +{WASM_TOOLCHAIN} fuzz run \
             {target} <file>`); make it a regression test"
        )
        .into());
    }
    Ok(runs.unwrap_or_else(|| "?".to_owned()))
}

fn ensure_cargo_fuzz() -> Result {
    let wanted = format!("cargo-fuzz {CARGO_FUZZ_VERSION}");
    match output(cargo().args(["fuzz", "--version"])) {
        Some(found) if found.contains(&wanted) => {
            println!("ok: {found}");
            Ok(())
        }
        _ => run(cargo().args([
            "install",
            "cargo-fuzz",
            "--locked",
            "--version",
            CARGO_FUZZ_VERSION,
        ])),
    }
}
