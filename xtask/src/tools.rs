//! Installing the build and test tools a fresh machine lacks, each at the exact version
//! the project pins, and skipping each one already there.

use std::fs;
use std::path::{Path, PathBuf};

use crate::exec::{Result, cargo, command, output, root, run, tools_bin, tools_dir};

/// trunk 0.22 needs a newer rustc than the project's, so stay on 0.21.
const TRUNK_VERSION: &str = "0.21.14";
const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The pinned nightly that builds the web app's release wasm. Only nightly can rebuild
/// the standard library for size (`-Zbuild-std`, `panic=immediate-abort`), which takes
/// about 10% off the first load; everything else (clippy, tests, the server) is stable.
pub const WASM_TOOLCHAIN: &str = "nightly-2026-05-20";

/// Everything the release build needs: the wasm target, the size toolchain and wasm-opt.
/// wasm-split and wasm-bindgen are xtask's own libraries (used in `split.rs`); trunk and the
/// wasm-bindgen command only `cargo xtask dev` uses ([`ensure_trunk`]).
pub fn ensure_build_tools() -> Result {
    ensure_wasm_target()?;
    ensure_wasm_toolchain()?;
    ensure_wasm_opt()
}

/// axe-core, the accessibility rules the browser tests check pages with (from npm,
/// into `.tools/`; the tests inject its `axe.min.js`).
const AXE_CORE_VERSION: &str = "4.14.1";

/// geckodriver, Firefox's WebDriver server, built from its crate (Debian has no package).
const GECKODRIVER_VERSION: &str = "0.37.1";

/// The three engines the browser tests run in, with their WebDriver servers, and
/// axe-core: Chromium ([`ensure_browser`]), Firefox ESR with geckodriver, WebKitGTK's
/// MiniBrowser with WebKitWebDriver and Xvfb (MiniBrowser needs an X display).
pub fn ensure_browsers() -> Result {
    ensure_browser()?;
    let firefox = output(command("firefox-esr").arg("--version"));
    // WebKitWebDriver has no --version; MiniBrowser is in the package's library folder.
    let webkit = output(command("sh").args([
        "-c",
        "command -v WebKitWebDriver && command -v xvfb-run && \
         test -x /usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    ]));
    match (&firefox, &webkit) {
        (Some(firefox), Some(_)) => println!("ok: {firefox}; WebKitWebDriver; xvfb-run"),
        _ => apt_install(
            &["firefox-esr", "webkit2gtk-driver", "xvfb"],
            "the browser tests in Firefox and WebKit",
        )?,
    }
    let wanted = format!("geckodriver {GECKODRIVER_VERSION}");
    if has_version("geckodriver", &wanted) {
        return Ok(());
    }
    run(cargo().args([
        "install",
        "--locked",
        "geckodriver",
        "--version",
        GECKODRIVER_VERSION,
    ]))
}

/// The engines the browser tests run in, as `E2E_BROWSER` names them.
pub const ENGINES: [&str; 3] = ["chromium", "firefox", "webkit"];

/// `cargo`, to run the browser tests (or a browser benchmark) in `engine`.
pub fn cargo_in(engine: &str) -> std::process::Command {
    let mut command = if engine == "webkit" {
        // MiniBrowser has no headless mode: a virtual X display of its own, large
        // enough that its pointer (at the screen's centre) is off the 1280x900
        // window, where it would hover links (and preload their pages' code).
        let mut xvfb = command("xvfb-run");
        xvfb.args(["-a", "-s", "-screen 0 3840x2160x24", "cargo"]);
        xvfb
    } else {
        cargo()
    };
    command.env("E2E_BROWSER", engine);
    command
}

/// Chromium and chromedriver, and axe-core, for the browser tests.
pub fn ensure_browser() -> Result {
    ensure_axe_core()?;
    let chromium = output(command("chromium").arg("--version"));
    let chromedriver = output(command("chromedriver").arg("--version"));
    if let (Some(chromium), Some(chromedriver)) = (&chromium, &chromedriver) {
        println!("ok: {chromium}; {chromedriver}");
        return Ok(());
    }
    apt_install(&["chromium", "chromium-driver"], "the browser tests")
}

fn ensure_wasm_target() -> Result {
    let installed = output(command("rustup").args(["target", "list", "--installed"]))
        .ok_or("rustup is needed to add the wasm32-unknown-unknown target: https://rustup.rs")?;
    if installed.lines().any(|target| target.trim() == WASM_TARGET) {
        println!("ok: rust target {WASM_TARGET}");
        return Ok(());
    }
    run(command("rustup").args(["target", "add", WASM_TARGET]))
}

/// The pinned nightly with the standard library's source (for `-Zbuild-std`) and the
/// wasm target. Checked on disk, so a machine that has it needs no network. `fuzz` uses
/// it too.
pub fn ensure_wasm_toolchain() -> Result {
    let toolchain = format!("+{WASM_TOOLCHAIN}");
    if let Some(sysroot) = output(command("rustc").args([&toolchain, "--print", "sysroot"])) {
        let rustlib = Path::new(&sysroot).join("lib").join("rustlib");
        if rustlib.join("src/rust/library").is_dir() && rustlib.join(WASM_TARGET).is_dir() {
            println!("ok: {WASM_TOOLCHAIN} with rust-src and {WASM_TARGET}");
            return Ok(());
        }
    }
    run(command("rustup").args([
        "toolchain",
        "install",
        WASM_TOOLCHAIN,
        "--profile",
        "minimal",
        "--component",
        "rust-src",
        "--target",
        WASM_TARGET,
    ]))
}

/// trunk and the wasm-bindgen command it runs, for `cargo xtask dev` (`trunk serve`).
pub fn ensure_trunk() -> Result {
    ensure_wasm_bindgen()?;
    let wanted = format!("trunk {TRUNK_VERSION}");
    if has_version("trunk", &wanted) {
        return Ok(());
    }
    run(cargo().args(["install", "--locked", "trunk", "--version", TRUNK_VERSION]))
}

/// wasm-bindgen-cli (the command trunk runs, and wasm-bindgen-test-runner) must match the `wasm-bindgen` crate in Cargo.lock exactly, and so
/// must Trunk.toml (trunk runs offline and refuses any other version).
pub fn ensure_wasm_bindgen() -> Result {
    let version = locked_wasm_bindgen_version()?;
    let trunk_toml = trunk_toml_value("wasm_bindgen")?;
    if trunk_toml != version {
        return Err(format!(
            "Trunk.toml has [tools] wasm_bindgen = \"{trunk_toml}\" but Cargo.lock has wasm-bindgen \
             {version}: set Trunk.toml to \"{version}\""
        )
        .into());
    }
    if has_version("wasm-bindgen", &format!("wasm-bindgen {version}")) {
        return Ok(());
    }
    // Not `--locked`: wasm-bindgen-cli's own lock file wants a crate version crates.io lacks.
    run(cargo().args(["install", "wasm-bindgen-cli", "--version", &version]))
}

/// wasm-opt from npm's binaryen, into the project's `.tools/` (Debian's binaryen is too
/// old: it silently breaks the wasm). Trunk.toml's `wasm_opt = "version_N"` picks N.
fn ensure_wasm_opt() -> Result {
    let wanted = trunk_toml_value("wasm_opt")?;
    let release = wanted.strip_prefix("version_").ok_or_else(|| {
        format!("Trunk.toml has [tools] wasm_opt = \"{wanted}\"; expected \"version_<N>\"")
    })?;
    let wasm_opt = tools_bin().join("wasm-opt");
    if let Some(found) = output(command(&wasm_opt).arg("--version"))
        && found.contains(&wanted)
    {
        println!("ok: {found} ({})", wasm_opt.display());
        return Ok(());
    }
    println!("wasm-opt: no {wanted} in .tools/");
    npm_install(&format!("binaryen@{release}"))
}

/// axe-core at the pinned version in `.tools/node_modules/axe-core`.
fn ensure_axe_core() -> Result {
    let package = tools_dir().join("node_modules/axe-core/package.json");
    let installed = fs::read_to_string(&package).unwrap_or_default();
    if installed.contains(&format!("\"version\": \"{AXE_CORE_VERSION}\"")) {
        println!("ok: axe-core {AXE_CORE_VERSION} ({})", package.display());
        return Ok(());
    }
    println!("axe-core: no {AXE_CORE_VERSION} in .tools/");
    npm_install(&format!("axe-core@{AXE_CORE_VERSION}"))
}

/// Garage, the S3-compatible store the server's object storage tests run against
/// (built from crates.io with the SQLite metadata engine only, which a test's single
/// node needs: about 25 minutes on 2 cores). Installed where `cargo install` puts
/// tools (`$CARGO_HOME/bin`, like trunk), not in `.tools/`, so a fresh clone on a
/// machine that built it once does not build it again.
const GARAGE_VERSION: &str = "2.5.0";
/// Azurite, Microsoft's Azure Storage emulator (from npm).
const AZURITE_VERSION: &str = "3.37.0";

/// Where [`ensure_storage_engines`] installs Garage.
pub fn garage() -> PathBuf {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .unwrap_or_default();
    cargo_home.join("bin/garage")
}

/// Where [`ensure_storage_engines`] installs Azurite's blob service.
pub fn azurite() -> PathBuf {
    tools_bin().join("azurite-blob")
}

/// The storage engines of the server's object storage tests, and wrk, which loads two
/// servers while a catalogue is published. The tests find the engines through
/// `DOWNLOAD_TEST_GARAGE` and `DOWNLOAD_TEST_AZURITE` ([`storage_test_env`]).
pub fn ensure_storage_engines() -> Result {
    // `garage --version` prints `garage cargo:2.5.0 [features: …]`.
    let version = output(command(garage()).arg("--version")).unwrap_or_default();
    if version.contains(&format!("cargo:{GARAGE_VERSION} ")) {
        println!("ok: {version} ({})", garage().display());
    } else {
        println!("garage: no {GARAGE_VERSION} at {}", garage().display());
        run(cargo()
            .args(["install", "--locked", "garage", "--version", GARAGE_VERSION])
            .args(["--no-default-features", "--features", "bundled-libs,sqlite"]))?;
    }
    let package = tools_dir().join("node_modules/azurite/package.json");
    let installed = fs::read_to_string(&package).unwrap_or_default();
    if installed.contains(&format!("\"version\": \"{AZURITE_VERSION}\"")) {
        println!("ok: azurite {AZURITE_VERSION} ({})", package.display());
    } else {
        println!("azurite: no {AZURITE_VERSION} in .tools/");
        npm_install(&format!("azurite@{AZURITE_VERSION}"))?;
    }
    // `wrk --version` exits with 1: ask the shell whether it is there.
    if output(command("sh").args(["-c", "command -v wrk"])).is_none_or(|path| path.is_empty()) {
        apt_install(&["wrk"], "the object storage tests")?;
    }
    Ok(())
}

/// The variables that point the server's object storage tests at the engines.
pub fn storage_test_env() -> [(&'static str, PathBuf); 2] {
    [
        ("DOWNLOAD_TEST_GARAGE", garage()),
        ("DOWNLOAD_TEST_AZURITE", azurite()),
    ]
}

/// `npm install package@version` into `.tools/` (npm itself from Debian when missing).
fn npm_install(package: &str) -> Result {
    println!("installing {package} from npm into .tools/");
    if output(command("npm").arg("--version")).is_none() {
        apt_install(&["npm"], &format!("installing {package}"))?;
    }
    fs::create_dir_all(tools_dir())?;
    run(command("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--save-exact",
            "--prefix",
        ])
        .arg(tools_dir())
        .arg(package))
}

/// True when `program --version` prints `wanted`; says what it found either way.
fn has_version(program: &str, wanted: &str) -> bool {
    match output(command(program).arg("--version")) {
        Some(found) if found.contains(wanted) => {
            println!("ok: {found}");
            true
        }
        Some(found) => {
            println!("{program}: found `{found}`, want `{wanted}`: installing");
            false
        }
        None => {
            println!("{program}: not found, installing `{wanted}`");
            false
        }
    }
}

/// The version of the `wasm-bindgen` crate that Cargo.lock pins.
fn locked_wasm_bindgen_version() -> Result<String> {
    locked_version("wasm-bindgen")
}

/// The one version of package `name` in Cargo.lock.
fn locked_version(name: &str) -> Result<String> {
    let lock = fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|error| format!("cannot read Cargo.lock: {error}"))?;
    let name_line = format!("name = \"{name}\"");
    let versions: Vec<&str> = lock
        .split("[[package]]")
        .filter(|package| package.lines().any(|line| line == name_line))
        .filter_map(|package| {
            package
                .lines()
                .find_map(|line| quoted_value(line, "version"))
        })
        .collect();
    match versions.as_slice() {
        [version] => Ok(version.to_string()),
        [] => Err(format!("Cargo.lock has no {name} package").into()),
        _ => Err(format!(
            "Cargo.lock has several {name} versions ({}): the build needs exactly one",
            versions.join(", ")
        )
        .into()),
    }
}

/// The string value of `key = "..."` in Trunk.toml (its keys are unique).
fn trunk_toml_value(key: &str) -> Result<String> {
    let text = fs::read_to_string(root().join("Trunk.toml"))
        .map_err(|error| format!("cannot read Trunk.toml: {error}"))?;
    text.lines()
        .find_map(|line| quoted_value(line, key))
        .map(str::to_string)
        .ok_or_else(|| format!("Trunk.toml has no `{key} = \"...\"` line").into())
}

/// `value` from a TOML line `key = "value"`.
fn quoted_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let (name, value) = line.split_once('=')?;
    if name.trim() != key {
        return None;
    }
    value.trim().strip_prefix('"')?.strip_suffix('"')
}

/// Installs Debian packages when running as root; otherwise says what to install.
pub fn apt_install(packages: &[&str], needed_for: &str) -> Result {
    let list = packages.join(" ");
    let is_root = output(command("id").arg("-u")).as_deref() == Some("0");
    let has_apt = output(command("apt-get").arg("--version")).is_some();
    if !(is_root && has_apt) {
        return Err(format!(
            "{needed_for} needs the Debian packages `{list}`: run `sudo apt-get install -y {list}`"
        )
        .into());
    }
    println!("installing {list} for {needed_for}");
    run(command("apt-get")
        .arg("update")
        .env("DEBIAN_FRONTEND", "noninteractive"))?;
    run(command("apt-get")
        .args(["install", "-y"])
        .args(packages)
        .env("DEBIAN_FRONTEND", "noninteractive"))
}

#[cfg(test)]
mod tests {
    use super::{locked_version, quoted_value, trunk_toml_value};

    /// wasm-bindgen's generated glue and the app's `wasm-bindgen` crate must be the same
    /// release, or the app fails at start in the browser.
    #[test]
    fn the_bindgen_library_is_the_apps_wasm_bindgen_release() {
        assert_eq!(
            locked_version("wasm-bindgen-cli-support").unwrap(),
            locked_version("wasm-bindgen").unwrap()
        );
    }

    /// trunk runs offline with the wasm-bindgen command Trunk.toml names: `cargo xtask dev`
    /// would stop on a mismatch, so CI catches it first.
    #[test]
    fn trunk_uses_the_apps_wasm_bindgen_release() {
        assert_eq!(
            trunk_toml_value("wasm_bindgen").unwrap(),
            locked_version("wasm-bindgen").unwrap()
        );
    }

    #[test]
    fn reads_only_the_named_key() {
        assert_eq!(
            quoted_value(r#"wasm_bindgen = "0.2.130""#, "wasm_bindgen"),
            Some("0.2.130")
        );
        assert_eq!(
            quoted_value(r#"wasm_opt = "version_132""#, "wasm_bindgen"),
            None
        );
        assert_eq!(quoted_value("offline = true", "offline"), None);
    }
}
