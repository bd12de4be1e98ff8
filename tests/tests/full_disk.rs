//! A full disk, for real: the server's data directory is a 3 MB tmpfs,
//! filled with `dd` once the games are going. Whatever the server cannot
//! save it refuses with `internal` and tells nobody, and after the disk has
//! room again and the server restarts, what everyone was told is what the
//! store holds. Rooms whose own next step (the AI's move) cannot be saved
//! back off instead of retrying in a tight loop, and say so once.
//!
//! Mounting needs root (CI runs as root).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};
use tabula_tests::{Client, TestServer, assert_numbered_once, gomoku_options, point, test_config};

/// A 3 MB tmpfs mounted on a fresh temporary directory; unmounted when dropped.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount() -> Tmpfs {
        let dir = tempfile::tempdir().expect("temp dir");
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=3m", "tmpfs"])
            .arg(dir.path())
            .status()
            .expect("run mount");
        assert!(status.success(), "mounting a tmpfs needs root");
        Tmpfs { dir }
    }

    fn path(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    /// Fills the file system up with a file of zeroes. First the server's
    /// write-ahead log is checkpointed and cut to nothing (as SQLite does
    /// when it restarts the log), so that the next commit needs new blocks:
    /// otherwise it might still fit in the log's old space.
    fn fill(&self) {
        let db = rusqlite::Connection::open(self.dir.path().join("tabula.db")).expect("open");
        db.busy_timeout(Duration::from_secs(10))
            .expect("busy timeout");
        let busy: i64 = db
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))
            .expect("checkpoint");
        assert_eq!(busy, 0, "the checkpoint ran to the end");
        drop(db);
        let out = Command::new("dd")
            .args(["if=/dev/zero", "bs=4k"])
            .arg(format!("of={}", self.dir.path().join("fill").display()))
            .output()
            .expect("run dd");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("No space left"),
            "dd stopped for another reason: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Gives the space back.
    fn empty(&self) {
        std::fs::remove_file(self.dir.path().join("fill")).expect("remove the filler");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

async fn start(dir: &Path) -> TestServer {
    TestServer::start_with(test_config(dir)).await
}

/// Events `client` got since `mark` (an index into its `seen`), chat aside.
async fn events_since(client: &mut Client, room: &str, mark: usize) -> Vec<Value> {
    // A sync's answer comes after anything the room sent before it.
    client
        .request(json!({"type": "sync", "room_id": room}))
        .await;
    client.seen[mark..]
        .iter()
        .filter(|m| m["type"] == "event" && m["event"]["kind"] != "chat")
        .cloned()
        .collect()
}

fn refused_internal(reply: &Value) {
    assert_eq!(reply["type"], "error", "{reply}");
    assert_eq!(reply["code"], "internal", "{reply}");
}

#[tokio::test]
async fn on_a_full_disk_nothing_unsaved_is_told_and_a_restart_agrees() {
    let disk = Tmpfs::mount();
    let server = start(&disk.path()).await;
    let (mut ada, mut bob, room) = server.pvp_gomoku().await;
    let place = |x, y| json!({"kind": "place", "point": point(x, y)});
    assert_eq!(ada.act(&room, place(7, 7)).await["type"], "event");
    bob.action().await;
    assert_eq!(bob.act(&room, place(8, 8)).await["type"], "event");
    ada.action().await;

    disk.fill();
    let mark = bob.seen.len();
    refused_internal(
        &ada.request(json!({"type": "offer_draw", "room_id": room}))
            .await,
    );
    refused_internal(
        &ada.request(json!({"type": "resign", "room_id": room}))
            .await,
    );
    refused_internal(&ada.act(&room, place(9, 9)).await);
    let told = events_since(&mut bob, &room, mark).await;
    assert!(told.is_empty(), "the opponent was told {told:?}");
    // Ada's room is as before: still playing, no offer, two stones.
    let sync = ada.request(json!({"type": "sync", "room_id": room})).await;
    assert_eq!(sync["snapshot"]["summary"]["status"], "playing", "{sync}");
    assert_eq!(sync["snapshot"]["offers"], json!([]), "{sync}");
    // A new player gets no token that a restart would not know.
    let mut carol = Client::connect(server.addr).await;
    let welcome = carol
        .request(json!({"type": "hello", "protocol": 1, "name": "Carol"}))
        .await;
    refused_internal(&welcome);

    disk.empty();
    let token = ada.token.clone();
    server.stop().await;
    let server = start(&disk.path()).await;
    let mut ada = Client::connect(server.addr).await;
    ada.hello("Ada", Some(&token)).await;
    assert_eq!(ada.rooms, vec![room.clone()]);
    ada.join(&room, "player").await;
    let sync = ada.request(json!({"type": "sync", "room_id": room})).await;
    assert_eq!(sync["snapshot"]["summary"]["status"], "playing", "{sync}");
    assert_eq!(sync["snapshot"]["offers"], json!([]), "{sync}");
    assert_eq!(
        sync["snapshot"]["record"]["actions"]
            .as_array()
            .map(Vec::len),
        Some(2),
        "{sync}"
    );
    // With room on the disk, the same requests work.
    let resigned = ada
        .request(json!({"type": "resign", "room_id": room}))
        .await;
    assert_eq!(resigned["type"], "ok", "{resigned}");
    let over = ada.event("game_over").await;
    let game_id = over["event"]["game_id"]
        .as_str()
        .expect("game id")
        .to_string();
    let game = ada
        .request(json!({"type": "get_game", "game_id": game_id}))
        .await;
    assert_ne!(game["type"], "error", "{game}");
    server.stop().await;
}

#[tokio::test]
async fn against_the_ai_a_takeback_or_rematch_that_cannot_be_saved_is_not_shown() {
    let disk = Tmpfs::mount();
    let server = start(&disk.path()).await;
    let mut ada = server.client("Ada").await;
    let mut options = gomoku_options(json!({"kind": "ai", "level": "beginner"}), "black");
    options["takebacks"] = json!(true);
    let (room, _) = ada.create(options).await;
    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );
    // The AI answers.
    ada.action().await;
    ada.action().await;

    disk.fill();
    let mark = ada.seen.len();
    let asked = ada
        .request(json!({"type": "request_takeback", "room_id": room}))
        .await;
    refused_internal(&asked);
    let told = events_since(&mut ada, &room, mark).await;
    assert!(told.is_empty(), "told {told:?}");

    // Over, with room to save it; then the rematch fails on the full disk.
    disk.empty();
    assert_eq!(
        ada.request(json!({"type": "resign", "room_id": room}))
            .await["type"],
        "ok"
    );
    ada.event("game_over").await;
    disk.fill();
    let mark = ada.seen.len();
    refused_internal(
        &ada.request(json!({"type": "rematch", "room_id": room}))
            .await,
    );
    let told = events_since(&mut ada, &room, mark).await;
    assert!(told.is_empty(), "told {told:?}");

    disk.empty();
    let token = ada.token.clone();
    server.stop().await;
    let server = start(&disk.path()).await;
    let mut ada = Client::connect(server.addr).await;
    ada.hello("Ada", Some(&token)).await;
    ada.join(&room, "player").await;
    let sync = ada.request(json!({"type": "sync", "room_id": room})).await;
    assert_eq!(sync["snapshot"]["summary"]["status"], "finished", "{sync}");
    assert_eq!(
        sync["snapshot"]["record"]["actions"]
            .as_array()
            .map(Vec::len),
        Some(2),
        "the takeback was not saved, so the two stones are there: {sync}"
    );
    server.stop().await;
}

/// The AI's move cannot be saved: the room says so once, tries again with
/// a growing delay (not thousands of times a second), and plays the move
/// once the disk has room.
#[tokio::test]
async fn the_ai_backs_off_while_its_move_cannot_be_saved() {
    let disk = Tmpfs::mount();
    let mut config = test_config(&disk.path());
    // Time to fill the disk while the AI thinks.
    config.ai_budget = Duration::from_millis(1500);
    let server = TestServer::start_with(config).await;
    let mut ada = server.client("Ada").await;
    let (room, _) = ada
        .create(gomoku_options(
            json!({"kind": "ai", "level": "expert"}),
            "black",
        ))
        .await;
    let mark = ada.seen.len();
    assert_eq!(
        ada.act(&room, json!({"kind": "place", "point": point(7, 7)}))
            .await["type"],
        "event"
    );
    disk.fill();
    tokio::time::sleep(Duration::from_secs(5)).await;
    let notices = |seen: &[Value]| {
        seen.iter()
            .filter(|m| {
                m["event"]["kind"] == "chat" && m["event"]["line"]["from"] == "Tabula server"
            })
            .count()
    };
    let told = events_since(&mut ada, &room, mark).await;
    let actions = told
        .iter()
        .filter(|m| m["event"]["kind"] == "action")
        .count();
    assert_eq!(actions, 1, "only Ada's own move: {told:?}");
    assert_eq!(notices(&ada.seen[mark..]), 1, "{:?}", &ada.seen[mark..]);

    disk.empty();
    let answer = ada
        .expect(|m| m["event"]["kind"] == "action" && m["event"]["action"]["seat"] == "second")
        .await;
    assert_eq!(answer["type"], "event", "{answer}");
    // Told after the move whose save showed it (the move's number was
    // given before the save).
    ada.expect(|m| {
        m["event"]["kind"] == "chat"
            && m["event"]["line"]["text"]
                .as_str()
                .is_some_and(|t| t.contains("can save again"))
    })
    .await;
    assert_eq!(notices(&ada.seen[mark..]), 2, "and once that it can again");
    // The notices and the AI's move each have a number of their own, and
    // the room's snapshot agrees with the last one.
    let last = assert_numbered_once(&ada.seen, &room);
    let synced = ada.request(json!({"type": "sync", "room_id": room})).await;
    assert_eq!(synced["snapshot"]["seq"], last, "{synced}");
    server.stop().await;
}
