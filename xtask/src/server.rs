//! Servers that xtask starts for the benchmark, the soak test and schemathesis: each
//! waits until it answers and is stopped on every way out, errors included.

use std::env;
use std::ffi::OsStr;
use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::exec::{Result, capture, command, target_dir};

/// Our server, built by cargo with `profile` (`debug` or `release`), on a free
/// port with the demo catalogue, and the web app when `web_root` is given.
pub fn start_ours(profile: &str, web_root: Option<&Path>, args: &[&OsStr]) -> Result<Server> {
    let target_dir = target_dir();
    let port = free_port()?;
    let mut server = command(target_dir.join(profile).join("download-server"));
    server
        .args(["--listen", &format!("127.0.0.1:{port}")])
        // Warnings only: a log line per request would fill the disk and time the logger.
        .env("RUST_LOG", "warn")
        // A fixed key only keeps the "random signing key" warning out of the output.
        .env("DOWNLOAD_SIGNING_KEY", "xtask")
        .env_remove("DOWNLOAD_CATALOGUE")
        .env_remove("DOWNLOAD_PUBLIC_URL")
        .env_remove("DOWNLOAD_WEB_ROOT")
        .env_remove("DOWNLOAD_RATE_LIMIT")
        .stdout(Stdio::null())
        .args(args);
    if let Some(web_root) = web_root {
        server.arg("--web-root").arg(web_root);
    }
    Server::start(
        "download-server",
        &mut server,
        port,
        "/downloads/v1/products",
        None,
    )
}

/// A server process, stopped when dropped: asked politely (SIGTERM, so nginx's master
/// takes its workers down), then killed if it lingers.
#[derive(Debug)]
pub struct Server {
    name: &'static str,
    child: Child,
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub base: String,
}

impl Server {
    /// The process id, to watch its memory.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Starts `command` listening on `port` and waits until `probe` answers 200; a
    /// server that exits or stays silent for 20 s is an error that `log` may explain.
    pub fn start(
        name: &'static str,
        command: &mut Command,
        port: u16,
        probe: &str,
        log: Option<&Path>,
    ) -> Result<Self> {
        let child = command
            .spawn()
            .map_err(|error| format!("cannot start {name}: {error}"))?;
        let mut server = Self {
            name,
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        let explain = || {
            log.and_then(|log| fs::read_to_string(log).ok())
                .map(|text| format!("\n{text}"))
                .unwrap_or_default()
        };
        let started = Instant::now();
        loop {
            if let Some(status) = server.child.try_wait()? {
                return Err(format!("{name} exited at start ({status}){}", explain()).into());
            }
            if status_of(&format!("{}{probe}", server.base)).as_deref() == Some("200") {
                println!("ok: {name} answers at {}", server.base);
                return Ok(server);
            }
            if started.elapsed() > Duration::from_secs(20) {
                return Err(
                    format!("{name} did not answer {probe} within 20 s{}", explain()).into(),
                );
            }
            thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill")
            .args(["-TERM", &pid])
            .stderr(Stdio::null())
            .status();
        let asked = Instant::now();
        while asked.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(50));
        }
        eprintln!("{} ignored SIGTERM for 5 s: killing it", self.name);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port nobody listens on right now (the OS picks it).
pub fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// A program on PATH, or in the sbin directories (where Debian puts nginx) that a
/// non-root PATH often lacks.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH").unwrap_or_default();
    env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/local/sbin", "/sbin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// The HTTP status `url` answers with, or `None` when nothing answers.
fn status_of(url: &str) -> Option<String> {
    let output = Command::new("curl")
        .args([
            "-s",
            "-o",
            "/dev/null",
            "--max-time",
            "2",
            "-w",
            "%{http_code}",
            url,
        ])
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The product whose responses the benchmarks time: the demo's largest download list.
pub const DEMO_PRODUCT: &str = "OpenMapLocal";

/// The direct paths, from the server's own redirects, of the demo product's SU
/// GeoPackage and of its first thumbnail: the two files the benchmarks time.
pub fn demo_file_paths(base: &str) -> Result<(String, String)> {
    let product = format!("/downloads/v1/products/{DEMO_PRODUCT}");
    let zip = redirect_path(
        base,
        &format!("{product}/downloads?area=SU&format=GeoPackage&redirect"),
        &[],
    )?;
    let thumbnail = redirect_path(base, &format!("{product}/images/0"), &[])?;
    Ok((zip, thumbnail))
}

/// The path of the 307 that `path` answers with (sent with these `Name: value` headers).
pub fn redirect_path(base: &str, path: &str, headers: &[&str]) -> Result<String> {
    let out = capture(
        Command::new("curl")
            .args([
                "-sS",
                "-o",
                "/dev/null",
                "-w",
                "%{http_code} %{redirect_url}",
            ])
            .args(headers.iter().flat_map(|header| ["-H", header]))
            .arg(format!("{base}{path}")),
    )?;
    match out.split_once(' ') {
        Some(("307", location)) => location
            .strip_prefix(base)
            .map(str::to_string)
            .ok_or_else(|| format!("{path} redirects off this server: {location}").into()),
        _ => Err(format!("{path}: expected a 307, got `{out}`").into()),
    }
}
