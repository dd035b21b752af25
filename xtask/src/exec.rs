//! Running programs from the project root, and timing the named steps of a command.

use std::env;
use std::ffi::{OsStr, OsString};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::thread;
use std::time::{Duration, Instant};

/// What xtask functions return: an error is a message for the person at the terminal.
pub type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The workspace root (the parent of `xtask/`): the workspace `cargo xtask` was run in
/// (cargo sets `CARGO_MANIFEST_DIR` for the program it runs), else the one this binary
/// was built in. A binary built in another checkout sharing `CARGO_TARGET_DIR` (an A/B
/// worktree) is not rebuilt here, and would otherwise work on that checkout.
pub fn root() -> PathBuf {
    let manifest_dir =
        env::var_os("CARGO_MANIFEST_DIR").unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").into());
    Path::new(&manifest_dir)
        .parent()
        .expect("xtask lives inside the workspace")
        .to_path_buf()
}

/// Where cargo puts what it builds: `CARGO_TARGET_DIR`, or `target/` in the workspace.
pub fn target_dir() -> PathBuf {
    env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from)
}

/// Where the web app's release wasm is built (by the pinned nightly): a directory of its
/// own, so cargo's lock on `target/` never makes it wait for a build of the server.
pub fn wasm_target_dir() -> PathBuf {
    target_dir().join("wasm")
}

/// Project-local tools (gitignored): npm installs `wasm-opt` under it.
pub fn tools_dir() -> PathBuf {
    root().join(".tools")
}

/// Where npm puts the project-local tools' executables.
pub fn tools_bin() -> PathBuf {
    tools_dir().join("node_modules").join(".bin")
}

/// A command run from the project root with `.tools/node_modules/.bin` first on PATH,
/// so that trunk finds our wasm-opt before any system one (Debian's is too old).
pub fn command(program: impl AsRef<OsStr>) -> Command {
    let mut paths = vec![tools_bin()];
    paths.extend(env::split_paths(&env::var_os("PATH").unwrap_or_default()));
    let path = env::join_paths(paths).unwrap_or_else(|_| OsString::from(tools_bin()));

    let mut command = Command::new(program);
    command.current_dir(root()).env("PATH", path);
    command
}

/// `cargo`, through rustup's proxy so the project's toolchain and components are used.
pub fn cargo() -> Command {
    command("cargo")
}

/// Runs a command with its output going to the terminal; an error names the command.
pub fn run(command: &mut Command) -> Result {
    let line = command_line(command);
    println!("$ {line}");
    let status = command
        .status()
        .map_err(|error| format!("could not start `{line}`: {error}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{line}` failed ({status})").into())
    }
}

/// The trimmed standard output of a command that succeeded, or `None` when the program
/// is missing or fails (used to ask tools for their version).
pub fn output(command: &mut Command) -> Option<String> {
    let output = command.output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// The standard output of a command that must succeed.
pub fn capture(command: &mut Command) -> Result<String> {
    let output = command.output()?;
    if !output.status.success() {
        return Err(format!(
            "`{}` failed: {}",
            command.get_program().to_string_lossy(),
            String::from_utf8_lossy(&output.stderr).trim()
        )
        .into());
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// The command as typed: its program and arguments, not its environment (which may
/// hold keys).
pub fn command_line(command: &Command) -> String {
    let mut words = vec![command.get_program().to_string_lossy().into_owned()];
    words.extend(
        command
            .get_args()
            .map(|arg| arg.to_string_lossy().into_owned()),
    );
    words.join(" ")
}

/// The named steps of a command, run in order; it remembers how long each that
/// passed took, for the summary line.
#[derive(Debug)]
pub struct Steps {
    started: Instant,
    passed: Vec<(&'static str, Duration)>,
}

impl Steps {
    /// Starts the clock for the whole command.
    pub fn new() -> Self {
        Self {
            started: Instant::now(),
            passed: Vec::new(),
        }
    }

    /// Runs one step; its error says which step failed and which had passed.
    pub fn run(&mut self, name: &'static str, action: impl FnOnce() -> Result) -> Result {
        println!("\n==> {name}");
        let started = Instant::now();
        if let Err(error) = action() {
            let passed: Vec<&str> = self.passed.iter().map(|(name, _)| *name).collect();
            let passed = if passed.is_empty() {
                "none".to_string()
            } else {
                passed.join(", ")
            };
            return Err(format!("step `{name}` failed: {error}\n(steps passed: {passed})").into());
        }
        let took = started.elapsed();
        println!("<== {name}: ok ({})", minutes(took));
        self.passed.push((name, took));
        Ok(())
    }

    /// One line: how many steps passed, each with its time, and the total time.
    pub fn summary(&self) -> String {
        let steps: Vec<String> = self
            .passed
            .iter()
            .map(|(name, took)| format!("{name} {}", minutes(*took)))
            .collect();
        format!(
            "all {} steps passed in {}: {}",
            self.passed.len(),
            minutes(self.started.elapsed()),
            steps.join(", ")
        )
    }
}

/// `75 s` reads as `1m15s`.
fn minutes(duration: Duration) -> String {
    let seconds = duration.as_secs();
    if seconds < 60 {
        format!("{seconds}s")
    } else {
        format!("{}m{:02}s", seconds / 60, seconds % 60)
    }
}

/// A child process, killed when dropped.
#[derive(Debug)]
pub struct Running {
    pub name: &'static str,
    pub child: Child,
}

impl Running {
    pub fn spawn(name: &'static str, command: &mut Command) -> Result<Self> {
        let child = command
            .spawn()
            .map_err(|error| format!("could not start {name}: {error}"))?;
        Ok(Running { name, child })
    }

    /// Waits until the process accepts connections on `address`; an error if it
    /// exits or stays silent for 20 s.
    pub fn wait_for_port(&mut self, address: &str) -> Result {
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(address).is_err() {
            if let Some(status) = self.child.try_wait()? {
                return Err(format!("{} stopped ({status})", self.name).into());
            }
            if Instant::now() > deadline {
                return Err(format!("{} did not listen on {address}", self.name).into());
            }
            thread::sleep(Duration::from_millis(100));
        }
        Ok(())
    }

    /// Waits for the process to exit; an error unless it succeeded.
    pub fn finish(mut self) -> Result {
        let status = self.child.wait()?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{} failed ({status})", self.name).into())
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
