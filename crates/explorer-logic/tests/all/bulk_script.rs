//! Runs the generated bulk-download script for real, with `sh` and `curl`, against
//! `file://` addresses, as a user would run it against the service.

use std::path::Path;
use std::process::Command;

use download_api::Download;
use explorer_logic::bulk::export::{BulkDownload, md5_checklist, shell_script};
use explorer_logic::bulk::naming::md5_line;

/// The bytes of the file the scripts fetch, and their md5.
const BYTES: &[u8] = b"hello world, this is a zip file";
const BYTES_MD5: &str = "57ce18daecbda6dea7f9a737b61c492d";

/// A listed file to fetch from `url` and save as `file_name`, checked against `md5`.
fn file(url: &str, file_name: &str, md5: Option<&str>, size: Option<u64>) -> BulkDownload {
    BulkDownload::from(Download {
        url: url.into(),
        file_name: file_name.into(),
        md5: md5.map(Into::into),
        size,
        flaws: Vec::new(),
    })
}

fn run_script(dir: &Path, script: &str) -> std::process::Output {
    std::fs::write(dir.join("get.sh"), script).unwrap();
    Command::new("sh")
        .arg("get.sh")
        .current_dir(dir)
        .output()
        .expect("sh runs")
}

/// Writes `bytes` to `name` in `dir`: the file's `file://` address.
fn source(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    format!("file://{}", path.display())
}

/// Fails the test with everything the command said unless it succeeded.
fn assert_succeeded(output: &std::process::Output) {
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
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
    let url = source(dir, "source.bin", BYTES);
    let files = [file(&url, "data.zip", Some(BYTES_MD5), Some(31))];
    let script = shell_script("test", &files);

    let first = run_script(&dir.join("out"), &script);
    assert_succeeded(&first);
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(stdout.contains("ok: data.zip"), "{stdout}");
    assert_eq!(std::fs::read(dir.join("out/data.zip")).unwrap(), BYTES);

    // A second run finds the complete file and leaves it alone.
    let second = run_script(&dir.join("out"), &script);
    assert!(String::from_utf8_lossy(&second.stdout).contains("up to date: data.zip"));

    // A partial file is resumed to the full, correct file.
    std::fs::write(dir.join("out/data.zip"), b"hello world").unwrap();
    let resumed = run_script(&dir.join("out"), &script);
    assert_succeeded(&resumed);
    assert_eq!(std::fs::read(dir.join("out/data.zip")).unwrap(), BYTES);
}

#[test]
fn a_wrong_checksum_or_missing_file_fails_the_run() {
    let temp = temp_dir();
    let dir = temp.path();
    let url = source(dir, "source.bin", b"some bytes");
    let missing = format!("file://{}/nope.bin", dir.display());
    let files = [
        file(
            &url,
            "a.zip",
            Some("00000000000000000000000000000000"),
            None,
        ),
        file(&missing, "b.zip", None, None),
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
    let url = source(dir, "source.bin", BYTES);
    let in_folder = |folder: &str, file_name| BulkDownload {
        folder: Some(folder.into()),
        ..file(&url, file_name, Some(BYTES_MD5), Some(31))
    };
    let files = [
        in_folder("OpenTOID", "su.zip"),
        in_folder("OpenTOID", "sz.zip"),
        in_folder("OpenRoads", "gb.zip"),
    ];
    let out = dir.join("out");
    assert_succeeded(&run_script(&out, &shell_script("Basket", &files)));
    for path in ["OpenTOID/su.zip", "OpenTOID/sz.zip", "OpenRoads/gb.zip"] {
        assert_eq!(std::fs::read(out.join(path)).unwrap(), BYTES);
    }
    std::fs::write(out.join("checklist.md5"), md5_checklist(&files)).unwrap();
    assert_succeeded(&md5sum_check(&out));
}

#[test]
fn two_files_of_one_name_and_names_with_control_characters_are_all_kept_and_check() {
    let temp = temp_dir();
    let dir = temp.path();
    let mut sources = Vec::new();
    for (i, text) in ["first", "second", "third", "fourth"].iter().enumerate() {
        let url = source(dir, &format!("source{i}.bin"), text.as_bytes());
        sources.push((url, md5_hex(text.as_bytes())));
    }
    let (su, sz) = (vec!["SU".to_owned()], vec!["SZ".to_owned()]);
    let listed = |i: usize, file_name, qualifiers: &[String]| BulkDownload {
        qualifiers: qualifiers.to_vec(),
        ..file(&sources[i].0, file_name, Some(&sources[i].1), None)
    };
    let files = [
        listed(0, "data.zip", &su),
        listed(1, "data.zip", &sz),
        listed(2, "new\nline\t.zip", &[]),
        listed(3, "data.zip", &su),
    ];
    let out = dir.join("out");
    let output = run_script(&out, &shell_script("Same names", &files));
    assert_succeeded(&output);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.lines().count(),
        5,
        "one line a file, then the end: {stdout}"
    );
    for (path, text) in [
        ("data (SU).zip", "first"),
        ("data (SZ).zip", "second"),
        ("new_line_.zip", "third"),
        ("data (SU) (2).zip", "fourth"),
    ] {
        assert_eq!(
            std::fs::read_to_string(out.join(path)).unwrap(),
            text,
            "{path}"
        );
    }
    std::fs::write(out.join("checklist.md5"), md5_checklist(&files)).unwrap();
    let check = md5sum_check(&out);
    assert_succeeded(&check);
    assert_eq!(String::from_utf8_lossy(&check.stdout).lines().count(), 4);
}

#[test]
fn md5sum_reads_an_escaped_line_for_a_name_with_a_backslash_or_a_newline() {
    let temp = temp_dir();
    let out = temp.path().join("out");
    let mut checklist = String::new();
    for name in ["back\\slash.zip", "new\nline.zip", "plain name.zip"] {
        std::fs::write(out.join(name), name).unwrap();
        checklist.push_str(&md5_line(&md5_hex(name.as_bytes()), name));
    }
    std::fs::write(out.join("checklist.md5"), checklist).unwrap();
    assert_succeeded(&md5sum_check(&out));
}

fn md5sum_check(dir: &Path) -> std::process::Output {
    Command::new("md5sum")
        .args(["-c", "checklist.md5"])
        .current_dir(dir)
        .output()
        .expect("md5sum runs")
}

fn md5_hex(bytes: &[u8]) -> String {
    let output = Command::new("md5sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(bytes)?;
            child.wait_with_output()
        })
        .expect("md5sum runs");
    String::from_utf8_lossy(&output.stdout)[..32].to_owned()
}
