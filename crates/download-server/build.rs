// The demo catalogue is embedded with include_dir, which notices edited files but not
// added or removed ones: rebuild whenever anything under demo/ changes.
fn main() {
    println!("cargo:rerun-if-changed=demo");
    // cargo-fuzz builds with `--cfg fuzzing` (see src/fuzzing.rs).
    println!("cargo::rustc-check-cfg=cfg(fuzzing)");
}
