use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;

/// How the server runs: every flag also reads an environment variable.
#[derive(Clone, Debug, Parser)]
#[command(
    name = "download-server",
    version,
    about = "Download Explorer: the Download Service with a demo catalogue and the web app"
)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "DOWNLOAD_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Catalogue directory (catalogue.json and its files); default: the embedded demo catalogue.
    #[arg(long, env = "DOWNLOAD_CATALOGUE", value_name = "DIR")]
    pub catalogue: Option<PathBuf>,

    /// Where the catalogue lives: a directory (as --catalogue), s3://bucket/prefix (any
    /// S3-compatible store; endpoint, region and credentials from AWS_*) or
    /// az://container/prefix (Azure Blob Storage; account and key from AZURE_*). With
    /// object storage, file downloads redirect to presigned addresses on the store.
    #[arg(
        long,
        env = "DOWNLOAD_STORAGE",
        value_name = "URL",
        conflicts_with = "catalogue"
    )]
    pub storage: Option<String>,

    /// Lifetime of the presigned addresses on the object store that downloads redirect
    /// to, in seconds (at most 7 days, S3's limit).
    #[arg(
        long,
        env = "DOWNLOAD_PRESIGN_LIFETIME",
        value_name = "SECONDS",
        default_value_t = 3600,
        value_parser = clap::value_parser!(u64).range(1..=604_800)
    )]
    pub presign_lifetime: u64,

    /// How often to check the object store's catalogue.json for a new version (a
    /// conditional GET on its ETag), in seconds; a new catalogue is swapped in whole.
    #[arg(
        long,
        env = "DOWNLOAD_CATALOGUE_POLL",
        value_name = "SECONDS",
        default_value_t = 30,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub catalogue_poll: u64,

    /// Origin used in every link the service writes, e.g. https://maps.example.org
    /// (default: http://<listen address>).
    #[arg(long, env = "DOWNLOAD_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,

    /// Lifetime of access tokens from the token endpoint, in seconds.
    #[arg(
        long,
        env = "DOWNLOAD_TOKEN_TTL",
        value_name = "SECONDS",
        default_value_t = 300
    )]
    pub token_ttl: u64,

    /// Lifetime of signed data package download links, in seconds (the real service's
    /// last about an hour; a few seconds tests clients that must list again).
    #[arg(
        long,
        env = "DOWNLOAD_LINK_LIFETIME",
        value_name = "SECONDS",
        default_value_t = 3600,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub link_lifetime: u64,

    /// Key that signs access tokens and download links; servers sharing it accept each
    /// other's tokens (default: a random key, so tokens and links die with the process).
    #[arg(long, env = "DOWNLOAD_SIGNING_KEY", hide_env_values = true)]
    pub(crate) signing_key: Option<SigningKey>,

    /// Directory of the built web app, served at `/` (index.html answers app routes).
    #[arg(long, env = "DOWNLOAD_WEB_ROOT", value_name = "DIR")]
    pub web_root: Option<PathBuf>,

    /// Seconds a client has to send a request's headers, from their first byte.
    #[arg(
        long,
        env = "DOWNLOAD_HEADER_TIMEOUT",
        value_name = "SECONDS",
        default_value_t = 10,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub header_timeout: u64,

    /// Seconds a client has to send a request's body (the token request's form).
    #[arg(
        long,
        env = "DOWNLOAD_BODY_TIMEOUT",
        value_name = "SECONDS",
        default_value_t = 30,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub body_timeout: u64,

    /// Seconds a kept-alive connection may wait for its next request.
    #[arg(
        long,
        env = "DOWNLOAD_IDLE_TIMEOUT",
        value_name = "SECONDS",
        default_value_t = 60,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub idle_timeout: u64,

    /// Most connections open at once: when full, the connection idle the longest is
    /// closed for a new one. Each may hold a socket and an open file, so the default
    /// stays well under the usual limit of 1,024 open files. Shared evenly among the
    /// server's threads (one per core), each of which keeps to its share.
    #[arg(
        long,
        env = "DOWNLOAD_MAX_CONNECTIONS",
        value_name = "COUNT",
        default_value_t = 400,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub max_connections: u64,

    /// Most requests a minute for each API key (or access token's project), or for each
    /// client address when a request has no valid one; more are answered 429 with
    /// Retry-After. Off by default.
    #[arg(long, env = "DOWNLOAD_RATE_LIMIT", value_name = "PER_MINUTE")]
    pub rate_limit: Option<std::num::NonZeroU32>,

    /// Log every request (method, path, query without credentials, status, time);
    /// errors and start-up are logged either way.
    #[arg(long, env = "DOWNLOAD_LOG_REQUESTS")]
    pub log_requests: bool,

    /// Without a command, the server runs.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// For a program embedding the server: `object_store` configuration keys (e.g.
    /// `aws_endpoint`, `aws_access_key_id`) applied over the environment's, so that
    /// one process can run servers on different stores. Not a flag: secrets stay out
    /// of command lines.
    #[arg(skip)]
    pub storage_options: Vec<(String, String)>,
}

/// What `download-server` does instead of serving.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum Command {
    /// Uploads a catalogue directory to object storage: files first (those already
    /// there with the same size and MD5 are skipped), catalogue.json last.
    Publish(PublishArgs),
}

/// `download-server publish DIR --storage URL`.
#[derive(Clone, Debug, clap::Args)]
pub struct PublishArgs {
    /// The catalogue directory: catalogue.json and its files.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,

    /// The store to publish to: s3://bucket/prefix or az://container/prefix.
    #[arg(long, env = "DOWNLOAD_STORAGE", value_name = "URL")]
    pub storage: String,

    /// Files uploaded at once (each large file also sends a few parts at once).
    #[arg(long, value_name = "COUNT", default_value_t = 4,
        value_parser = clap::value_parser!(u64).range(1..=64))]
    pub jobs: u64,

    /// As [`Config::storage_options`]: `object_store` keys over the environment's.
    #[arg(skip)]
    pub storage_options: Vec<(String, String)>,
}

impl Config {
    /// This configuration with the default public URL taken from the address the server
    /// actually listens on (useful after binding port 0). An explicit public URL is kept.
    pub(crate) fn with_bound_address(mut self, bound: SocketAddr) -> Config {
        self.listen = bound;
        self
    }

    /// The origin links are written with, without a trailing slash.
    pub(crate) fn public_origin(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => {
                // A wildcard address is no place a browser can go: name the loopback.
                let mut addr = self.listen;
                if addr.ip().is_unspecified() {
                    addr.set_ip(if addr.is_ipv4() {
                        std::net::Ipv4Addr::LOCALHOST.into()
                    } else {
                        std::net::Ipv6Addr::LOCALHOST.into()
                    });
                }
                format!("http://{addr}")
            }
        }
    }
}

/// The `--signing-key`, which `Debug` never shows, so that it never reaches a log.
#[derive(Clone)]
pub(crate) struct SigningKey(String);

impl SigningKey {
    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

impl From<String> for SigningKey {
    fn from(key: String) -> SigningKey {
        SigningKey(key)
    }
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_documented_ones() {
        let config = Config::try_parse_from(["download-server"]).unwrap();
        assert_eq!(config.listen, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(config.token_ttl, 300);
        assert_eq!(config.link_lifetime, 3600);
        assert_eq!((config.presign_lifetime, config.catalogue_poll), (3600, 30));
        assert!(config.storage.is_none() && config.command.is_none());
        assert_eq!(config.public_origin(), "http://127.0.0.1:8080");
        assert_eq!(
            (
                config.header_timeout,
                config.body_timeout,
                config.idle_timeout,
                config.max_connections
            ),
            (10, 30, 60, 400)
        );
        assert!(Config::try_parse_from(["download-server", "--max-connections", "0"]).is_err());
        assert_eq!(config.rate_limit, None);
        assert!(Config::try_parse_from(["download-server", "--rate-limit", "0"]).is_err());
    }

    #[test]
    fn publish_is_a_command_and_storage_excludes_catalogue() {
        let config = Config::try_parse_from([
            "download-server",
            "publish",
            "demo",
            "--storage",
            "s3://b/p",
        ])
        .unwrap();
        let Some(Command::Publish(args)) = config.command else {
            panic!("publish parses");
        };
        assert_eq!(
            (args.dir, args.storage.as_str(), args.jobs),
            ("demo".into(), "s3://b/p", 4)
        );
        assert!(
            Config::try_parse_from(["download-server", "--catalogue", "a", "--storage", "b"])
                .is_err()
        );
    }

    #[test]
    fn wildcard_listen_address_gives_a_loopback_origin() {
        let config =
            Config::try_parse_from(["download-server", "--listen", "0.0.0.0:9000"]).unwrap();
        assert_eq!(config.public_origin(), "http://127.0.0.1:9000");
        let config = config.with_bound_address("[::]:9001".parse().unwrap());
        assert_eq!(config.public_origin(), "http://[::1]:9001");
    }

    #[test]
    fn public_url_wins_and_loses_its_trailing_slash() {
        let config = Config::try_parse_from([
            "download-server",
            "--public-url",
            "https://maps.example.org/",
        ])
        .unwrap()
        .with_bound_address("127.0.0.1:1".parse().unwrap());
        assert_eq!(config.public_origin(), "https://maps.example.org");
    }

    #[test]
    fn debug_output_hides_the_signing_key() {
        let config =
            Config::try_parse_from(["download-server", "--signing-key", "hunter2"]).unwrap();
        let shown = format!("{config:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("<redacted>"));
    }
}
