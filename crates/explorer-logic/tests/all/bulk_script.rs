//! Runs the generated bulk-download script for real, with `sh` and `curl`, against
//! `file://` addresses, as a user would run it against the service.

use std::path::Path;
use std::process::Command;

use explorer_logic::bulk::export::{BulkFile, md5_checklist, shell_script};

fn run_script(dir: &Path, script: &str) -> std::process::Output {
    std::fs::write(dir.join("get.sh"), script).unwrap();
    Command::new("sh")
        .arg("get.sh")
        .current_dir(dir)
        .output()
        .expect("sh runs")
}

/// A fresh directory with an empty `out/` for the script to download into; removed
/// when dropped, a failing test included.
fn temp_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    dir
}

#[test]
fn downloads_checks_and_resumes() {
    let temp = temp_dir();
    let dir = temp.path();
    let source = dir.join("source.bin");
    std::fs::write(&source, b"hello world, this is a zip file").unwrap();
    let url = format!("file://{}", source.display());
    // md5 of the bytes above.
    let md5 = "57ce18daecbda6dea7f9a737b61c492d";
    let files = [BulkFile {
        url: &url,
        file_name: "data.zip",
        md5: Some(md5),
        size: Some(31),
        folder: None,
    }];
    let script = shell_script("test", &files);

    let first = run_script(&dir.join("out"), &script);
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(
        first.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(stdout.contains("ok: data.zip"), "{stdout}");
    assert_eq!(
        std::fs::read(dir.join("out/data.zip")).unwrap(),
        std::fs::read(&source).unwrap()
    );

    // A second run finds the complete file and leaves it alone.
    let second = run_script(&dir.join("out"), &script);
    assert!(String::from_utf8_lossy(&second.stdout).contains("up to date: data.zip"));

    // A partial file is resumed to the full, correct file.
    std::fs::write(dir.join("out/data.zip"), b"hello world").unwrap();
    let resumed = run_script(&dir.join("out"), &script);
    assert!(resumed.status.success());
    assert_eq!(
        std::fs::read(dir.join("out/data.zip")).unwrap(),
        std::fs::read(&source).unwrap()
    );
}

#[test]
fn a_wrong_checksum_or_missing_file_fails_the_run() {
    let temp = temp_dir();
    let dir = temp.path();
    let source = dir.join("source.bin");
    std::fs::write(&source, b"some bytes").unwrap();
    let url = format!("file://{}", source.display());
    let missing = format!("file://{}/nope.bin", dir.display());
    let files = [
        BulkFile {
            url: &url,
            file_name: "a.zip",
            md5: Some("00000000000000000000000000000000"),
            size: None,
            folder: None,
        },
        BulkFile {
            url: &missing,
            file_name: "b.zip",
            md5: None,
            size: None,
            folder: None,
        },
    ];
    let output = run_script(&dir.join("out"), &shell_script("test", &files));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("MD5 MISMATCH: a.zip"), "{stderr}");
    assert!(stderr.contains("FAILED: b.zip"), "{stderr}");
    assert!(stderr.contains("2 of 2 file(s) failed"), "{stderr}");
}

#[test]
fn a_basket_s_script_makes_a_sub_folder_per_product_and_its_checklist_passes() {
    let temp = temp_dir();
    let dir = temp.path();
    let source = dir.join("source.bin");
    std::fs::write(&source, b"hello world, this is a zip file").unwrap();
    let url = format!("file://{}", source.display());
    let md5 = "57ce18daecbda6dea7f9a737b61c492d";
    let file = |folder, file_name| BulkFile {
        url: &url,
        file_name,
        md5: Some(md5),
        size: Some(31),
        folder: Some(folder),
    };
    let files = [
        file("OpenTOID", "su.zip"),
        file("OpenTOID", "sz.zip"),
        file("OpenRoads", "gb.zip"),
    ];
    let out = dir.join("out");
    let output = run_script(&out, &shell_script("Basket", &files));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for path in ["OpenTOID/su.zip", "OpenTOID/sz.zip", "OpenRoads/gb.zip"] {
        assert_eq!(
            std::fs::read(out.join(path)).unwrap(),
            std::fs::read(&source).unwrap()
        );
    }
    std::fs::write(out.join("checklist.md5"), md5_checklist(&files)).unwrap();
    let check = Command::new("md5sum")
        .args(["-c", "checklist.md5"])
        .current_dir(&out)
        .output()
        .expect("md5sum runs");
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}
