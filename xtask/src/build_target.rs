//! What a build of the web app is for (its output directory and the address path it
//! is served under) and the toolchain that compiles it small: what `bundle` and
//! `split` both use.

use std::path::PathBuf;
use std::process::Command;

use crate::exec::{Result, root, wasm_target_dir};
use crate::tools::WASM_TOOLCHAIN;

/// The built web app, which `cargo xtask run` serves.
pub fn dist() -> PathBuf {
    root().join("dist")
}

/// Where a build goes and the address path it is served under.
#[derive(Debug, Clone)]
pub struct Target {
    /// Where the app is served: `/` (a site root) or a sub-path such as `/explorer/`.
    pub public_url: String,
    /// The output directory.
    pub dist: PathBuf,
    /// Keep the wasm's function names (a few kB more), so CPU profiles name them.
    pub names: bool,
}

impl Target {
    /// The site root, into `dist/`: what `cargo xtask run` serves.
    pub fn site_root() -> Self {
        Target {
            public_url: "/".to_string(),
            dist: dist(),
            names: false,
        }
    }

    /// A build served under `public_url`, which must be an absolute path (`/explorer`
    /// and `/explorer/` are the same).
    pub fn new(public_url: &str, dist: PathBuf) -> Result<Self> {
        if !public_url.starts_with('/') || public_url.contains(['?', '#', ' ']) {
            return Err(format!(
                "--public-url {public_url:?}: give the path the app is served under, such as / \
                 or /explorer/"
            )
            .into());
        }
        let public_url = if public_url.ends_with('/') {
            public_url.to_string()
        } else {
            format!("{public_url}/")
        };
        Ok(Target {
            public_url,
            dist,
            names: false,
        })
    }
}

/// Builds with the pinned nightly and a standard library rebuilt for size: panics
/// abort at once with no message or location (on wasm32 std's panic message goes to a
/// stderr nobody sees, and the app installs no hook to show it), which drops core's
/// formatting and unwinding code. Without this (plain `trunk build`, on stable) the app
/// works the same and is about 10% bigger.
pub fn size_toolchain(command: &mut Command) -> &mut Command {
    command
        .env("RUSTUP_TOOLCHAIN", WASM_TOOLCHAIN)
        .env("CARGO_UNSTABLE_BUILD_STD", "std,panic_abort")
        .env("CARGO_UNSTABLE_BUILD_STD_FEATURES", "optimize_for_size")
        // Added to `.cargo/config.toml`'s flags for the target, not in their place.
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
            "-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none",
        )
        .env("CARGO_TARGET_DIR", wasm_target_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_urls_are_absolute_paths_ending_in_a_slash() {
        let url = |path: &str| Target::new(path, dist()).map(|target| target.public_url);
        assert_eq!(url("/").unwrap(), "/");
        assert_eq!(url("/explorer").unwrap(), "/explorer/");
        assert_eq!(url("/maps/explorer/").unwrap(), "/maps/explorer/");
        for bad in ["explorer/", "", "/a b/", "/x?y"] {
            let error = url(bad).unwrap_err().to_string();
            assert!(error.contains("/explorer/"), "{bad}: {error}");
        }
    }
}
