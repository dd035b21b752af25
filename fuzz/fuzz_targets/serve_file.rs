//! A file answer for any request headers (ranges, `If-Range`, preconditions): a
//! status the spec allows, and for 200 and 206 exactly the bytes the headers promise.
//!
//! Input: a byte choosing the file (empty, one byte, 70,000 bytes), then header lines
//! `name: value`.
#![no_main]

use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use download_server::fuzzing::{FILES, respond_to_file};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, lines)) = data.split_first() else {
        return;
    };
    let mut request = HeaderMap::new();
    for line in lines.split(|&b| b == b'\n') {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(&line[..colon]),
            HeaderValue::from_bytes(line[colon + 1..].trim_ascii()),
        ) else {
            continue;
        };
        request.append(name, value);
    }
    let file = FILES[usize::from(choice) % FILES.len()];
    let (status, headers, body) = respond_to_file(usize::from(choice), &request);
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    match status {
        StatusCode::OK => {
            assert_eq!(&body[..], file);
            assert_eq!(text(header::CONTENT_RANGE), None);
        }
        StatusCode::PARTIAL_CONTENT => {
            let range = text(header::CONTENT_RANGE).expect("a 206 has a Content-Range");
            let (span, size) = range
                .strip_prefix("bytes ")
                .and_then(|r| r.split_once('/'))
                .expect("bytes first-last/size");
            let (first, last) = span.split_once('-').expect("first-last");
            let (first, last): (usize, usize) = (first.parse().unwrap(), last.parse().unwrap());
            assert_eq!(size, file.len().to_string());
            assert!(first <= last && last < file.len(), "{range}");
            assert_eq!(&body[..], &file[first..=last], "{range}");
        }
        StatusCode::RANGE_NOT_SATISFIABLE => {
            assert_eq!(
                text(header::CONTENT_RANGE),
                Some(&*format!("bytes */{}", file.len()))
            );
        }
        StatusCode::NOT_MODIFIED => assert!(body.is_empty()),
        StatusCode::PRECONDITION_FAILED => {}
        other => panic!("unexpected status {other}"),
    }
});
