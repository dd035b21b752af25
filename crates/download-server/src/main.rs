//! `download-server`: binds, then serves the Download Service and Download Explorer.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use download_server::{Command, Config};
use tracing_subscriber::EnvFilter;

/// Each request allocates a few dozen small blocks (headers, extensions, futures):
/// mimalloc's per-thread pages serve them faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// One single-threaded runtime per core: this one, and threads that `run` starts.
#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    // Logs go to stderr, so stdout carries only the address line.
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let config = Config::parse();
    if let Some(Command::Publish(args)) = &config.command {
        return match download_server::publish(args).await {
            Ok(done) => {
                println!(
                    "published {} to {}: {} files uploaded ({} bytes), {} already there, in {:.1} s",
                    args.dir.display(),
                    args.storage,
                    done.uploaded,
                    done.bytes_uploaded,
                    done.skipped,
                    done.elapsed.as_secs_f64()
                );
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("download-server: {err}");
                ExitCode::FAILURE
            }
        };
    }
    match run(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("download-server: {err}");
            ExitCode::FAILURE
        }
    }
}

async fn run(config: Config) -> Result<(), download_server::Error> {
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|err| {
            std::io::Error::new(
                err.kind(),
                format!("cannot listen on {}: {err}", config.listen),
            )
        })?;
    // Build (and check the catalogue) before announcing the address.
    let server = download_server::Server::open(config, listener).await?;
    // Listening for SIGHUP before the address is out: a reload asked for as soon as the
    // server answers must not find the signal's default, which ends the process.
    #[cfg(unix)]
    if let Some(web_root) = server.web_root() {
        let hangups = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())?;
        tokio::spawn(reload_on_hangup(hangups, web_root));
    }
    println!(
        "Download Explorer listening on http://{}",
        server.local_addr()?
    );
    server
        .run(async {
            // If the handler cannot be installed, run until killed instead.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
            tracing::info!("shutting down: finishing requests in flight");
        })
        .await
}

/// `kill -HUP` reads `--web-root` again: a new build of the app served without a
/// restart (`cargo xtask run` serves the English app as soon as it is built and the rest
/// when it is). A directory that does not load leaves the build before it serving.
#[cfg(unix)]
async fn reload_on_hangup(
    mut hangups: tokio::signal::unix::Signal,
    web_root: download_server::WebRootHandle,
) {
    while hangups.recv().await.is_some() {
        let reading = web_root.clone();
        match tokio::task::spawn_blocking(move || reading.reload()).await {
            Ok(Ok(files)) => tracing::info!(
                "SIGHUP: serving {} again ({files} files)",
                web_root.dir().display()
            ),
            Ok(Err(err)) => tracing::warn!(
                "SIGHUP: the web root did not load, the one before still serves: {err}"
            ),
            Err(err) => tracing::warn!("SIGHUP: reading the web root stopped: {err}"),
        }
    }
}
