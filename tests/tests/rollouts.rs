//! Backgammon rollouts over real sockets: reports as the trials come in,
//! each rollout ended by exactly one `finished` or `stopped` report; the
//! candidates legal plays with intervals; stop, replace, and the typed
//! refusals (a Gomoku position, trials out of range, no rollout to stop,
//! every slot taken).

use serde_json::{Value, json};
use tabula_shared::protocol::{BgRollout, RolloutState};
use tabula_shared::study::{BgSetup, StudyPosition};
use tabula_tests::{Client, TestServer, test_config};

/// A middle-game money position, the bottom player on roll with 3-1.
const ROLLED: &str = "XGID=-b--BBC-C---eC---c-e----B-:0:0:1:31:0:0:0:0:10";
/// The bottom player's six-point prime holding two checkers, before its
/// roll, the cube in the middle (money).
const CUBE: &str = "XGID=-----bBBBBBB---A-----bdd--:0:0:1:00:0:0:0:0:10";

fn position(xgid: &str) -> Value {
    json!(StudyPosition::Backgammon(BgSetup::from_xgid(xgid).unwrap()))
}

async fn server(workers: usize, queue: usize) -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("dir");
    let mut config = test_config(dir.path());
    config.analysis_workers = workers;
    config.analysis_queue = queue;
    (TestServer::start_with(config).await, dir)
}

/// Reads request `id`'s reports up to its last one; returns them all.
async fn reports_until_the_last(c: &mut Client, id: u64) -> Vec<BgRollout> {
    let mut reports = Vec::new();
    loop {
        let m = c.expect(|m| m["request_id"] == json!(id)).await;
        assert_eq!(m["type"], "rollout", "{m}");
        let r: BgRollout = serde_json::from_value(m["rollout"].clone()).expect("rollout");
        let last = r.state != RolloutState::Running;
        reports.push(r);
        if last {
            return reports;
        }
    }
}

/// Request `id`'s messages seen so far (the ids sent by hand here are
/// above the ones `request` numbers).
fn seen_for(c: &Client, id: u64) -> usize {
    c.seen
        .iter()
        .filter(|m| m["request_id"] == json!(id))
        .count()
}

#[tokio::test]
async fn a_rollout_reports_as_it_goes_and_ends_once() {
    let (server, _dir) = server(2, 8).await;
    let mut c = server.client("Ada").await;
    c.send(
        json!({"type": "rollout", "request_id": 101, "position": position(ROLLED), "trials": 144}),
    )
    .await;
    let reports = reports_until_the_last(&mut c, 101).await;
    let last = reports.last().unwrap();
    assert_eq!(last.state, RolloutState::Finished);
    assert_eq!((last.trials_done, last.trials), (144, 144));
    for pair in reports.windows(2) {
        assert!(pair[0].trials_done < pair[1].trials_done, "progress grows");
    }
    assert!(last.lines.len() > 1 && last.lines.len() <= 5, "{last:?}");
    let setup = BgSetup::from_xgid(ROLLED).unwrap();
    let m = setup.to_match().unwrap();
    for line in &last.lines {
        let play = line.play.as_ref().expect("a play");
        assert!(m.clone().play(setup.on_roll, play).is_ok(), "{line:?}");
        assert!(line.cubeless_ci > 0.0 && line.cubeless_ci < 0.5, "{line:?}");
    }
    for pair in last.lines.windows(2) {
        assert!(pair[0].equity >= pair[1].equity, "best first");
    }
    // Nothing more for that request once it has ended.
    assert_eq!(c.request(json!({"type": "ping"})).await["type"], "pong");
    assert_eq!(seen_for(&c, 101), reports.len());

    // Before the roll: the position itself and the cube decision.
    c.send(json!({"type": "rollout", "request_id": 102, "position": position(CUBE), "trials": 72}))
        .await;
    let last = reports_until_the_last(&mut c, 102).await.pop().unwrap();
    assert_eq!(last.lines.len(), 1);
    assert!(last.lines[0].play.is_none() && last.lines[0].notation.is_empty());
    let cube = last.cube.expect("a cube decision");
    assert_eq!(
        cube.chances, last.lines[0].chances,
        "from the rolled-out chances"
    );
    assert!(cube.no_double < cube.double_pass, "{cube:?}");
}

#[tokio::test]
async fn stop_and_a_newer_rollout_each_end_one_with_stopped() {
    let (server, _dir) = server(2, 8).await;
    let mut c = server.client("Ada").await;
    let long = json!({"type": "rollout", "position": position(ROLLED), "trials": 46656});
    let mut first = long.clone();
    first["request_id"] = json!(101);
    c.send(first).await;
    // Its first running report, then stop.
    let running = c.expect(|m| m["request_id"] == json!(101)).await;
    assert_eq!(running["rollout"]["state"], "running", "{running}");
    c.send(json!({"type": "stop_rollout", "request_id": 102}))
        .await;
    let last = reports_until_the_last(&mut c, 101).await.pop().unwrap();
    assert_eq!(last.state, RolloutState::Stopped);
    assert!(last.trials_done > 0 && last.trials_done < 46656, "{last:?}");
    assert!(!last.lines.is_empty());

    // A newer rollout stops the older: its `stopped` first, then the new
    // one runs to its end.
    let mut older = long.clone();
    older["request_id"] = json!(103);
    c.send(older).await;
    c.send(json!({"type": "rollout", "request_id": 104, "position": position(CUBE), "trials": 36}))
        .await;
    let older_last = reports_until_the_last(&mut c, 103).await.pop().unwrap();
    assert_eq!(older_last.state, RolloutState::Stopped);
    let newer_last = reports_until_the_last(&mut c, 104).await.pop().unwrap();
    assert_eq!(newer_last.state, RolloutState::Finished);
    // With none in work, stop is refused.
    let reply = c.request(json!({"type": "stop_rollout"})).await;
    assert_eq!(reply["code"], "not_found", "{reply}");
    assert_eq!(
        seen_for(&c, 102),
        0,
        "a stop that stopped one is answered by the report"
    );
}

#[tokio::test]
async fn rollouts_refuse_what_they_cannot_roll_out() {
    // One slot: the second player's rollout finds it taken.
    let (server, _dir) = server(1, 0).await;
    let mut c = server.client("Ada").await;
    let gomoku =
        json!({"game": "gomoku", "size": 15, "black": [], "white": [], "to_move": "black"});
    let cases = [
        (json!({"position": gomoku}), "bad_request"),
        (
            json!({"position": position(ROLLED), "trials": 0}),
            "bad_request",
        ),
        (
            json!({"position": position(ROLLED), "trials": 46657}),
            "bad_request",
        ),
        (
            json!({"position": position("XGID=-b--BBC-C---eC---c-e----B-:0:0:1:33:0:0:0:0:10"),
                "trials": 36}),
            "",
        ),
    ];
    for (request, code) in cases {
        let mut msg = request.clone();
        msg["type"] = json!("rollout");
        let reply = c.request(msg).await;
        if code.is_empty() {
            assert_eq!(reply["type"], "rollout", "{request}: {reply}");
            continue;
        }
        assert_eq!(reply["code"], code, "{request}: {reply}");
    }
    c.send(
        json!({"type": "rollout", "request_id": 110, "position": position(ROLLED),
        "trials": 46656}),
    )
    .await;
    // In work once its first report is out.
    let first = c.expect(|m| m["request_id"] == json!(110)).await;
    assert_eq!(first["rollout"]["state"], "running", "{first}");
    let mut other = server.client("Bea").await;
    let reply = other
        .request(json!({"type": "rollout", "position": position(ROLLED)}))
        .await;
    assert_eq!(reply["code"], "busy", "{reply}");
    assert!(reply["retry_after_ms"].as_u64().is_some(), "{reply}");
    c.send(json!({"type": "stop_rollout"})).await;
    let last = reports_until_the_last(&mut c, 110).await.pop().unwrap();
    assert_eq!(last.state, RolloutState::Stopped);
}
