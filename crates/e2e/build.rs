//! Builds the browser tests for one engine, `E2E_BROWSER` (Chromium when unset), as the
//! cfg `engine = "chromium" | "firefox" | "webkit"`, so that a test that cannot run in
//! an engine is ignored there with its reason:
//! `#[cfg_attr(not(engine = "chromium"), ignore = "why")]`. Another engine is another
//! build (cargo reruns this when `E2E_BROWSER` changes); `Engine::current` checks that
//! the run's engine is the build's.

const ENGINES: [&str; 3] = ["chromium", "firefox", "webkit"];

fn main() {
    println!("cargo::rerun-if-env-changed=E2E_BROWSER");
    println!("cargo::rustc-check-cfg=cfg(engine, values(\"chromium\", \"firefox\", \"webkit\"))");
    let engine = match std::env::var("E2E_BROWSER") {
        Ok(name) if !name.is_empty() => name,
        _ => "chromium".to_owned(),
    };
    if !ENGINES.contains(&engine.as_str()) {
        panic!("E2E_BROWSER={engine}: expected chromium, firefox or webkit");
    }
    println!("cargo::rustc-cfg=engine=\"{engine}\"");
    println!("cargo::rustc-env=E2E_BUILT_FOR={engine}");
}
