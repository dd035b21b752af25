//! `cargo xtask dev`: the server and `trunk serve` together, for working on the app.
//!
//! The server listens on 127.0.0.1:8080 and writes its links for trunk's address, so
//! every request the app makes (API, token endpoint, files) goes through trunk's proxy
//! (Trunk.toml). Trunk rebuilds the app on every change. Ctrl-C stops both; when either
//! stops, the other is stopped too.

use std::env;
use std::net::TcpStream;
use std::path::PathBuf;
use std::thread;
use std::time::Duration;

use crate::exec::{Result, Running, cargo, command, root, run};
use crate::tools;

/// Where the server listens: the backend of Trunk.toml's proxies.
const SERVER: &str = "127.0.0.1:8080";
/// Where `trunk serve` listens (Trunk.toml's `[serve]`).
const APP: &str = "http://127.0.0.1:8081";

/// Runs both until one stops; `server_args` go to the server.
pub fn dev(server_args: &[String]) -> Result {
    if TcpStream::connect(SERVER).is_ok() {
        return Err(format!(
            "something already listens on {SERVER}: stop it, or run only `trunk serve` beside it"
        )
        .into());
    }
    tools::ensure_build_tools()?;
    tools::ensure_trunk()?;
    run(cargo().args(["build", "--release", "-p", "download-server"]))?;
    // trunk runs cargo offline (Trunk.toml).
    run(cargo().arg("fetch"))?;

    let target_dir =
        env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let mut server = Running::spawn(
        "download-server",
        command(target_dir.join("release/download-server"))
            .args(["--listen", SERVER, "--public-url", APP])
            .args(server_args),
    )?;
    server.wait_for_port(SERVER)?;
    // Its own output directory: `dist/` keeps the release build `cargo xtask run` serves.
    let trunk = Running::spawn(
        "trunk serve",
        command("trunk")
            .args(["serve", "--dist"])
            .arg(target_dir.join("trunk-serve")),
    )?;
    println!("\nthe app will be at {APP}/ once trunk has built it; Ctrl-C stops both");

    let mut running = [server, trunk];
    loop {
        for process in &mut running {
            if let Some(status) = process.child.try_wait()? {
                // `running` is dropped on return, which stops the other one.
                return if status.success() {
                    Ok(())
                } else {
                    Err(format!("{} stopped ({status})", process.name).into())
                };
            }
        }
        thread::sleep(Duration::from_millis(200));
    }
}
