//! Schema-driven testing: schemathesis (PyPI, pinned) against the live server, with
//! positive and negative data on every operation of its OpenAPI document.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};

use crate::exec::{Result, cargo, command, output, root, run, target_dir, tools_dir};

const SCHEMATHESIS_VERSION: &str = "4.32.5";
/// A fixed seed: CI runs the same cases each time, so a failure reproduces locally.
const SEED: &str = "20261123";

/// Builds and starts the server on a free port with the demo catalogue, and runs
/// schemathesis against its `/downloads/v1/openapi.json` with every check.
pub fn run_against_server() -> Result {
    let schemathesis = ensure_schemathesis()?;
    run(cargo().args(["build", "-p", "download-server"]))?;
    let server = Server::start()?;
    let schema = format!("{}/downloads/v1/openapi.json", server.origin);
    run(command(schemathesis)
        .current_dir(root().join("tools/schemathesis"))
        .args([
            "run",
            &schema,
            "--checks",
            "all",
            "--mode",
            "all",
            "--max-examples",
            "40",
            "--seed",
            SEED,
            "--generation-database",
            "none",
            "--no-color",
        ]))
}

/// schemathesis in a project-local virtual environment (`.tools/schemathesis`).
fn ensure_schemathesis() -> Result<std::path::PathBuf> {
    let venv = tools_dir().join("schemathesis");
    let bin = venv.join("bin").join("schemathesis");
    let wanted = format!("version {SCHEMATHESIS_VERSION}");
    if output(command(&bin).arg("--version")).is_some_and(|v| v.contains(&wanted)) {
        println!("ok: schemathesis {SCHEMATHESIS_VERSION}");
        return Ok(bin);
    }
    println!("installing schemathesis {SCHEMATHESIS_VERSION} (PyPI) into .tools/schemathesis");
    run(command("python3").arg("-m").arg("venv").arg(&venv))?;
    run(command(venv.join("bin").join("pip")).args([
        "install",
        "--quiet",
        &format!("schemathesis=={SCHEMATHESIS_VERSION}"),
    ]))?;
    Ok(bin)
}

/// The debug server on a free loopback port, stopped when dropped.
struct Server {
    child: Child,
    origin: String,
}

impl Server {
    fn start() -> Result<Server> {
        let binary = target_dir().join("debug").join("download-server");
        let mut child = command(binary)
            .args(["--listen", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        // The server prints its address once the catalogue has loaded.
        let mut line = String::new();
        let stdout = child
            .stdout
            .take()
            .ok_or("no stdout from download-server")?;
        BufReader::new(stdout).read_line(&mut line)?;
        let origin = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .ok_or_else(|| format!("download-server did not print its address: {line:?}"))?
            .to_owned();
        Ok(Server { child, origin })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
