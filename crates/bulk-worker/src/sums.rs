//! A file's md5 (checked against the listing) and CRC (the zip's), worked out as its
//! bytes pass: in a zip's run (`zip.rs`), or in the worker beside it (`beside.rs`); and
//! its md5 alone, in a folder run (`folder.rs`).

use js_sys::Uint8Array;
use md5::{Digest, Md5};
use rawzip::Crc32;
use wasm_bindgen::prelude::*;

/// The sums of the bytes given so far.
#[derive(Debug, Default)]
pub struct Sums {
    md5: Md5,
    crc: Crc32,
}

impl Sums {
    /// Adds `piece`, copied into `scratch` (one buffer, used again) to be hashed.
    pub fn update(&mut self, piece: &Uint8Array, scratch: &mut Vec<u8>) {
        let bytes = copied(piece, scratch);
        self.md5.update(&*bytes);
        self.crc.update(bytes);
    }

    pub fn finish(self) -> Whole {
        Whole {
            md5: format!("{:x}", self.md5.finalize()),
            crc: self.crc.checksum(),
        }
    }
}

/// A whole file's sums: its md5 in lower-case hex, and its CRC.
pub struct Whole {
    pub md5: String,
    pub crc: u32,
}

/// [`Sums`] for a script, as `Sums` (`new`, `update`, `finish`): the floor of
/// `cargo xtask bench download` that hashes (`crates/e2e/src/bench-floor-worker.js`)
/// works out md5 and CRC with the zip's own code, on its service worker's thread.
#[wasm_bindgen(js_name = Sums)]
#[derive(Debug, Default)]
pub struct ScriptSums {
    sums: Sums,
    scratch: Vec<u8>,
}

#[wasm_bindgen(js_class = Sums)]
impl ScriptSums {
    #[wasm_bindgen(constructor)]
    pub fn new() -> ScriptSums {
        ScriptSums::default()
    }

    pub fn update(&mut self, piece: &Uint8Array) {
        self.sums.update(piece, &mut self.scratch);
    }

    /// The md5 in hex (the CRC is worked out as the zip's is, and not needed).
    pub fn finish(self) -> String {
        self.sums.finish().md5
    }
}

/// A file's md5 alone, worked out as its bytes pass: a folder run's (`folder.rs`), which
/// checks it against the listing. Also for a script, as `Md5` (`new`, `update`,
/// `finish`): the folder's floor of `cargo xtask bench download`
/// (`crates/e2e/src/bench-floor-folder.js`) hashes with this same code.
#[wasm_bindgen(js_name = Md5)]
#[derive(Debug, Default)]
pub struct FileMd5 {
    md5: Md5,
    /// Each piece copied into wasm memory to be hashed (one buffer, used again).
    scratch: Vec<u8>,
}

#[wasm_bindgen(js_class = Md5)]
impl FileMd5 {
    #[wasm_bindgen(constructor)]
    pub fn new() -> FileMd5 {
        FileMd5::default()
    }

    /// Adds `piece`.
    pub fn update(&mut self, piece: &Uint8Array) {
        self.md5.update(copied(piece, &mut self.scratch));
    }

    /// The md5 in lower-case hex.
    pub fn finish(self) -> String {
        format!("{:x}", self.md5.finalize())
    }
}

/// `piece` copied into wasm memory, into `scratch`'s room (grown when too small, never
/// cleared first: the copy writes every byte hashed).
fn copied<'a>(piece: &Uint8Array, scratch: &'a mut Vec<u8>) -> &'a mut [u8] {
    let length = piece.length() as usize;
    scratch.clear();
    scratch.reserve(length);
    piece.copy_to_uninit(&mut scratch.spare_capacity_mut()[..length])
}
