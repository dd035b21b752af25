//! Real storage engines for the object storage tests, each started on free local ports
//! in a temporary directory and stopped when dropped: Garage (S3) and Azurite (Azure
//! Blob Storage). `cargo xtask test` installs both at pinned versions (Garage with
//! `cargo install`, Azurite into `.tools/`) and names them in `DOWNLOAD_TEST_GARAGE` and
//! `DOWNLOAD_TEST_AZURITE`; without them a test fails saying how to get them, never skips.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// The bucket (or container) every test publishes to, under its own prefix.
pub const BUCKET: &str = "downloads";

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

/// Garage, a single node with one bucket and one key.
#[derive(Debug)]
pub struct Garage {
    child: Child,
    _dir: TempDir,
    s3_port: u16,
    admin_port: u16,
    admin_token: String,
}

/// Garage's key ids are `GK` and 24 hex digits, its secrets 64 hex digits.
const GARAGE_KEY_ID: &str = "GK0123456789abcdef01234567";
const GARAGE_SECRET: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

impl Garage {
    pub async fn start() -> Garage {
        let garage = program(
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
        let (s3_port, rpc_port, admin_port) = (free_port(), free_port(), free_port());
        let admin_token = "test-admin-token".to_owned();
        let config = format!(
            r#"metadata_dir = "{dir}/meta"
data_dir = "{dir}/data"
db_engine = "sqlite"
replication_factor = 1
rpc_bind_addr = "127.0.0.1:{rpc_port}"
rpc_public_addr = "127.0.0.1:{rpc_port}"
rpc_secret = "{GARAGE_SECRET}"

[s3_api]
s3_region = "garage"
api_bind_addr = "127.0.0.1:{s3_port}"
root_domain = ".s3.garage.localhost"

[admin]
api_bind_addr = "127.0.0.1:{admin_port}"
admin_token = "{admin_token}"
"#,
            dir = dir.path().display()
        );
        let config_path = dir.path().join("garage.toml");
        std::fs::write(&config_path, config).unwrap();
        let log = std::fs::File::create(dir.path().join("garage.log")).unwrap();
        // The single-node layout, the key and the bucket, made as it starts.
        let mut child = Command::new(garage)
            .arg("-c")
            .arg(&config_path)
            .args(["server", "--single-node", "--default-bucket"])
            .env("GARAGE_DEFAULT_ACCESS_KEY", GARAGE_KEY_ID)
            .env("GARAGE_DEFAULT_SECRET_KEY", GARAGE_SECRET)
            .env("GARAGE_DEFAULT_BUCKET", BUCKET)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        let client = reqwest::Client::new();
        let bucket_url =
            format!("http://127.0.0.1:{admin_port}/v2/GetBucketInfo?globalAlias={BUCKET}");
        wait_until("Garage", &mut child, || async {
            accepts_connections(s3_port)
                && client
                    .get(&bucket_url)
                    .bearer_auth(&admin_token)
                    .send()
                    .await
                    .is_ok_and(|r| r.status().is_success())
        })
        .await;
        Garage {
            child,
            _dir: dir,
            s3_port,
            admin_port,
            admin_token,
        }
    }

    /// Sets the bucket CORS rule docs/server.md asks for, through Garage's admin API.
    pub async fn allow_documented_cors(&self) {
        let rule = &serde_json::json!({
            "AllowedOrigin": ["*"],
            "AllowedMethod": ["GET", "HEAD"],
            "AllowedHeader": ["*"],
            "ExposeHeader": ["Content-Length", "Content-Range", "Content-Disposition", "ETag",
                "Accept-Ranges", "Last-Modified"],
            "MaxAgeSeconds": 3600
        });
        let client = reqwest::Client::new();
        let admin = format!("http://127.0.0.1:{}/v2", self.admin_port);
        let info: serde_json::Value = client
            .get(format!("{admin}/GetBucketInfo?globalAlias={BUCKET}"))
            .bearer_auth(&self.admin_token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = info["id"].as_str().unwrap();
        let response = client
            .post(format!("{admin}/UpdateBucket?id={id}"))
            .bearer_auth(&self.admin_token)
            .json(&serde_json::json!({ "corsRules": [rule] }))
            .send()
            .await
            .unwrap();
        let status = response.status();
        assert!(status.is_success(), "{status}: {:?}", response.text().await);
    }
}

impl Engine for Garage {
    fn storage_url(&self, prefix: &str) -> String {
        format!("s3://{BUCKET}/{prefix}")
    }

    fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT", self.origin()),
            ("AWS_REGION", "garage".into()),
            ("AWS_ACCESS_KEY_ID", GARAGE_KEY_ID.into()),
            ("AWS_SECRET_ACCESS_KEY", GARAGE_SECRET.into()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_VIRTUAL_HOSTED_STYLE_REQUEST", "false".into()),
        ]
    }

    fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.s3_port)
    }
}

impl Drop for Garage {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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
