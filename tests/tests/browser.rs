//! The browser client in a real headless Chromium, against a real server:
//! a friend opens the host's page, picks a name, creates a Gomoku room
//! against the AI and places a stone by clicking the canvas; the AI's answer
//! arrives (seen by a protocol-level spectator and on a screenshot); a
//! reload resumes the game; a second page opens the room's invite link and
//! watches; the room fits a phone's viewport, where a tap places a stone.
//!
//! Screenshots are written to `$TABULA_SCREENSHOTS` when it is set (the
//! docs' pictures are made that way), else to a temporary directory.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::Point;
use tabula_tests::browser::Browser;
use tabula_tests::{Client, TestServer, replay_snapshot};

/// Where the intersection `p` is on the page.
async fn intersection(page: &mut Browser, p: Point) -> (f64, f64) {
    let (x0, y0) = page.centre_of("gomoku-a1").await;
    let cell = page.mark("gomoku-cell").await.as_f64().expect("cell");
    let flipped = page.mark("gomoku-flipped").await.as_f64() == Some(1.0);
    let (dx, dy) = (f64::from(p.x) * cell, f64::from(p.y) * cell);
    if flipped {
        (x0 - dx, y0 + dy)
    } else {
        (x0 + dx, y0 - dy)
    }
}

fn screenshot_dir() -> PathBuf {
    std::env::var_os("TABULA_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("tabula-browser-test"))
}

async fn save_screenshot(page: &mut Browser, name: &str) -> Vec<u8> {
    let png = page.screenshot().await;
    let dir = screenshot_dir();
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    std::fs::write(dir.join(name), &png).expect("write screenshot");
    png
}

/// A PNG's pixels, decoded.
struct Picture {
    width: usize,
    channels: usize,
    data: Vec<u8>,
}

impl Picture {
    fn decode(png: &[u8]) -> Picture {
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().expect("png header");
        let mut data = vec![0; reader.output_buffer_size().expect("size")];
        let info = reader.next_frame(&mut data).expect("png frame");
        Picture {
            width: info.width as usize,
            channels: info.color_type.samples(),
            data,
        }
    }

    /// The colour of the pixel at `(x, y)`.
    fn at(&self, x: f64, y: f64) -> [u8; 3] {
        let (x, y) = (x.round() as usize, y.round() as usize);
        let i = (y * self.width + x) * self.channels;
        [self.data[i], self.data[i + 1], self.data[i + 2]]
    }
}

/// The colour of the pixel at `(x, y)` of a PNG.
fn pixel(png: &[u8], x: f64, y: f64) -> [u8; 3] {
    Picture::decode(png).at(x, y)
}

/// The room's live game as the spectator sees it.
async fn game_of(watcher: &mut Client, room: &str) -> (Value, tabula_shared::gomoku::Gomoku) {
    let snap = watcher
        .request(json!({"type": "sync", "room_id": room}))
        .await;
    let LiveGame::Gomoku(game) = replay_snapshot(&snap) else {
        panic!("not gomoku: {snap}")
    };
    (snap, game)
}

/// The free point nearest the centre.
fn free_point(game: &tabula_shared::gomoku::Gomoku) -> Point {
    let size = game.size();
    let c = i32::from(size / 2);
    (0..size)
        .flat_map(|y| (0..size).map(move |x| Point { x, y }))
        .filter(|p| game.is_legal(tabula_shared::seat::Seat::First, *p).is_ok())
        .min_by_key(|p| (i32::from(p.x) - c).abs() + (i32::from(p.y) - c).abs())
        .expect("a free point")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_plays_the_ai_from_a_browser_and_another_watches_by_link() {
    let server = TestServer::start().await;
    let url = format!("http://{}/", server.addr);
    let mut page = Browser::launch(1280, 800).await;
    page.open(&url).await;

    // The connect screen: a name, then Connect.
    page.connect_as("Ann").await;

    // The lobby, the create dialog (Gomoku against the AI), the room.
    page.create_vs_ai("gomoku").await;
    page.centre_of("gomoku-a1").await;

    // A spectator on the protocol finds the room.
    let mut watcher = server.client("Watcher").await;
    let list = watcher.request(json!({"type": "list_rooms"})).await;
    let room = list["rooms"]
        .as_array()
        .and_then(|r| r.first())
        .expect("the browser's room is listed")["room_id"]
        .as_str()
        .expect("id")
        .to_string();
    watcher.join(&room, "spectator").await;
    let (snap, game) = game_of(&mut watcher, &room).await;
    let seats = &snap["snapshot"]["summary"]["seats"];
    assert_eq!(
        seats[0]["player"]["name"], "Ann",
        "Ann plays black: {seats}"
    );
    assert!(game.moves().is_empty(), "Ann moves first");

    // Ann clicks an intersection; the stone and the AI's answer arrive.
    let target = free_point(&game);
    let (x, y) = intersection(&mut page, target).await;
    page.click(x, y).await;
    let placed = watcher.action().await;
    assert_eq!(
        placed["point"],
        json!({"x": target.x, "y": target.y}),
        "{placed}"
    );
    let answer = watcher.action().await;
    let reply = Point {
        x: answer["point"]["x"].as_u64().expect("x") as u8,
        y: answer["point"]["y"].as_u64().expect("y") as u8,
    };

    // The page shows both stones: black where Ann clicked, white where the
    // AI answered (sampled off-centre, clear of the last-move mark).
    let mut seen = false;
    for _ in 0..50 {
        let png = save_screenshot(&mut page, "web-gomoku-vs-ai.png").await;
        let (rx, ry) = intersection(&mut page, reply).await;
        let cell = page.mark("gomoku-cell").await.as_f64().expect("cell");
        // The board is wood (blue about 125); a white stone is pale all
        // over, a black one dark.
        let white = pixel(&png, rx - cell * 0.25, ry);
        let black = pixel(&png, x - cell * 0.25, y);
        if white.iter().all(|&c| c > 175) && black.iter().all(|&c| c < 90) {
            seen = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(seen, "the screenshot shows Ann's stone and the AI's answer");

    // A reload resumes the game: the saved name and token bring Ann back to
    // her seat, and she plays on.
    page.call("Page.reload", json!({})).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, game) = game_of(&mut watcher, &room).await;
    let next = free_point(&game);
    let (x, y) = intersection(&mut page, next).await;
    page.click(x, y).await;
    let placed = watcher.action().await;
    assert_eq!(
        placed["point"],
        json!({"x": next.x, "y": next.y}),
        "{placed}"
    );

    // A second page opens the room's invite link: both seats are taken, so
    // it watches.
    let mut friend = Browser::launch(1280, 800).await;
    friend.open(&format!("{url}#/room/{room}")).await;
    friend.connect_as("Bea").await;
    friend.centre_of("flip-board").await;
    friend.centre_of("gomoku-a1").await;
    watcher
        .expect(|m| {
            m["type"] == "event"
                && m["event"]["kind"] == "spectators"
                && m["event"]["count"].as_u64() == Some(2)
        })
        .await;
    save_screenshot(&mut friend, "web-watching-by-link.png").await;
    // A second invite link opened in the same tab (only the part after `#`
    // changes, so the page does not load again) takes Bea to that room.
    let mut host = server.client("Host").await;
    let (other, _) = host
        .create(tabula_tests::gomoku_options(
            json!({"kind": "human"}),
            "black",
        ))
        .await;
    friend
        .eval(&format!("window.location.hash = '#/room/{other}'"))
        .await;
    host.expect(|m| {
        m["type"] == "event"
            && m["room_id"] == other.as_str()
            && m["event"]["kind"] == "seat_taken"
            && m["event"]["player"]["name"] == "Bea"
    })
    .await;
    friend.close().await;

    // A phone held upright: the board fills the width, the panel is below.
    page.resize(390, 844, true).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (x0, _) = page.centre_of("gomoku-a1").await;
    let cell = page.mark("gomoku-cell").await.as_f64().expect("cell");
    assert!(
        cell * 16.0 > 390.0 * 0.85,
        "the board spans the width: cell {cell}"
    );
    assert!(x0 > 0.0 && x0 < cell * 1.5, "a1 near the left edge: {x0}");
    // A tap places a stone, as a click does.
    let (_, game) = game_of(&mut watcher, &room).await;
    let tapped = free_point(&game);
    let (x, y) = intersection(&mut page, tapped).await;
    page.tap(x, y).await;
    let placed = watcher
        .action_where(|a| {
            a["seat"] == "first" && a["point"] == json!({"x": tapped.x, "y": tapped.y})
        })
        .await;
    assert_eq!(placed["kind"], "place", "{placed}");
    watcher.action_where(|a| a["seat"] == "second").await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    save_screenshot(&mut page, "web-phone.png").await;

    page.close().await;
    watcher.close().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_plays_backgammon_from_a_browser() {
    use tabula_shared::backgammon::{GamePhase, Side};
    let server = TestServer::start().await;
    let url = format!("http://{}/", server.addr);
    let mut page = Browser::launch(1280, 800).await;
    page.open(&url).await;
    page.connect_as("Cal").await;
    page.create_vs_ai("backgammon").await;
    page.centre_of("bg-point-24").await;

    let mut watcher = server.client("Watcher").await;
    let list = watcher.request(json!({"type": "list_rooms"})).await;
    let room = list["rooms"][0]["room_id"]
        .as_str()
        .expect("the browser's room is listed")
        .to_string();
    watcher.join(&room, "spectator").await;
    let snap = watcher
        .request(json!({"type": "sync", "room_id": room}))
        .await;
    let seats = &snap["snapshot"]["summary"]["seats"];
    let cal = if seats[0]["player"]["name"] == "Cal" {
        Side::White
    } else {
        Side::Black
    };
    // Backgammon actions name the side that acts.
    let cal_side = if cal == Side::White { "white" } else { "black" };

    // Cal plays on a phone held upright, with a chat long enough to
    // scroll the panel below the board.
    page.resize(390, 844, true).await;
    for i in 0..12 {
        watcher
            .send(json!({"type": "chat", "room_id": room, "text": format!("line {i}")}))
            .await;
    }

    // Until Cal has played once: roll by clicking, then drag each checker
    // to its point, and confirm.
    let mut played = None;
    for _ in 0..40 {
        let snap = watcher
            .request(json!({"type": "sync", "room_id": room}))
            .await;
        let LiveGame::Backgammon(m) = replay_snapshot(&snap) else {
            panic!("not backgammon")
        };
        match *m.phase() {
            GamePhase::AwaitingRoll { side } if side == cal => {
                page.click_mark("roll").await;
                watcher
                    .action_where(|a| a["side"] == cal_side && a["kind"] == "roll")
                    .await;
            }
            GamePhase::Moving { side, dice } if side == cal => {
                // Issue 63 #8: scrolled down to the chat, the turn's Undo
                // and Confirm stay in view (they used to scroll away).
                page.centre_of("undo").await;
                page.wheel(195.0, 800.0, 3000.0).await;
                tokio::time::sleep(Duration::from_millis(500)).await;
                let undo = page.mark("undo").await;
                let panel = page.mark("room-panel").await;
                let f = |v: &Value, k: &str| v[k].as_f64().unwrap_or(f64::NAN);
                assert!(
                    f(&undo, "y") >= f(&panel, "y")
                        && f(&undo, "y") + f(&undo, "h") <= f(&panel, "y") + f(&panel, "h")
                        && f(&undo, "y") + f(&undo, "h") <= 844.0,
                    "Undo at {undo}, out of the panel {panel} with the chat scrolled into view"
                );
                let plays = m.position_for(cal).legal_plays(dice);
                let (play, _) = plays
                    .into_iter()
                    .find(|(p, _)| {
                        p.moves
                            .iter()
                            .all(|h| (1..=24).contains(&h.from) && (1..=24).contains(&h.to))
                    })
                    .expect("a play on the board");
                for (done, hop) in play.moves.iter().enumerate() {
                    // The checker is dragged to its point. (A click on the
                    // checker then on its point works too, but on a
                    // machine this loaded a click's frames can be so slow
                    // that egui takes the press for the start of a drag.)
                    // The board takes a play once the client has its turn
                    // to build (after its roll and the moves before it have
                    // been shown): its panel counts the hops from then on.
                    let ready = format!(
                        "(() => {{ try {{ return JSON.parse(window.tabulaProbe())['bg-hops'] >= {done}; }} catch (e) {{ return null; }} }})()"
                    );
                    page.wait_for("the turn to build", &ready, Duration::from_secs(30))
                        .await;
                    let from = page.centre_of(&format!("bg-point-{}", hop.from)).await;
                    let to = page.centre_of(&format!("bg-point-{}", hop.to)).await;
                    page.drag(from, to).await;
                    // Each hop shows on the board before the next tap.
                    let hops = format!("{}", done + 1);
                    let built = format!(
                        "(() => {{ try {{ return JSON.parse(window.tabulaProbe())['bg-hops'] >= {hops}; }} catch (e) {{ return null; }} }})()"
                    );
                    page.wait_for("the hop", &built, Duration::from_secs(30))
                        .await;
                }
                page.click_mark("confirm").await;
                let action = watcher
                    .action_where(|a| a["side"] == cal_side && a["kind"] == "play")
                    .await;
                played = Some((play.to_string(), action));
                break;
            }
            _ => {
                watcher.event("action").await;
            }
        }
    }
    let (play, action) = played.expect("Cal played");
    assert_eq!(action["play"], play, "{action}");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    save_screenshot(&mut page, "web-backgammon-phone.png").await;
    page.resize(1280, 800, false).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    save_screenshot(&mut page, "web-backgammon.png").await;
    page.close().await;
    watcher.close().await;
    server.stop().await;
}

/// The sizes the screens are looked at in: a laptop, a small window, a
/// phone held upright.
const SIZES: [(u32, u32, bool, &str); 3] = [
    (1280, 800, false, "1280"),
    (800, 600, false, "800"),
    (390, 844, true, "390"),
];

/// Screenshots of the page as it is at each of [`SIZES`], as
/// `{name}-{size}.png`; each is checked to be a picture of something (not a
/// blank page).
async fn at_each_size(page: &mut Browser, name: &str) {
    for (width, height, mobile, size) in SIZES {
        page.resize(width, height, mobile).await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        let png = save_screenshot(page, &format!("{name}-{size}.png")).await;
        let picture = Picture::decode(&png);
        let mut colours = std::collections::BTreeSet::new();
        for i in 0..64 {
            for j in 0..64 {
                let x = f64::from(width - 1) * f64::from(i) / 63.0;
                let y = f64::from(height - 1) * f64::from(j) / 63.0;
                colours.insert(picture.at(x, y));
            }
        }
        assert!(
            colours.len() >= 3,
            "{name} at {size}: a blank page ({} colours)",
            colours.len()
        );
    }
    page.resize(1280, 800, false).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
}

/// Issue 63: the screens a player meets (the lobby, a Gomoku room, a
/// Backgammon room, the game-over dialog and the analysis) at 1280×800,
/// 800×600 and 390×844, in English and Chinese, light and dark, taken by
/// the test (into `$TABULA_SCREENSHOTS`) for a person to look at. A friend
/// joins the host's Gomoku room by its invite link, answers the host's
/// first stone; the host resigns; she analyses the game from her history,
/// then starts a Backgammon game against the AI.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_screen_in_both_languages_and_themes_at_three_sizes() {
    let server = TestServer::start().await;
    let url = format!("http://{}/", server.addr);
    for (language, theme, tag) in [
        ("english", "light", "en-light"),
        ("english", "dark", "en-dark"),
        ("chinese", "light", "zh-light"),
        ("chinese", "dark", "zh-dark"),
    ] {
        let mut page = Browser::launch(1280, 800).await;
        // The language and the theme, as the settings window saves them.
        page.open(&url).await;
        page.eval(&format!(
            "localStorage.setItem('tabula-settings', '(theme: {theme}, language: {language})')"
        ))
        .await;
        page.open(&url).await;
        let mut host = server.client(&format!("Host {tag}")).await;
        let (room, _) = host
            .create(tabula_tests::gomoku_options(
                json!({"kind": "human"}),
                "black",
            ))
            .await;
        page.connect_as("Ann").await;
        page.centre_of("create-room").await;
        at_each_size(&mut page, &format!("lobby-{tag}")).await;
        // On a phone the room's buttons are in reach (they were the last of
        // eight columns, past the screen's edge).
        page.resize(390, 844, true).await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        let (x, _) = page.centre_of(&format!("watch-{room}")).await;
        assert!(x < 390.0, "Watch at x = {x}, off a phone's screen");
        page.resize(1280, 800, false).await;

        // Ann opens the invite link and takes the free seat.
        page.eval(&format!("window.location.hash = '#/room/{room}'"))
            .await;
        host.expect(|m| {
            m["type"] == "event"
                && m["event"]["kind"] == "seat_taken"
                && m["event"]["player"]["name"] == "Ann"
        })
        .await;
        host.act(
            &room,
            json!({"kind": "place", "point": tabula_tests::point(7, 7)}),
        )
        .await;
        page.centre_of("gomoku-a1").await;
        let (x, y) = intersection(&mut page, Point { x: 8, y: 7 }).await;
        page.click(x, y).await;
        host.action_where(|a| a["seat"] == "second").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        at_each_size(&mut page, &format!("gomoku-{tag}")).await;

        // The host resigns: Ann's game-over dialog.
        host.send(json!({"type": "resign", "room_id": room})).await;
        let over = host.event("game_over").await;
        let game_id = over["event"]["game_id"]
            .as_str()
            .expect("game id")
            .to_string();
        tokio::time::sleep(Duration::from_millis(700)).await;
        at_each_size(&mut page, &format!("game-over-{tag}")).await;

        // From her history, the game's analysis.
        page.click_mark("leave-room").await;
        page.click_mark("tab-history").await;
        page.click_mark(&format!("replay-{game_id}")).await;
        page.click_mark("analyse").await;
        let analysed = "(() => { try { return JSON.parse(window.tabulaProbe())['analysed'] === 1; } catch (e) { return null; } })()";
        page.wait_for("the analysis", analysed, Duration::from_secs(60))
            .await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        at_each_size(&mut page, &format!("analysis-{tag}")).await;

        // A Backgammon game against the AI.
        page.click_mark("tab-lobby").await;
        page.create_vs_ai("backgammon").await;
        page.centre_of("bg-point-24").await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        at_each_size(&mut page, &format!("backgammon-{tag}")).await;

        page.close().await;
        host.close().await;
    }
    server.stop().await;
}

/// Issue 65: a club's Swiss in the browser. The host (over the protocol)
/// creates it with three AI levels; Bo and Cy enter over the protocol (they
/// come to their games and never move, so theirs stay in play); Ann, in the
/// browser, finds it under Tournaments, opens its page and joins; the host
/// starts it. She is taken to her game; back on the page the games of
/// round 1, the standings and the crosstable show at desktop and phone
/// sizes, and a Watch button opens another game of the round.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_club_swiss_in_the_browser_at_desktop_and_phone_sizes() {
    let server = TestServer::start().await;
    let url = format!("http://{}/", server.addr);
    let mut host =
        tabula_tests::registered_at(server.addr, "Club host", "correct horse battery").await;
    let created = host
        .request(json!({"type": "create_tournament", "spec": {
            "name": "Thursday Swiss",
            "format": {"kind": "swiss", "rounds": 3},
            "game": {"game": "gomoku", "size": 15, "rule": "freestyle", "opening": "none"},
            "time_control": {"initial_secs": 300, "increment_secs": 3},
            "max_entrants": 16
        }}))
        .await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let id = created["tournament_id"].as_str().expect("id").to_string();
    for level in ["beginner", "casual", "intermediate"] {
        host.add_ai_entrant(&id, level).await;
    }
    let watched = host
        .request(json!({"type": "watch_tournament", "tournament_id": id}))
        .await;
    assert_eq!(watched["type"], "tournament", "{watched}");

    let mut players = Vec::new();
    for name in ["Bo", "Cy"] {
        let mut player = tabula_tests::guest_at(server.addr, name).await;
        let joined = player
            .request(json!({"type": "join_tournament", "tournament_id": id}))
            .await;
        assert_eq!(joined["type"], "ok", "{joined}");
        players.push(player);
    }
    let mut page = Browser::launch(1280, 800).await;
    page.open(&url).await;
    page.connect_as("Ann").await;
    page.click_mark("tab-tournaments").await;
    page.click_mark("tour-open-Thursday Swiss").await;
    page.click_mark("tour-join").await;
    let six = host
        .expect(|m| {
            m["type"] == "tournament"
                && m["tournament"]["entrants"].as_array().map(Vec::len) == Some(6)
        })
        .await;
    let ann = six["tournament"]["entrants"]
        .as_array()
        .expect("entrants")
        .iter()
        .find(|e| e["player"]["name"] == "Ann")
        .expect("Ann entered")["no"]
        .clone();
    let started = host
        .request(
            json!({"type": "manage_tournament", "tournament_id": id, "action": {"do": "start"}}),
        )
        .await;
    assert_eq!(started["type"], "ok", "{started}");
    // Round 1 paired and its games' rooms made.
    let round = host
        .expect(|m| {
            let t = &m["tournament"];
            m["type"] == "tournament"
                && t["round"] == 1
                && t["games"].as_array().is_some_and(|gs| {
                    gs.iter()
                        .all(|g| g["second"].is_null() || g["room_id"].is_string())
                })
        })
        .await;
    let games = round["tournament"]["games"]
        .as_array()
        .expect("games")
        .clone();
    // Bo and Cy sit down at their games.
    for player in &mut players {
        let paired = player.expect(|m| m["type"] == "tournament_game").await;
        let room = paired["room_id"].as_str().expect("a room").to_string();
        player.join(&room, "player").await;
    }
    let hers = games
        .iter()
        .find(|g| g["first"] == ann || g["second"] == ann)
        .expect("Ann paired or given the bye");
    if hers["room_id"].is_string() {
        // Taken to her game; she leaves it for the page (her clock runs).
        page.centre_of("gomoku-a1").await;
        page.click_mark("leave-room").await;
        page.click_mark("confirm-yes").await;
    }
    page.centre_of("tour-back").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    at_each_size(&mut page, "tournament").await;
    // On a phone the page's first button is on the screen.
    page.resize(390, 844, true).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (x, _) = page.centre_of("tour-back").await;
    assert!(
        x < 390.0,
        "the page's Back at x = {x}, off a phone's screen"
    );
    page.resize(1280, 800, false).await;
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Watch Bo's or Cy's game, not hers (they never move: it is in play).
    let number_of = |name: &str| {
        six["tournament"]["entrants"]
            .as_array()
            .expect("entrants")
            .iter()
            .find(|e| e["player"]["name"] == name)
            .expect("entered")["no"]
            .clone()
    };
    let (bo, cy) = (number_of("Bo"), number_of("Cy"));
    let other = games
        .iter()
        .find(|g| {
            let has = |n: &Value| g["first"] == *n || g["second"] == *n;
            !has(&ann) && (has(&bo) || has(&cy))
        })
        .expect("a game of Bo's or Cy's without Ann");
    page.click_mark(&format!("tour-room-{}-{}", other["first"], other["second"]))
        .await;
    page.centre_of("gomoku-a1").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    save_screenshot(&mut page, "tournament-watching.png").await;

    page.close().await;
    host.close().await;
    for player in players {
        player.close().await;
    }
    server.stop().await;
}

/// Issue 66: a board link opens the position on the analysis board in a
/// browser, with the engine's answer, at desktop and phone sizes
/// (screenshots `study-*.png`); Set up shows the position's editor
/// (`setup-*.png`), and Done puts it back on the board with an answer.
#[tokio::test]
async fn a_board_link_opens_the_position_with_the_engines_answer() {
    let server = TestServer::start().await;
    let link = "#/board/bg/-b--BBC-C---eC---c-e----B-:0:0:1:31:0:0:0:0:10";
    let mut page = Browser::launch(1280, 800).await;
    page.open(&format!("http://{}/{link}", server.addr)).await;
    page.connect_as("Ann").await;
    page.centre_of("study-board").await;
    page.centre_of("study-answer").await;
    // A rollout of the position's plays, 324 trials, to its end.
    page.click_mark("rollout-324").await;
    page.click_mark("rollout-start").await;
    page.centre_of("rollout-done").await;
    at_each_size(&mut page, "study").await;
    // The position's editor (the clicks on its board are the kittest's),
    // then Done: the position is back with an answer.
    page.resize(1280, 800, false).await;
    page.click_mark("study-set-up").await;
    page.click_mark("setup-black").await;
    page.centre_of("setup-board").await;
    at_each_size(&mut page, "setup").await;
    page.resize(1280, 800, false).await;
    page.click_mark("setup-done").await;
    page.centre_of("study-answer").await;
    page.close().await;
    server.stop().await;
}

/// A puzzle solved in the browser: the Puzzles tab, the "win by fours"
/// theme, the first four clicked on the board, the server's "Right!", at
/// each size.
#[tokio::test]
async fn a_puzzle_is_solved_by_a_click_on_the_board() {
    let server = TestServer::start().await;
    // A new player's first puzzle of a theme: every puzzle is rated alike
    // on a fresh server, so the first by id.
    let built_in: Vec<tabula_shared::protocol::SolvedPuzzle> =
        serde_json::from_str(include_str!("../../server/src/puzzles/seed.json")).expect("reads");
    let first = built_in
        .iter()
        .filter(|p| p.theme == tabula_shared::protocol::PuzzleTheme::WinByFours)
        .min_by_key(|p| p.id())
        .expect("a win by fours");
    let tabula_shared::protocol::PuzzleAnswer::Point { point } = first.solution.answer else {
        panic!("a point")
    };
    let mut page = Browser::launch(1280, 800).await;
    page.open(&format!("http://{}/", server.addr)).await;
    page.connect_as("Ann").await;
    page.click_mark("tab-puzzles").await;
    page.centre_of("puzzle-question").await;
    page.click_mark("puzzle-theme-win_by_fours").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    page.click_mark("puzzle-next").await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    page.centre_of("puzzle-question").await;
    let (x, y) = intersection(&mut page, point).await;
    page.click(x, y).await;
    page.centre_of("puzzle-right").await;
    at_each_size(&mut page, "puzzle").await;
    page.close().await;
    server.stop().await;
}
