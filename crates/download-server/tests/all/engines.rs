//! Real storage engines for the object storage tests, each started on free local ports
//! in a temporary directory and stopped when dropped: Garage (S3) and Azurite (Azure
//! Blob Storage). `cargo xtask test` installs both at pinned versions (Garage with
//! `cargo install`, Azurite into `.tools/`) and names them in `DOWNLOAD_TEST_GARAGE` and
//! `DOWNLOAD_TEST_AZURITE`; without them a test fails saying how to get them, never skips.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use download_server::testing;
use tempfile::TempDir;

/// The bucket (or container) every test publishes to, under its own prefix.
pub use download_server::testing::BUCKET;

/// A free local port (free when asked; the engine binds it a moment later).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The engine's program: from `variable` (what xtask sets), else `installed`, where
/// xtask installs it.
fn program(variable: &str, installed: PathBuf, what: &str) -> PathBuf {
    let path = std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or(installed);
    assert!(
        path.exists(),
        "{what} is not installed at {}: `cargo xtask test` installs it, or set {variable}",
        path.display()
    );
    path
}

/// `path` in the workspace.
fn in_workspace(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// Waits until `ready` answers true, up to a minute.
async fn wait_until<F: Future<Output = bool>>(
    what: &str,
    child: &mut Child,
    mut ready: impl FnMut() -> F,
) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ready().await {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} stopped before it was ready: {status}");
        }
        assert!(
            Instant::now() < deadline,
            "{what} was not ready in a minute"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn accepts_connections(port: u16) -> bool {
    std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
}

/// One of the engines: what a server or `publish` needs in its environment.
pub trait Engine {
    /// `s3://downloads/{prefix}` or `az://downloads/{prefix}`.
    fn storage_url(&self, prefix: &str) -> String;
    /// The variables that point `object_store` at this engine.
    fn env(&self) -> Vec<(&'static str, String)>;
    /// The store's origin, where presigned addresses lead.
    fn origin(&self) -> String;
}

/// Garage (`download_server::testing::Garage`), its files in a temporary directory.
#[derive(Debug)]
pub struct Garage {
    garage: testing::Garage,
    _dir: TempDir,
}

impl Garage {
    pub async fn start() -> Garage {
        let program = program(
            "DOWNLOAD_TEST_GARAGE",
            // Where `cargo install` puts it.
            std::env::var_os("CARGO_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::home_dir().map(|home| home.join(".cargo")))
                .unwrap_or_default()
                .join("bin/garage"),
            "Garage",
        );
        let dir = TempDir::new().unwrap();
        let path = dir.path().to_owned();
        // It waits for the bucket: off the test's runtime.
        let garage = tokio::task::spawn_blocking(move || testing::Garage::start(&program, &path))
            .await
            .unwrap()
            .unwrap_or_else(|e| panic!("{e}"));
        Garage { garage, _dir: dir }
    }

    /// Sets the bucket CORS rule docs/server.md asks for.
    pub fn allow_documented_cors(&self) {
        self.garage.allow_documented_cors().unwrap();
    }
}

impl Engine for Garage {
    fn storage_url(&self, prefix: &str) -> String {
        self.garage.storage_url(prefix)
    }

    fn env(&self) -> Vec<(&'static str, String)> {
        self.garage.env()
    }

    fn origin(&self) -> String {
        self.garage.origin()
    }
}

/// Azurite's well-known development account (public, in Microsoft's documentation).
const AZURITE_ACCOUNT: &str = "devstoreaccount1";
const AZURITE_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// Azurite's blob service with one container.
#[derive(Debug)]
pub struct Azurite {
    child: Child,
    _dir: TempDir,
    port: u16,
}

impl Azurite {
    pub async fn start() -> Azurite {
        let azurite = program(
            "DOWNLOAD_TEST_AZURITE",
            in_workspace(".tools/node_modules/.bin/azurite-blob"),
            "Azurite",
        );
        let dir = TempDir::new().unwrap();
        let port = free_port();
        let log = std::fs::File::create(dir.path().join("azurite.log")).unwrap();
        let mut child = Command::new(azurite)
            .args(["--blobHost", "127.0.0.1", "--blobPort", &port.to_string()])
            .arg("--location")
            .arg(dir.path())
            .args(["--skipApiVersionCheck", "--disableTelemetry"])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        wait_until("Azurite", &mut child, || async {
            accepts_connections(port)
        })
        .await;
        let azurite = Azurite {
            child,
            _dir: dir,
            port,
        };
        azurite.create_container().await;
        azurite
    }

    fn account_url(&self) -> String {
        format!("http://127.0.0.1:{}/{AZURITE_ACCOUNT}", self.port)
    }

    /// Creates the container: a request signed with the account key (Shared Key), which
    /// `object_store` does not make.
    async fn create_container(&self) {
        use reqsign_azure_storage::{RequestSigner, StaticCredentialProvider};
        let signer = reqsign_core::Signer::new(
            reqsign_core::Context::new(),
            StaticCredentialProvider::new_shared_key(AZURITE_ACCOUNT, AZURITE_KEY),
            RequestSigner::new(),
        );
        let url = format!("{}/{BUCKET}?restype=container", self.account_url());
        let (mut parts, ()) = http::Request::put(&url)
            .header("x-ms-version", "2021-08-06")
            .header("content-length", "0")
            .body(())
            .unwrap()
            .into_parts();
        signer.sign(&mut parts, None).await.unwrap();
        let mut request = reqwest::Client::new().put(&url);
        for (name, value) in &parts.headers {
            request = request.header(name.as_str(), value.as_bytes());
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        assert!(status.is_success(), "{status}: {:?}", response.text().await);
    }
}

impl Engine for Azurite {
    fn storage_url(&self, prefix: &str) -> String {
        format!("az://{BUCKET}/{prefix}")
    }

    fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AZURE_STORAGE_USE_EMULATOR", "true".into()),
            (
                "AZURITE_BLOB_STORAGE_URL",
                format!("http://127.0.0.1:{}", self.port),
            ),
            ("AZURE_STORAGE_ACCOUNT_NAME", AZURITE_ACCOUNT.into()),
            ("AZURE_STORAGE_ACCOUNT_KEY", AZURITE_KEY.into()),
        ]
    }

    fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Azurite {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
