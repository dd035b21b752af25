//! One engine's browser tests (crates/e2e), as `cargo xtask test` runs them: a test
//! that fails is run once more on its own, and the step passes only if it passes then.
//!
//! Why: a browser driven on a loaded machine now and then fails a test the app did not
//! (CI has seen WebKit's "session deleted because of page crash or hang", and a Firefox
//! test that passed in every one of 30 runs here). Such a test is reported as flaky,
//! by name, in the step's output and the summary, never passed over in silence; more
//! than a few failures at once are not flakiness, and fail the step as they are.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::exec::{Result, command_line, run};
use crate::tools;

/// More failures than this in one run are not run again.
const RUN_AGAIN_AT_MOST: usize = 3;

/// Runs `engine`'s browser tests against the two builds of the app; returns the names
/// of the tests that failed once and passed when run again.
pub fn run_in(engine: &str, web_root: &Path, explorer_web_root: &Path) -> Result<Vec<String>> {
    let tests = |command: &mut Command| {
        command
            .env("RUST_BACKTRACE", "0")
            .envs(tools::storage_test_env())
            .env("E2E_WEB_ROOT", web_root)
            .env("E2E_EXPLORER_WEB_ROOT", explorer_web_root);
    };
    // `--show-output`: the reasons of checks skipped in this engine show. No backtrace:
    // a failure's message, not tokio's frames, ends the log (the part of it CI shows).
    let mut first = tools::cargo_in(engine);
    first.args(["test", "-p", "e2e", "--", "--show-output"]);
    tests(&mut first);
    let failed = run_listing_failures(&mut first)?;
    if failed.is_empty() {
        return Ok(failed);
    }
    if failed.len() > RUN_AGAIN_AT_MOST {
        return Err(format!("{} tests failed: {}", failed.len(), failed.join(", ")).into());
    }
    println!("\nfailed in {engine}, run again: {}", failed.join(", "));
    let mut again = tools::cargo_in(engine);
    again
        .args(["test", "-p", "e2e", "--", "--show-output", "--exact"])
        .args(&failed);
    tests(&mut again);
    run(&mut again).map_err(|error| format!("failed again: {error}"))?;
    println!(
        "flaky in {engine} (failed, then passed): {}",
        failed.join(", ")
    );
    Ok(failed)
}

/// Runs `command`, its output shown as it comes: the tests it failed (none when it
/// passed), or an error when it failed with no test named (a build error: nothing to run
/// again).
fn run_listing_failures(command: &mut Command) -> Result<Vec<String>> {
    println!("$ {}", command_line(command));
    let mut child = command.stdout(Stdio::piped()).spawn()?;
    let mut failed = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let line = line?;
            println!("{line}");
            if let Some(name) = failed_test(&line) {
                failed.push(name.to_string());
            }
        }
    }
    let status = child.wait()?;
    if !status.success() && failed.is_empty() {
        return Err(format!("the browser tests failed ({status})").into());
    }
    Ok(failed)
}

/// The test a libtest progress line reports as failed: `test zip::a ... FAILED`.
fn failed_test(line: &str) -> Option<&str> {
    line.strip_prefix("test ")?.strip_suffix(" ... FAILED")
}

#[cfg(test)]
mod tests {
    use super::failed_test;

    #[test]
    fn a_failed_test_is_named_from_libtests_progress_line() {
        assert_eq!(
            failed_test("test zip::a_package_version_is_zipped ... FAILED"),
            Some("zip::a_package_version_is_zipped")
        );
        assert_eq!(
            failed_test("test zip::a_package_version_is_zipped ... ok"),
            None
        );
        assert_eq!(
            failed_test("test result: FAILED. 110 passed; 1 failed"),
            None
        );
        assert_eq!(failed_test("    zip::a_package_version_is_zipped"), None);
    }
}
