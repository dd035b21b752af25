//! Bulk download exports: a resumable, checking shell script, a URL list and an
//! `md5sum` checklist, made from any list of files the service listed.

use download_api::{Download, ProductDownload};

use crate::format_size;

/// One file to fetch in bulk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BulkFile<'a> {
    /// The address the service listed (it redirects to the data).
    pub url: &'a str,
    /// The name to save it under (path separators are replaced).
    pub file_name: &'a str,
    /// Expected MD5, lower-case hex, when the service gave one.
    pub md5: Option<&'a str>,
    /// Size in bytes, when known (only used for the summary line).
    pub size: Option<u64>,
}

impl<'a> From<&'a Download> for BulkFile<'a> {
    fn from(download: &'a Download) -> Self {
        BulkFile {
            url: &download.url,
            file_name: &download.file_name,
            md5: download.md5.as_deref(),
            size: download.size,
        }
    }
}

impl<'a> From<&'a ProductDownload> for BulkFile<'a> {
    fn from(download: &'a ProductDownload) -> Self {
        BulkFile {
            url: &download.url,
            file_name: &download.file_name,
            md5: download.md5.as_deref(),
            size: download.size,
        }
    }
}

/// A file name (without extension) for an export titled `title`: lower-case ASCII
/// letters and digits, everything else a `-`, so it is safe on any system.
pub fn file_stem(title: &str) -> String {
    title
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// A POSIX `sh` script that downloads every file with curl (failing on HTTP errors,
/// retrying, resuming partial files), then checks each file's MD5.
///
/// Running it again skips complete files and resumes partial ones. It exits non-zero
/// when any file failed or did not match its checksum.
pub fn shell_script(title: &str, files: &[BulkFile]) -> String {
    let total: u64 = files.iter().filter_map(|f| f.size).sum();
    let mut script = format!(
        "#!/bin/sh\n\
         # {title}\n\
         # {count} file(s), {size}. Made by Download Explorer.\n\
         # Run it again to resume: complete files are skipped, partial ones continue.\n\
         set -u\n\
         \n\
         md5_of() {{\n\
         \x20 if command -v md5sum >/dev/null 2>&1; then md5sum \"$1\" | cut -d ' ' -f 1; else md5 -q \"$1\"; fi\n\
         }}\n\
         \n\
         failed=0\n\
         get() {{\n\
         \x20 url=$1 file=$2 want=$3\n\
         \x20 if [ -n \"$want\" ] && [ -f \"$file\" ] && [ \"$(md5_of \"$file\")\" = \"$want\" ]; then\n\
         \x20   echo \"up to date: $file\"\n\
         \x20   return 0\n\
         \x20 fi\n\
         \x20 if ! curl --fail --location --silent --show-error --retry 5 --retry-delay 3 \\\n\
         \x20     --continue-at - --output \"$file\" \"$url\"; then\n\
         \x20   echo \"FAILED: $file\" >&2\n\
         \x20   failed=$((failed + 1))\n\
         \x20 elif [ -n \"$want\" ] && [ \"$(md5_of \"$file\")\" != \"$want\" ]; then\n\
         \x20   echo \"MD5 MISMATCH: $file (expected $want; delete it and run again)\" >&2\n\
         \x20   failed=$((failed + 1))\n\
         \x20 else\n\
         \x20   echo \"ok: $file\"\n\
         \x20 fi\n\
         }}\n\
         \n",
        title = title.replace('\n', " "),
        count = files.len(),
        size = format_size(total),
    );
    for (index, file) in files.iter().enumerate() {
        script.push_str(&format!(
            "get {} {} {}\n",
            quote(file.url),
            quote(&safe_name(file.file_name, index)),
            quote(file.md5.unwrap_or("")),
        ));
    }
    script.push_str(&format!(
        "\nif [ \"$failed\" -gt 0 ]; then\n\
         \x20 echo \"$failed of {count} file(s) failed\" >&2\n\
         \x20 exit 1\n\
         fi\n\
         echo \"All {count} file(s) downloaded and checked.\"\n",
        count = files.len()
    ));
    script
}

/// The listed addresses, one per line (for `wget -i`, `aria2c -i` or a download manager).
pub fn url_list(files: &[BulkFile]) -> String {
    files.iter().map(|f| format!("{}\n", f.url)).collect()
}

/// An `md5sum -c` checklist of the files that have a checksum.
pub fn md5_checklist(files: &[BulkFile]) -> String {
    files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| Some(format!("{}  {}\n", f.md5?, safe_name(f.file_name, i))))
        .collect()
}

/// A file name that stays in the current directory, whatever the service sent.
pub fn safe_name(name: &str, index: usize) -> String {
    let name = name.replace(['/', '\\'], "_");
    if name.is_empty() || name.starts_with('.') || name.starts_with('-') {
        format!("download-{}{name}", index + 1)
    } else {
        name
    }
}

/// Quotes a value for `sh`: single quotes, with embedded ones closed and escaped.
fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file<'a>(url: &'a str, name: &'a str, md5: Option<&'a str>) -> BulkFile<'a> {
        BulkFile {
            url,
            file_name: name,
            md5,
            size: Some(1500),
        }
    }

    #[test]
    fn script_fetches_each_file_with_resume_and_checksum() {
        let script = shell_script(
            "OpenMapLocal SU",
            &[file("https://x/a?area=SU&redirect", "a.zip", Some("abc"))],
        );
        assert!(script.starts_with("#!/bin/sh\n# OpenMapLocal SU\n# 1 file(s), 1.50 kB."));
        assert!(script.contains("get 'https://x/a?area=SU&redirect' 'a.zip' 'abc'\n"));
        assert!(script.contains("--fail") && script.contains("--continue-at -"));
    }

    #[test]
    fn names_and_urls_cannot_break_out_of_quotes_or_the_folder() {
        let script = shell_script("t", &[file("https://x/it's", "../../etc/passwd", None)]);
        assert!(
            script.contains(r"get 'https://x/it'\''s' 'download-1.._.._etc_passwd' ''"),
            "{script}"
        );
        assert_eq!(safe_name("-rf", 0), "download-1-rf");
        assert_eq!(safe_name("", 2), "download-3");
    }

    #[test]
    fn url_list_and_checklist_have_one_line_per_file() {
        let files = [file("u1", "a.zip", Some("m1")), file("u2", "b.zip", None)];
        assert_eq!(url_list(&files), "u1\nu2\n");
        assert_eq!(md5_checklist(&files), "m1  a.zip\n");
    }

    #[test]
    fn listed_downloads_become_bulk_files() {
        let download = Download {
            url: "u".into(),
            file_name: "a.zip".into(),
            size: Some(3),
            md5: Some("m".into()),
        };
        assert_eq!(
            BulkFile::from(&download),
            BulkFile {
                url: "u",
                file_name: "a.zip",
                md5: Some("m"),
                size: Some(3)
            }
        );
    }

    #[test]
    fn file_stems_are_plain_ascii() {
        assert_eq!(
            file_stem("Data package 0040046952, version 110012"),
            "data-package-0040046952--version-110012"
        );
        assert_eq!(file_stem("Café/x"), "caf--x");
    }
}
