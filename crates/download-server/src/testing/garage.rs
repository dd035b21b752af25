//! Garage, an S3 object store, as a single node on free local ports with one bucket
//! and one key, stopped when dropped: what the server's storage tests, the browser test
//! on object storage and `cargo xtask bench storage` publish to.
//!
//! Only `std` and `serde_json`, so xtask includes this file as it is (`#[path]`).

use std::fs;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The bucket, made as Garage starts.
pub const BUCKET: &str = "downloads";
/// Garage's key ids are `GK` and 24 hex digits, its secrets 64 hex digits.
const KEY_ID: &str = "GK0123456789abcdef01234567";
const SECRET: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const ADMIN_TOKEN: &str = "test-admin-token";

/// A running Garage node.
#[derive(Debug)]
pub struct Garage {
    child: Child,
    s3_port: u16,
    admin_port: u16,
}

impl Garage {
    /// Starts `program` (Garage's binary) with its configuration, data and log
    /// (`garage.log`) in `dir`, and waits up to a minute for its bucket.
    pub fn start(program: &Path, dir: &Path) -> io::Result<Garage> {
        let (s3_port, rpc_port, admin_port) = (free_port()?, free_port()?, free_port()?);
        let config = format!(
            r#"metadata_dir = "{dir}/meta"
data_dir = "{dir}/data"
db_engine = "sqlite"
replication_factor = 1
rpc_bind_addr = "127.0.0.1:{rpc_port}"
rpc_public_addr = "127.0.0.1:{rpc_port}"
rpc_secret = "{SECRET}"

[s3_api]
s3_region = "garage"
api_bind_addr = "127.0.0.1:{s3_port}"
root_domain = ".s3.garage.localhost"

[admin]
api_bind_addr = "127.0.0.1:{admin_port}"
admin_token = "{ADMIN_TOKEN}"
"#,
            dir = dir.display()
        );
        let config_path = dir.join("garage.toml");
        fs::write(&config_path, config)?;
        let log = dir.join("garage.log");
        // The single-node layout, the key and the bucket, made as it starts.
        let child = Command::new(program)
            .arg("-c")
            .arg(&config_path)
            .args(["server", "--single-node", "--default-bucket"])
            .env("GARAGE_DEFAULT_ACCESS_KEY", KEY_ID)
            .env("GARAGE_DEFAULT_SECRET_KEY", SECRET)
            .env("GARAGE_DEFAULT_BUCKET", BUCKET)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(fs::File::create(&log)?)
            .spawn()
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", program.display())))?;
        // Stopped when dropped, on the way out with an error too.
        let mut garage = Garage {
            child,
            s3_port,
            admin_port,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = garage.child.try_wait()? {
                return Err(failed(&log, &format!("stopped as it started ({status})")));
            }
            if TcpStream::connect(("127.0.0.1", s3_port)).is_ok() && garage.bucket_id().is_ok() {
                return Ok(garage);
            }
            if Instant::now() >= deadline {
                return Err(failed(&log, "made no bucket in a minute"));
            }
            thread::sleep(Duration::from_millis(100));
        }
    }

    /// Where the S3 API answers, and presigned addresses lead.
    pub fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.s3_port)
    }

    /// `s3://downloads/{prefix}`: the server's `--storage` for `prefix` in the bucket.
    pub fn storage_url(&self, prefix: &str) -> String {
        format!("s3://{BUCKET}/{prefix}")
    }

    /// The variables that point `object_store` (the server, `publish`) and the AWS CLI
    /// at the bucket.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT", self.origin()),
            ("AWS_REGION", "garage".into()),
            ("AWS_ACCESS_KEY_ID", KEY_ID.into()),
            ("AWS_SECRET_ACCESS_KEY", SECRET.into()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_VIRTUAL_HOSTED_STYLE_REQUEST", "false".into()),
        ]
    }

    /// Sets the bucket CORS rule docs/server.md asks for, through Garage's admin API.
    pub fn allow_documented_cors(&self) -> io::Result<()> {
        let rule = serde_json::json!({
            "AllowedOrigin": ["*"],
            "AllowedMethod": ["GET", "HEAD"],
            "AllowedHeader": ["*"],
            "ExposeHeader": ["Content-Length", "Content-Range", "Content-Disposition", "ETag",
                "Accept-Ranges", "Last-Modified"],
            "MaxAgeSeconds": 3600
        });
        let body = serde_json::json!({ "corsRules": [rule] }).to_string();
        let path = format!("UpdateBucket?id={}", self.bucket_id()?);
        match self.admin("POST", &path, &body)? {
            (200..=299, _) => Ok(()),
            (status, answer) => Err(io::Error::other(format!("{path}: {status} {answer}"))),
        }
    }

    /// The bucket's id, once Garage has made it.
    fn bucket_id(&self) -> io::Result<String> {
        let path = format!("GetBucketInfo?globalAlias={BUCKET}");
        let (status, answer) = self.admin("GET", &path, "")?;
        let info: serde_json::Value = serde_json::from_str(&answer)
            .map_err(|e| io::Error::other(format!("{path}: {status} {e}: {answer}")))?;
        info["id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| io::Error::other(format!("{path}: {status} {answer}")))
    }

    /// `method` `/v2/{path}` of the admin API with the JSON `body`: the status and the
    /// answer's body.
    fn admin(&self, method: &str, path: &str, body: &str) -> io::Result<(u16, String)> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.admin_port))?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        // HTTP/1.0: the answer ends when the connection does, never in chunks.
        write!(
            stream,
            "{method} /v2/{path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\
             Authorization: Bearer {ADMIN_TOKEN}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )?;
        let mut answer = String::new();
        stream.read_to_string(&mut answer)?;
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0);
        Ok((status, body.to_owned()))
    }
}

impl Drop for Garage {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free local port (free when asked; Garage binds it a moment later).
fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Garage failed to start: `what`, and where its log says why.
fn failed(log: &Path, what: &str) -> io::Error {
    io::Error::other(format!("Garage {what}: see {}", log.display()))
}
