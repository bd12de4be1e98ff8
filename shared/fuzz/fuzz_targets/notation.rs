//! The notation parsers: Backgammon plays ("8/5 6/5"), Gomoku points
//! ("h8"), gnubg Position and Match IDs. Any text parses or is refused;
//! whatever parses prints back to text that parses (to the same thing, for
//! points and IDs).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_shared::backgammon::{MatchId, Play, Position};
use tabula_shared::gomoku::Point;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(play) = text.parse::<Play>() {
        // Printed, it parses again (a record saves plays as text). The
        // printed form is not unique for plays no roll makes (two hits on
        // one point join either chain), so it is not compared.
        let printed = play.to_string();
        let again: Play = printed.parse().expect("a printed play parses");
        let _: Play = again.to_string().parse().expect("and again");
    }
    if let Ok(point) = text.parse::<Point>() {
        let again: Point = point.to_string().parse().expect("a printed point parses");
        assert_eq!(again, point);
    }
    for size in [9u8, 15, 19, 25] {
        if let Ok(point) = Point::parse_on(text, size) {
            assert_eq!(Point::parse_on(&point.to_string(), size), Ok(point));
        }
    }
    if let Ok(position) = Position::from_position_id(text) {
        let id = position.position_id();
        assert_eq!(Position::from_position_id(&id), Ok(position));
    }
    if let Ok(id) = MatchId::decode(text) {
        let encoded = id.encode();
        assert_eq!(MatchId::decode(&encoded), Ok(id));
    }
});
