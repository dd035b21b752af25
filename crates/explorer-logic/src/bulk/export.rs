//! Bulk download exports: a resumable, checking shell script, a URL list and an
//! `md5sum` checklist, made from any list of files the service listed. A basket's
//! files go into a sub-folder per product; the script and the checklist say so.

use download_api::{Download, ProductDownload};

use crate::bulk::naming::{NameParts, Renamed, SavedName, md5_line, safe_folder, saved_names};
use crate::flaws::shown_name;
use crate::format_size;
use crate::text::t;

/// A listed file and the sub-folder of the chosen folder it is saved in: a basket puts
/// each product's files in a folder of their own; a single listing has none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkDownload {
    pub download: Download,
    /// The sub-folder's name (one level; made safe as a file name is), or `None` for
    /// the chosen folder itself.
    pub folder: Option<String>,
    /// What tells it from another file of the same name: a product's file's area,
    /// format and subformat (see [`crate::bulk::naming`]).
    pub qualifiers: Vec<String>,
}

impl From<Download> for BulkDownload {
    fn from(download: Download) -> Self {
        BulkDownload {
            download,
            folder: None,
            qualifiers: Vec::new(),
        }
    }
}

impl From<&ProductDownload> for BulkDownload {
    fn from(file: &ProductDownload) -> Self {
        let mut qualifiers = vec![file.area.code().to_owned(), file.format.clone()];
        qualifiers.extend(file.subformat.clone());
        BulkDownload {
            download: file.file.clone(),
            folder: None,
            qualifiers,
        }
    }
}

impl BulkDownload {
    /// The files of `listing` that can be fetched (with a usable address): the only
    /// ones a bulk download offers.
    pub fn offered(listing: impl IntoIterator<Item = BulkDownload>) -> Vec<BulkDownload> {
        listing
            .into_iter()
            .filter(|file| file.download.is_offered())
            .collect()
    }

    /// Where each of `files` is saved, and why when not under its listed name.
    pub fn saved_names(files: &[BulkDownload]) -> Vec<SavedName> {
        let parts: Vec<NameParts> = files
            .iter()
            .map(|file| NameParts {
                folder: file.folder.as_deref(),
                file_name: &file.download.file_name,
                qualifiers: &file.qualifiers,
            })
            .collect();
        saved_names(&parts)
    }

    /// What the page says of the files of `files` saved under another name than the
    /// listed one: a sentence each, with the reasons.
    pub fn rename_notes(files: &[BulkDownload]) -> Vec<String> {
        files
            .iter()
            .zip(BulkDownload::saved_names(files))
            .enumerate()
            .filter(|(_, (_, saved))| !saved.renamed.is_empty())
            .map(|(index, (file, saved))| {
                let why: Vec<String> = saved
                    .renamed
                    .iter()
                    .map(|renamed| match renamed {
                        Renamed::SameName { count } => t::flaws::why_same_name(*count),
                        Renamed::ControlCharacters => t::flaws::why_control(),
                        Renamed::Unsafe => t::flaws::why_unsafe(),
                    })
                    .collect();
                let listed = shown_name(&file.download.file_name, index);
                t::flaws::renamed(listed, saved.path, why.join("; "))
            })
            .collect()
    }
}

/// Whether the `file`-th of `downloads` is the only one of its name: a data-package
/// file is asked for again by its name alone, which names two files of one name as
/// one, so such a file is fetched from its listed address instead.
pub fn named_once(downloads: &[Download], file: usize) -> bool {
    let name = &downloads[file].file_name;
    downloads.iter().filter(|d| &d.file_name == name).count() == 1
}

/// Gives `downloads` the fresh addresses of a new listing `fresh` of the same files:
/// matched by name, and two of one name in the order listed. A fresh address that is
/// no web address is not taken.
pub fn relist(downloads: &mut [Download], fresh: Vec<Download>) {
    let mut taken = vec![false; downloads.len()];
    for fresh in fresh.into_iter().filter(Download::is_offered) {
        let same = downloads
            .iter()
            .zip(&taken)
            .position(|(old, taken)| !taken && old.file_name == fresh.file_name);
        if let Some(index) = same {
            taken[index] = true;
            downloads[index].url = fresh.url;
        }
    }
}

/// Where each of `files` is saved.
fn paths(files: &[BulkDownload]) -> Vec<String> {
    BulkDownload::saved_names(files)
        .into_iter()
        .map(|name| name.path)
        .collect()
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
pub fn shell_script(title: &str, files: &[BulkDownload]) -> String {
    let total: u64 = files.iter().filter_map(|f| f.download.size).sum();
    let count = files.len();
    let mut script = format!(
        "#!/bin/sh\n\
         # {title}\n\
         # {summary}\n\
         # {resume}\n\
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
         \x20   echo \"{up_to_date}\"\n\
         \x20   return 0\n\
         \x20 fi\n\
         \x20 if ! curl --fail --location --silent --show-error --retry 5 --retry-delay 3 \\\n\
         \x20     --continue-at - --output \"$file\" \"$url\"; then\n\
         \x20   echo \"{failed}\" >&2\n\
         \x20   failed=$((failed + 1))\n\
         \x20 elif [ -n \"$want\" ] && [ \"$(md5_of \"$file\")\" != \"$want\" ]; then\n\
         \x20   echo \"{mismatch}\" >&2\n\
         \x20   failed=$((failed + 1))\n\
         \x20 else\n\
         \x20   echo \"{ok}\"\n\
         \x20 fi\n\
         }}\n\
         \n",
        title = one_line(title),
        summary = one_line(&t::bulk::script_count(count, format_size(total))),
        resume = one_line(t::bulk::script_resume()),
        up_to_date = echoed(&t::bulk::script_up_to_date(var("file"))),
        failed = echoed(&t::bulk::script_failed(var("file"))),
        mismatch = echoed(&t::bulk::script_mismatch(var("file"), var("want"))),
        ok = echoed(&t::bulk::script_ok(var("file"))),
    );
    let mut folders: Vec<String> = Vec::new();
    for file in files {
        if let Some(folder) = file.folder.as_deref().map(safe_folder)
            && !folders.contains(&folder)
        {
            folders.push(folder);
        }
    }
    if !folders.is_empty() {
        let quoted: Vec<String> = folders.iter().map(|folder| quote(folder)).collect();
        script.push_str(&format!("mkdir -p {}\n", quoted.join(" ")));
    }
    for (file, path) in files.iter().zip(paths(files)) {
        script.push_str(&format!(
            "get {} {} {}\n",
            quote(&file.download.url),
            quote(&path),
            quote(file.download.md5.as_deref().unwrap_or("")),
        ));
    }
    script.push_str(&format!(
        "\nif [ \"$failed\" -gt 0 ]; then\n\
         \x20 echo \"{some_failed}\" >&2\n\
         \x20 exit 1\n\
         fi\n\
         echo \"{all_done}\"\n",
        some_failed = echoed(&t::bulk::script_some_failed(count, var("failed"))),
        all_done = echoed(&t::bulk::script_all_done(count)),
    ));
    script
}

/// Marks the shell variable `name` in a message for [`echoed`] (a message's own `$`
/// is escaped; this one is not).
fn var(name: &str) -> String {
    format!("{VAR}{name}")
}

/// What stands for `$` of a shell variable in a message until [`echoed`].
const VAR: char = '\u{1}';

/// A message on one line inside `"…"` of `sh`: its `\`, `"`, `$` and backquotes
/// escaped, and the variables [`var`] marked expanded.
fn echoed(message: &str) -> String {
    let mut text = String::with_capacity(message.len());
    for c in one_line(message).chars() {
        match c {
            '\\' | '"' | '$' | '`' => {
                text.push('\\');
                text.push(c);
            }
            VAR => text.push('$'),
            c => text.push(c),
        }
    }
    text
}

/// `text` on one line (a script comment or an `echo` ends at a line's end).
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// The listed addresses, one per line (for `wget -i`, `aria2c -i` or a download manager).
pub fn url_list(files: &[BulkDownload]) -> String {
    files
        .iter()
        .map(|f| format!("{}\n", f.download.url))
        .collect()
}

/// An `md5sum -c` checklist of the files that have a checksum.
pub fn md5_checklist(files: &[BulkDownload]) -> String {
    files
        .iter()
        .zip(paths(files))
        .filter_map(|(file, path)| Some(md5_line(file.download.md5.as_deref()?, &path)))
        .collect()
}

/// Quotes a value for `sh`: single quotes, with embedded ones closed and escaped.
fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bulk::naming::{safe_name, saved_path};

    fn file(url: &str, name: &str, md5: Option<&str>) -> BulkDownload {
        BulkDownload::from(Download {
            url: url.into(),
            file_name: name.into(),
            md5: md5.map(Into::into),
            size: Some(1500),
            flaws: Vec::new(),
        })
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
            flaws: Vec::new(),
        };
        assert_eq!(
            BulkDownload::from(download.clone()),
            BulkDownload {
                download,
                folder: None,
                qualifiers: Vec::new(),
            }
        );
    }

    #[test]
    fn the_page_says_why_a_file_is_saved_under_another_name() {
        let file = |name: &str, area: &str| BulkDownload {
            download: Download {
                url: "https://x".into(),
                file_name: name.into(),
                size: None,
                md5: None,
                flaws: Vec::new(),
            },
            folder: None,
            qualifiers: vec![area.into()],
        };
        let files = [
            file("a.zip", "SU"),
            file("a.zip", "SZ"),
            file("b.zip", "SU"),
            file("c\td.zip", "SU"),
        ];
        assert_eq!(
            BulkDownload::rename_notes(&files),
            [
                "a.zip is saved as a (SU).zip: 2 files of the list have that name.",
                "a.zip is saved as a (SZ).zip: 2 files of the list have that name.",
                "\"c\\td.zip\" is saved as c_d.zip: its control characters (such as a tab or \
                 a line break) are replaced by _.",
            ]
        );
        let welsh = crate::text::in_welsh(|| BulkDownload::rename_notes(&files[..2]));
        assert_eq!(
            welsh[0],
            "Mae a.zip yn cael ei chadw fel a (SU).zip: mae gan 2 ffeil yn y rhestr yr enw hwnnw."
        );
    }

    #[test]
    fn two_files_of_one_name_keep_their_own_fresh_addresses() {
        let download = |url: &str, name: &str| Download {
            url: url.into(),
            file_name: name.into(),
            size: None,
            md5: None,
            flaws: Vec::new(),
        };
        let mut listed = vec![
            download("https://x/1?old", "a.zip"),
            download("https://x/2?old", "a.zip"),
            download("https://x/3?old", "b.zip"),
        ];
        assert!(!named_once(&listed, 0) && !named_once(&listed, 1));
        assert!(named_once(&listed, 2));
        relist(
            &mut listed,
            vec![
                download("https://x/3?new", "b.zip"),
                download("https://x/1?new", "a.zip"),
                download("https://x/2?new", "a.zip"),
                download("", "b.zip"),
            ],
        );
        let urls: Vec<&str> = listed.iter().map(|d| d.url.as_str()).collect();
        assert_eq!(
            urls,
            ["https://x/1?new", "https://x/2?new", "https://x/3?new"]
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

    #[test]
    fn what_the_script_says_is_in_the_page_s_language_and_stays_in_its_quotes() {
        let files = [file("u1", "a.zip", Some("m1")), file("u2", "b.zip", None)];
        let english = shell_script("t", &files);
        assert!(english.contains("# 2 file(s), 3.00 kB. Made by Download Explorer.\n"));
        assert!(english.contains(
            "echo \"MD5 MISMATCH: $file (expected $want; delete it and run again)\" >&2\n"
        ));
        assert!(english.contains("echo \"$failed of 2 file(s) failed\" >&2\n"));
        let welsh = crate::text::in_welsh(|| shell_script("t", &files));
        assert!(
            welsh.contains("# 2 ffeil, 3.00 kB. Gwnaed gan Download Explorer.\n"),
            "{welsh}"
        );
        assert!(welsh.contains("echo \"yn gyfredol: $file\"\n"), "{welsh}");
        assert!(
            welsh.contains("echo \"Methodd $failed o'r 2 ffeil\" >&2\n"),
            "{welsh}"
        );
        assert!(
            welsh.contains("echo \"Mae'r ddwy ffeil wedi'u lawrlwytho a'u gwirio.\"\n"),
            "{welsh}"
        );
        assert_eq!(
            echoed(&format!("a \"$x\" `b` \\ {}", var("file"))),
            r#"a \"\$x\" \`b\` \\ $file"#
        );
    }

    #[test]
    fn a_basket_s_files_go_into_a_sub_folder_per_product() {
        let files = [
            BulkDownload {
                folder: Some("OpenTOID".into()),
                ..file("u1", "a.zip", Some("m1"))
            },
            BulkDownload {
                folder: Some("OpenTOID".into()),
                ..file("u2", "b.zip", Some("m2"))
            },
            BulkDownload {
                folder: Some("../Open Roads".into()),
                ..file("u3", "../c.zip", Some("m3"))
            },
        ];
        let script = shell_script("Basket", &files);
        assert!(
            script.contains(
                "mkdir -p 'OpenTOID' 'download-1.._Open Roads'\n\
                 get 'u1' 'OpenTOID/a.zip' 'm1'\n\
                 get 'u2' 'OpenTOID/b.zip' 'm2'\n\
                 get 'u3' 'download-1.._Open Roads/download-3.._c.zip' 'm3'\n"
            ),
            "{script}"
        );
        assert_eq!(
            md5_checklist(&files),
            "m1  OpenTOID/a.zip\nm2  OpenTOID/b.zip\nm3  download-1.._Open Roads/download-3.._c.zip\n"
        );
        assert_eq!(url_list(&files), "u1\nu2\nu3\n");
        // A single listing has no sub-folder and no `mkdir`.
        assert!(!shell_script("t", &[file("u", "a.zip", None)]).contains("mkdir"));
        assert_eq!(saved_path(None, "a/b.zip", 0), "a_b.zip");
    }
}
