//! `cargo xtask soak [MINUTES]`: the release server under a long mixed load.
//!
//! wrk keeps 256 connections busy with every endpoint in turn (`tools/soak/mix.lua`),
//! while the server's resident memory is sampled every 5 s. It fails on any socket
//! error, on any answer with a status the mix should not get (or too few of one it
//! should), and on memory that keeps growing after the warm-up.

use std::fs;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::exec::{Result, cargo, root, run};
use crate::server::{demo_file_paths, find_program, redirect_path, start_ours};
use crate::tools::apt_install;

const CONNECTIONS: u32 = 256;
const THREADS: u32 = 2;
const SAMPLE_EVERY: Duration = Duration::from_secs(5);
/// Memory may settle this much above its early peak (allocator arenas, caches).
const GROWTH_ALLOWED: f64 = 1.10;
const GROWTH_SLACK_KB: u64 = 4 * 1024;

/// Runs the soak for `minutes` and prints the figures.
pub fn soak(minutes: u64) -> Result {
    if find_program("wrk").is_none() {
        apt_install(&["wrk"], "the soak test")?;
    }
    let wrk = find_program("wrk").ok_or("`wrk` still not found after install")?;
    run(cargo().args(["build", "--release", "-p", "download-server"]))?;
    let server = start_ours("release", None, &[])?;
    let base = &server.base;

    // The mix's file addresses come from the server's own redirects.
    let (file, image) = demo_file_paths(base)?;
    let package_file = redirect_path(
        base,
        "/downloads/v1/dataPackages/0040046952/versions/131866/downloads?fileName=SU31_addresses.zip",
        &["key: alpha-demo-key"],
    )?;

    println!(
        "\nwrk -t{THREADS} -c{CONNECTIONS} for {minutes} min against {base}, every endpoint in \
         turn; server memory every {} s",
        SAMPLE_EVERY.as_secs()
    );
    let mut wrk = Command::new(wrk)
        .args([
            &format!("-t{THREADS}"),
            &format!("-c{CONNECTIONS}"),
            &format!("-d{minutes}m"),
            "--timeout",
            "10s",
            "-s",
        ])
        .arg(root().join("tools/soak/mix.lua"))
        .args([base.as_str(), "--", &file, &image, &package_file])
        .stdout(Stdio::piped())
        .spawn()?;

    let started = Instant::now();
    let mut samples = Vec::new();
    while wrk.try_wait()?.is_none() {
        let rss =
            resident_kb(server.pid()).ok_or("the server is gone: it stopped during the soak")?;
        samples.push((started.elapsed().as_secs(), rss));
        thread::sleep(SAMPLE_EVERY);
    }
    let output = wrk.wait_with_output()?;
    let report = String::from_utf8_lossy(&output.stdout);
    print_samples(&samples);
    println!("\n{report}");

    let mut problems = check_answers(&report);
    if let Some(growth) = memory_growth(&samples) {
        problems.push(growth);
    }
    if problems.is_empty() {
        println!("soak: no errors, memory flat");
        Ok(())
    } else {
        Err(format!("soak failed:\n- {}", problems.join("\n- ")).into())
    }
}

/// The process's resident set in kB (`VmRSS` in `/proc/PID/status`).
fn resident_kb(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn print_samples(samples: &[(u64, u64)]) {
    println!("\nserver memory (RSS), every 30 s:");
    for (secs, kb) in samples.iter().step_by(6) {
        println!("  {:>4} s  {:>6.1} MB", secs, *kb as f64 / 1024.0);
    }
    if let Some((secs, kb)) = samples.last() {
        println!("  {:>4} s  {:>6.1} MB (last)", secs, *kb as f64 / 1024.0);
    }
}

/// What the mix's summary lines (`soak-summary`, `soak-status`) show went wrong.
fn check_answers(report: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let field = |line: &str, name: &str| -> Option<f64> {
        line.split_whitespace()
            .find_map(|word| word.strip_prefix(name)?.strip_prefix('='))
            .and_then(|value| value.parse().ok())
            .filter(|value: &f64| value.is_finite())
    };
    let Some(summary) = report.lines().find(|l| l.starts_with("soak-summary")) else {
        return vec!["wrk printed no summary: did the script run?".into()];
    };
    for error in ["connect", "read", "write", "timeout"] {
        match field(summary, error) {
            Some(n) if n > 0.0 => problems.push(format!("{n} socket {error} errors")),
            Some(_) => {}
            None => problems.push(format!("no {error} count in `{summary}`")),
        }
    }
    // Each status comes back as often as it was asked for, give or take the requests
    // in flight at the end (one per connection) and one per thread's turn in the cycle.
    let tolerance = f64::from(CONNECTIONS + THREADS);
    for line in report.lines().filter(|l| l.starts_with("soak-status")) {
        let status = line.split_whitespace().nth(1).unwrap_or("?");
        let (Some(answered), Some(expected)) = (field(line, "answered"), field(line, "expected"))
        else {
            problems.push(format!("unreadable line `{line}`"));
            continue;
        };
        if (answered - expected).abs() > tolerance {
            problems.push(format!(
                "status {status}: {answered} answers where the mix asked for about {expected}"
            ));
        }
    }
    problems
}

/// A message when memory after the warm-up keeps growing: the last quarter's peak
/// above the first quarter's peak by more than the allowance.
fn memory_growth(samples: &[(u64, u64)]) -> Option<String> {
    let settled = &samples[samples.len() / 5..];
    if settled.len() < 4 {
        return None;
    }
    let quarter = settled.len() / 4;
    let peak = |part: &[(u64, u64)]| part.iter().map(|(_, kb)| *kb).max().unwrap_or(0);
    let early = peak(&settled[..quarter]);
    let late = peak(&settled[settled.len() - quarter..]);
    let allowed = (early as f64 * GROWTH_ALLOWED) as u64 + GROWTH_SLACK_KB;
    (late > allowed).then(|| {
        format!(
            "memory kept growing: {:.1} MB early, {:.1} MB at the end",
            early as f64 / 1024.0,
            late as f64 / 1024.0
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_socket_errors_are_checked() {
        let good = "soak-summary requests=2100 connect=0 read=0 write=0 timeout=0 p99_ms=3.0\n\
                    soak-status 200 answered=1200 expected=1200\n";
        assert!(check_answers(good).is_empty());
        let bad = "soak-summary requests=2100 connect=0 read=3 write=0 timeout=0 p99_ms=3.0\n\
                   soak-status 500 answered=600 expected=0\n";
        let problems = check_answers(bad);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(check_answers("nothing")[0].contains("no summary"));
        let unknown_mix = "soak-summary requests=2100 connect=0 read=0 write=0 timeout=0 p99_ms=3.0\n\
                           soak-status 200 answered=1200 expected=nan\n";
        assert_eq!(check_answers(unknown_mix).len(), 1);
    }

    #[test]
    fn growth_is_measured_after_the_warm_up() {
        let flat: Vec<_> = (0..40).map(|i| (i * 5, 20_000 + (i % 3) * 100)).collect();
        assert_eq!(memory_growth(&flat), None);
        let warm_up_then_flat: Vec<_> = (0..40)
            .map(|i| (i * 5, if i < 5 { 5_000 * (i + 1) } else { 30_000 }))
            .collect();
        assert_eq!(memory_growth(&warm_up_then_flat), None);
        let leaking: Vec<_> = (0..40).map(|i| (i * 5, 20_000 + i * 1_000)).collect();
        assert!(memory_growth(&leaking).is_some());
    }
}
