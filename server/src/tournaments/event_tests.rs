use super::*;
use tabula_shared::protocol::{GameOptions, TimeControl};

fn spec(format: TournamentFormat) -> TournamentSpec {
    TournamentSpec {
        name: "Club night".into(),
        format,
        game: serde_json::from_str(
            r#"{"game":"gomoku","size":15,"rule":"freestyle","opening":"none"}"#,
        )
        .map(|g: GameOptions| g)
        .unwrap(),
        time_control: TimeControl {
            initial_secs: 60,
            increment_secs: 0,
        },
        rated: false,
        private: false,
        max_entrants: 8,
        forfeit_secs: 30,
        starts_at: None,
        openings: Vec::new(),
    }
}

fn player(i: u32) -> PlayerInfo {
    PlayerInfo {
        id: format!("p{i}"),
        name: format!("P{i}"),
        ai: None,
        bot: false,
    }
}

fn with(format: TournamentFormat, n: u32) -> Tournament {
    let mut t = Tournament::new("t".into(), spec(format), player(0), None, 0, Seat::First);
    for i in 1..=n {
        t.enter(player(i), 2000 - i as i32).unwrap();
    }
    t
}

/// Plays every game of the round in play: the lower number wins.
fn play_round(t: &mut Tournament) {
    for i in 0..t.games.len() {
        let g = &t.games[i];
        if g.first_score.is_some() {
            continue;
        }
        let room = format!("r{i}");
        let first_wins = g.first < g.second.unwrap();
        t.games[i].room_id = Some(room.clone());
        let points = if first_wins { [2, 0] } else { [0, 2] };
        assert!(t.record(
            &room,
            GameScore {
                points,
                absent: [false, false],
                game_id: None,
            }
        ));
        assert!(
            !t.record(
                &room,
                GameScore {
                    points,
                    absent: [false, false],
                    game_id: None,
                }
            ),
            "scored twice"
        );
    }
}

#[test]
fn entry_closes_at_the_start_and_when_full() {
    let mut t = with(TournamentFormat::Swiss { rounds: 3 }, 8);
    assert_eq!(
        t.enter(player(9), 1500).unwrap_err().0,
        ErrorCode::TournamentFull
    );
    assert_eq!(
        t.enter(player(1), 1500).unwrap_err().0,
        ErrorCode::BadRequest
    );
    t.withdraw("p8").unwrap();
    t.start(1).unwrap();
    assert_eq!(
        t.enter(player(9), 1500).unwrap_err().0,
        ErrorCode::TournamentStarted
    );
    assert_eq!(t.entrants.len(), 7);
}

#[test]
fn a_round_robin_of_five_plays_ten_games_and_a_bye_a_round() {
    let mut t = with(TournamentFormat::RoundRobin { double: false }, 5);
    t.start(1).unwrap();
    while t.status == TournamentStatus::Running {
        play_round(&mut t);
        t.advance(2);
    }
    assert_eq!(t.round, 5);
    let played = t.games.iter().filter(|g| g.second.is_some()).count();
    assert_eq!(played, 10);
    let s = t.standings();
    // The lower number always wins: 1 has 4 wins, 5 none; a round robin's
    // bye is a rest that scores nothing.
    assert_eq!((s[0].id, s[0].score), (1, 8));
    assert_eq!((s[4].id, s[4].score), (5, 0));
}

#[test]
fn a_knockout_of_six_gives_the_top_seeds_byes_and_ends_with_one_left() {
    let mut t = with(TournamentFormat::Knockout, 6);
    let new = t.start(1).unwrap();
    assert_eq!(new.len(), 2, "two games and two byes in round 1");
    while t.status == TournamentStatus::Running {
        play_round(&mut t);
        t.advance(2);
    }
    assert_eq!(t.round, 3);
    let last = t.games.iter().filter(|g| g.round == 3).collect::<Vec<_>>();
    assert_eq!(
        (last[0].first, last[0].second),
        (1, Some(2)),
        "1 and 2 meet in the final"
    );
}

#[test]
fn a_second_absence_withdraws_and_a_withdrawn_entrant_is_not_paired() {
    let mut t = with(TournamentFormat::Swiss { rounds: 4 }, 4);
    t.start(1).unwrap();
    for round in 1..=2 {
        for i in 0..t.games.len() {
            if t.games[i].first_score.is_some() {
                continue;
            }
            let room = format!("r{round}-{i}");
            t.games[i].room_id = Some(room.clone());
            let g = &t.games[i];
            let absent = [g.first == 4, g.second == Some(4)];
            let points = if absent[0] { [0, 2] } else { [2, 0] };
            t.record(
                &room,
                GameScore {
                    points,
                    absent,
                    game_id: None,
                },
            );
        }
        t.advance(2);
    }
    assert!(t.entrant(4).withdrawn);
    assert_eq!(t.entrant(4).absences, 2);
    assert!(
        t.games
            .iter()
            .filter(|g| g.round == 3)
            .all(|g| g.first != 4 && g.second != Some(4))
    );
    assert_eq!(
        t.games
            .iter()
            .filter(|g| g.round == 3 && g.second.is_none())
            .count(),
        1
    );
}

#[test]
fn an_arena_pairs_whoever_waits_until_its_time_is_up() {
    let mut t = with(TournamentFormat::Arena { minutes: 1 }, 5);
    assert_eq!(t.start(0).unwrap().len(), 2, "four play, one waits");
    play_round(&mut t);
    assert!(!t.advance(30_000).is_empty(), "paired again at once");
    play_round(&mut t);
    assert!(t.advance(60_000).is_empty(), "no new games after the end");
    assert_eq!(t.status, TournamentStatus::Finished);
    assert!(t.standings()[0].score >= 4);
}

#[test]
fn an_event_starts_at_its_time_or_ends_unplayed() {
    let mut t = with(TournamentFormat::Swiss { rounds: 3 }, 4);
    t.spec.starts_at = Some(1_000);
    assert!(!t.start_if_due(999), "not before its time");
    assert_eq!(t.status, TournamentStatus::Open);
    assert!(t.start_if_due(1_000));
    assert_eq!(
        (t.status, t.round, t.started_at),
        (TournamentStatus::Running, 1, Some(1_000))
    );
    assert!(!t.start_if_due(2_000), "once");

    let mut lonely = with(TournamentFormat::Swiss { rounds: 3 }, 1);
    lonely.spec.starts_at = Some(1_000);
    assert!(lonely.start_if_due(1_000));
    assert_eq!(
        (lonely.status, lonely.round),
        (TournamentStatus::Finished, 0)
    );

    let mut manual = with(TournamentFormat::Swiss { rounds: 3 }, 4);
    assert!(
        !manual.start_if_due(i64::MAX),
        "without a time, the host starts it"
    );
}
