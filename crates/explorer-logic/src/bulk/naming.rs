//! Where each listed file is saved: one rule for every way of downloading (a folder,
//! a zip, the script, the md5 checklist and the report), so they all agree.
//!
//! A listed name is made safe (it stays in its folder, and has no control character
//! to break a line of `checksums.md5` or the script's output), and two files of one
//! name in a folder (a service may list the same name for two areas or formats) are
//! told apart by what differs between them, `name (SZ).zip`, or by their number,
//! `name (2).zip`, so neither overwrites the other.

use std::collections::{HashMap, HashSet};

/// Why a file is saved under another name than the listed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Renamed {
    /// It would have left its folder, been hidden, or read as a command's option
    /// (`../a.zip`, `.a`, `-rf`, no name at all).
    Unsafe,
    /// It had control characters (a newline, a tab), replaced by `_`.
    ControlCharacters,
    /// `count` files of the listing have this name in this folder.
    SameName { count: usize },
}

/// What a file is called, for naming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NameParts<'a> {
    /// The sub-folder it goes into, if any.
    pub folder: Option<&'a str>,
    /// Its name as listed.
    pub file_name: &'a str,
    /// What tells it from another file of the listing: its area, format and
    /// subformat, when the listing gives them.
    pub qualifiers: &'a [String],
}

/// Where a file is saved, and why that is not its listed name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedName {
    /// Relative to the chosen folder: `OpenTOID/su.zip`.
    pub path: String,
    /// Empty when it is saved under its listed name.
    pub renamed: Vec<Renamed>,
}

/// Where each of `files` (a listing, in order) is saved: safe names, distinct in each
/// folder whatever the case of their letters (Windows and macOS folders ignore it).
pub fn saved_names(files: &[NameParts]) -> Vec<SavedName> {
    let plain: Vec<String> = files
        .iter()
        .enumerate()
        .map(|(index, file)| saved_path(file.folder, file.file_name, index))
        .collect();
    let key = |path: &str| path.to_lowercase();
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for (index, path) in plain.iter().enumerate() {
        groups.entry(key(path)).or_default().push(index);
    }
    // A name listed once is kept; the names made for the others go around it.
    let mut taken: HashSet<String> = groups
        .iter()
        .filter(|(_, same)| same.len() == 1)
        .map(|(path, _)| path.clone())
        .collect();
    let mut saved = Vec::with_capacity(files.len());
    for (index, file) in files.iter().enumerate() {
        let same = &groups[&key(&plain[index])];
        let mut renamed = Vec::new();
        if safe_name(file.file_name, index) != without_controls(file.file_name) {
            renamed.push(Renamed::Unsafe);
        }
        if file.file_name.chars().any(char::is_control) {
            renamed.push(Renamed::ControlCharacters);
        }
        if same.len() == 1 {
            saved.push(SavedName {
                path: plain[index].clone(),
                renamed,
            });
            continue;
        }
        let label = telling_apart(files, same, index);
        let occurrence = same.iter().position(|&other| other == index).unwrap_or(0);
        let path = match (label.is_empty(), occurrence) {
            // Nothing tells them apart: the first keeps its name.
            (true, 0) => plain[index].clone(),
            (true, n) => with_label(&plain[index], &(n + 1).to_string()),
            (false, _) => with_label(&plain[index], &label),
        };
        // A name made here may be another file's: number it on.
        let mut candidate = path.clone();
        let mut n = 2;
        while !taken.insert(key(&candidate)) {
            candidate = with_label(&path, &n.to_string());
            n += 1;
        }
        // The first of files nothing tells apart keeps its name.
        if candidate != plain[index] {
            renamed.push(Renamed::SameName { count: same.len() });
        }
        saved.push(SavedName {
            path: candidate,
            renamed,
        });
    }
    saved
}

/// The qualifiers of `files[index]` that differ within the group `same`, joined by
/// `, ` and made safe for a name: `SZ`, `SZ, GeoPackage`.
fn telling_apart(files: &[NameParts], same: &[usize], index: usize) -> String {
    let longest = same
        .iter()
        .map(|&i| files[i].qualifiers.len())
        .max()
        .unwrap_or(0);
    let qualifier = |i: usize, at: usize| files[i].qualifiers.get(at).map(String::as_str);
    let differing: Vec<&str> = (0..longest)
        .filter(|&at| {
            same.iter()
                .any(|&other| qualifier(other, at) != qualifier(same[0], at))
        })
        .filter_map(|at| qualifier(index, at))
        // An area or format the service sent none usable for tells nothing.
        .filter(|qualifier| !qualifier.is_empty())
        .collect();
    differing
        .join(", ")
        .chars()
        .map(|c| if is_unsafe(c) { '_' } else { c })
        .collect()
}

/// `path` with ` (label)` before its extension: `a/b (SZ).zip`.
fn with_label(path: &str, label: &str) -> String {
    let name_starts = path.rfind('/').map_or(0, |slash| slash + 1);
    match path[name_starts..].rfind('.') {
        Some(dot) if dot > 0 => {
            let dot = name_starts + dot;
            format!("{} ({label}){}", &path[..dot], &path[dot..])
        }
        _ => format!("{path} ({label})"),
    }
}

/// A character a saved name never has: a path separator or a control character.
fn is_unsafe(c: char) -> bool {
    c == '/' || c == '\\' || c.is_control()
}

fn without_controls(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_control() { '_' } else { c })
        .collect()
}

/// A file name that stays in the current directory, whatever the service sent: path
/// separators and control characters become `_`, and a name that would be hidden,
/// read as an option or is empty is numbered.
pub fn safe_name(name: &str, index: usize) -> String {
    let name: String = name
        .chars()
        .map(|c| if is_unsafe(c) { '_' } else { c })
        .collect();
    if name.is_empty() || name.starts_with('.') || name.starts_with('-') {
        format!("download-{}{name}", index + 1)
    } else {
        name
    }
}

/// Where the `index`-th file is saved, relative to the chosen folder, before names
/// are told apart: its name made safe, inside its sub-folder (made safe too) when it
/// has one, so `/` only ever separates the two: `OpenTOID/opentoid_su.zip`.
pub fn saved_path(folder: Option<&str>, file_name: &str, index: usize) -> String {
    let name = safe_name(file_name, index);
    match folder {
        Some(folder) => format!("{}/{name}", safe_folder(folder)),
        None => name,
    }
}

/// A sub-folder's name that stays one level inside the chosen folder, the same for
/// each of its files.
pub fn safe_folder(folder: &str) -> String {
    safe_name(folder, 0)
}

/// A line of an `md5sum -c` checklist for the file saved at `path`. A name with a
/// backslash or a line break is written in md5sum's escaped form (the line starts
/// with `\`, and `\\`, `\n` and `\r` stand for them), which GNU and BSD md5sum read.
pub fn md5_line(md5: &str, path: &str) -> String {
    if path.contains(['\\', '\n', '\r']) {
        let escaped = path
            .replace('\\', r"\\")
            .replace('\n', r"\n")
            .replace('\r', r"\r");
        format!("\\{md5}  {escaped}\n")
    } else {
        format!("{md5}  {path}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts<'a>(file_name: &'a str, qualifiers: &'a [String]) -> NameParts<'a> {
        NameParts {
            folder: None,
            file_name,
            qualifiers,
        }
    }

    fn paths(names: &[SavedName]) -> Vec<&str> {
        names.iter().map(|name| name.path.as_str()).collect()
    }

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|&v| v.to_owned()).collect()
    }

    #[test]
    fn two_files_of_one_name_are_told_apart_by_what_differs() {
        let (su, sz) = (
            strings(&["SU", "GeoPackage"]),
            strings(&["SZ", "GeoPackage"]),
        );
        let gml = strings(&["SU", "GML"]);
        let names = saved_names(&[
            parts("data.zip", &su),
            parts("DATA.zip", &sz),
            parts("other.zip", &su),
            parts("mixed.zip", &su),
            parts("mixed.zip", &gml),
        ]);
        assert_eq!(
            paths(&names),
            [
                "data (SU).zip",
                "DATA (SZ).zip",
                "other.zip",
                "mixed (GeoPackage).zip",
                "mixed (GML).zip"
            ]
        );
        assert_eq!(names[0].renamed, [Renamed::SameName { count: 2 }]);
        assert!(names[2].renamed.is_empty());
    }

    #[test]
    fn an_empty_area_tells_nothing_apart() {
        // The service sent no usable area for the first (see `download_api::listed`).
        let (none, sz) = (strings(&["", "GML"]), strings(&["SZ", "GML"]));
        let names = saved_names(&[parts("a.zip", &none), parts("a.zip", &sz)]);
        assert_eq!(paths(&names), ["a.zip", "a (SZ).zip"]);
    }

    #[test]
    fn files_nothing_tells_apart_are_numbered_and_a_taken_name_is_skipped() {
        let names = saved_names(&[
            parts("a.zip", &[]),
            parts("a (2).zip", &[]),
            parts("a.zip", &[]),
            parts("a.zip", &[]),
            parts("noext", &[]),
            parts("noext", &[]),
        ]);
        assert_eq!(
            paths(&names),
            [
                "a.zip",
                "a (2).zip",
                "a (2) (2).zip",
                "a (3).zip",
                "noext",
                "noext (2)"
            ]
        );
    }

    #[test]
    fn the_same_name_in_two_folders_is_no_clash() {
        let names = saved_names(&[
            NameParts {
                folder: Some("A"),
                ..parts("x.zip", &[])
            },
            NameParts {
                folder: Some("B"),
                ..parts("x.zip", &[])
            },
        ]);
        assert_eq!(paths(&names), ["A/x.zip", "B/x.zip"]);
    }

    #[test]
    fn control_characters_and_separators_never_reach_a_saved_name() {
        let names = saved_names(&[
            parts("tab\there.zip", &[]),
            parts("new\nline\r.zip", &[]),
            parts("back\\slash.zip", &[]),
            parts("../up.zip", &[]),
            parts("bell\u{7}\u{85}.zip", &[]),
        ]);
        assert_eq!(
            paths(&names),
            [
                "tab_here.zip",
                "new_line_.zip",
                "back_slash.zip",
                "download-4.._up.zip",
                "bell__.zip"
            ]
        );
        assert_eq!(names[0].renamed, [Renamed::ControlCharacters]);
        assert_eq!(names[2].renamed, [Renamed::Unsafe]);
        assert_eq!(names[3].renamed, [Renamed::Unsafe]);
        let qualifier = strings(&["a/b\nc"]);
        let other = strings(&["d"]);
        let told = saved_names(&[parts("x.zip", &qualifier), parts("x.zip", &other)]);
        assert_eq!(paths(&told), ["x (a_b_c).zip", "x (d).zip"]);
    }

    #[test]
    fn md5_lines_escape_only_what_md5sum_cannot_read_plainly() {
        let md5 = "0123456789abcdef0123456789abcdef";
        assert_eq!(md5_line(md5, "a b.zip"), format!("{md5}  a b.zip\n"));
        assert_eq!(
            md5_line(md5, "a\\b\nc.zip"),
            format!("\\{md5}  a\\\\b\\nc.zip\n")
        );
    }
}
