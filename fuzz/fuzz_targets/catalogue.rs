//! `catalogue.json` as the server loads it (over the test fixture's files): any text
//! is a catalogue or an error that can be shown, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(json) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(error) = download_server::fuzzing::load_catalogue(json) {
        let _ = error.to_string();
    }
});
