//! The frame decoder: any text a client sends decodes to a frame or to a
//! typed error, never a panic; a decoded frame's message survives a JSON
//! round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_shared::protocol::ClientFrame;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(frame) = ClientFrame::decode(text) {
        let json = serde_json::to_string(&frame.message).expect("a decoded message encodes");
        let again: tabula_shared::protocol::ClientMessage =
            serde_json::from_str(&json).expect("an encoded message decodes");
        assert_eq!(
            serde_json::to_string(&again).expect("encodes"),
            json,
            "a message changed in a round trip"
        );
    }
});
