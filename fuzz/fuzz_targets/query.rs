//! Query strings as the server reads them: `parse_query`, the downloads filters and
//! the flags. What the web app writes, the server must read back unchanged.
#![no_main]

use download_api::{DownloadsQuery, parse_flag, parse_query};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(query) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pairs) = parse_query(query) {
        for (name, value) in &pairs {
            let _ = parse_flag(name, Some(value));
        }
    }
    if let Ok(parsed) = DownloadsQuery::parse(query) {
        let written = parsed.to_query_string();
        assert_eq!(
            DownloadsQuery::parse(&written),
            Ok(parsed),
            "{query:?} -> {written:?}"
        );
    }
});
