//! Schema-driven testing: schemathesis (PyPI, pinned) against the live server, with
//! positive and negative data on every operation of its OpenAPI document.

use crate::exec::{Result, cargo, command, output, root, run, tools_dir};
use crate::server::start_ours;

const SCHEMATHESIS_VERSION: &str = "4.32.5";
/// A fixed seed: CI runs the same cases each time, so a failure reproduces locally.
const SEED: &str = "20261123";

/// Builds and starts the server on a free port with the demo catalogue, and runs
/// schemathesis against its `/downloads/v1/openapi.json` with every check.
pub fn run_against_server() -> Result {
    let schemathesis = ensure_schemathesis()?;
    run(cargo().args(["build", "-p", "download-server"]))?;
    let server = start_ours("debug", None, &[])?;
    let schema = format!("{}/downloads/v1/openapi.json", server.base);
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
