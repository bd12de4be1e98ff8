//! [`Tournament`]: one event's whole state, saved as one piece, and its
//! rules: who may enter, how each format pairs the next round, how a
//! result is scored, the standings. No I/O: the actor (`actor.rs`) saves
//! it, tells it and makes the rooms.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use tabula_shared::gomoku::{Gomoku, GomokuAction, Opening, Phase, Point};
use tabula_shared::protocol::{
    Entrant, ErrorCode, GameOptions, PlayerInfo, TournamentFormat, TournamentGame, TournamentSpec,
    TournamentStatus, TournamentSummary, TournamentView,
};
use tabula_shared::seat::Seat;
use tabula_shared::tournament::standings::{Played, Standing, standings};
use tabula_shared::tournament::{arena, knockout, round_robin, swiss};

use crate::tournament_desk::GameScore;

/// A refusal with its error code.
pub(crate) type Refusal = (ErrorCode, String);

fn refuse(code: ErrorCode, why: impl Into<String>) -> Refusal {
    (code, why.into())
}

/// One tournament, as saved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Tournament {
    pub id: String,
    pub spec: TournamentSpec,
    pub host: PlayerInfo,
    pub code: Option<String>,
    pub status: TournamentStatus,
    pub round: u32,
    pub entrants: Vec<Entrant>,
    pub games: Vec<TournamentGame>,
    pub seq: u64,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub ends_at: Option<i64>,
    /// The colour the top seed had in round 1 of a Swiss (drawn).
    pub initial: Seat,
}

/// Checks what a host asks for.
pub(crate) fn check_spec(spec: &TournamentSpec) -> Result<(), Refusal> {
    let bad = |why: &str| Err(refuse(ErrorCode::BadRequest, why));
    let name = spec.name.trim();
    if name.is_empty() || name.chars().count() > 48 || name.chars().any(char::is_control) {
        return bad("a tournament's name is 1 to 48 characters");
    }
    // Arenas and Swiss events scale as lichess's do; everyone meets
    // everyone in a round robin, and a knockout's bracket is drawn whole.
    let most = match spec.format {
        TournamentFormat::Arena { .. } | TournamentFormat::Swiss { .. } => 10_000,
        TournamentFormat::RoundRobin { .. } | TournamentFormat::Knockout => 256,
    };
    if !(2..=most).contains(&spec.max_entrants) {
        return bad(&format!("max_entrants: 2 to {most} for this format"));
    }
    if !(10..=600).contains(&spec.forfeit_secs) {
        return bad("forfeit_secs: 10 to 600");
    }
    let tc = spec.time_control;
    if tc.initial_secs == 0 || tc.initial_secs > 24 * 3600 || tc.increment_secs > 3600 {
        return bad("time control: 1 s to 24 h, increment up to 1 h");
    }
    match spec.format {
        TournamentFormat::Swiss { rounds } if !(1..=20).contains(&rounds) => {
            bad("a Swiss has 1 to 20 rounds")
        }
        TournamentFormat::Arena { minutes } if !(1..=600).contains(&minutes) => {
            bad("an arena lasts 1 to 600 minutes")
        }
        _ => check_openings(spec),
    }
}

/// The openings: only for a Gomoku round robin without Swap2, at most 20 of
/// at most 20 stones, each a position the rules accept and not yet won.
fn check_openings(spec: &TournamentSpec) -> Result<(), Refusal> {
    if spec.openings.is_empty() {
        return Ok(());
    }
    let bad = |why: String| Err(refuse(ErrorCode::BadRequest, why));
    let (TournamentFormat::RoundRobin { .. }, GameOptions::Gomoku(config)) =
        (spec.format, &spec.game)
    else {
        return bad("openings are for a Gomoku round robin".into());
    };
    if config.opening != Opening::None {
        return bad("openings replace Swap2: set the opening to none".into());
    }
    if spec.openings.len() > 20 {
        return bad("at most 20 openings".into());
    }
    for (i, stones) in spec.openings.iter().enumerate() {
        if stones.is_empty() || stones.len() > 20 {
            return bad(format!("opening {}: 1 to 20 stones", i + 1));
        }
        match Gomoku::replay(*config, &opening_actions(stones)) {
            Ok(game) if game.phase() != Phase::Over => {}
            Ok(_) => return bad(format!("opening {}: the game is over already", i + 1)),
            Err(e) => return bad(format!("opening {}: {e}", i + 1)),
        }
    }
    Ok(())
}

/// An opening's stones as the game's first actions: black (the first seat)
/// first, then in turn.
pub(crate) fn opening_actions(stones: &[Point]) -> Vec<GomokuAction> {
    stones
        .iter()
        .enumerate()
        .map(|(i, &point)| GomokuAction::Place {
            seat: if i % 2 == 0 {
                Seat::First
            } else {
                Seat::Second
            },
            point,
        })
        .collect()
}

impl Tournament {
    pub(crate) fn new(
        id: String,
        spec: TournamentSpec,
        host: PlayerInfo,
        code: Option<String>,
        now: i64,
        initial: Seat,
    ) -> Tournament {
        Tournament {
            id,
            spec,
            host,
            code,
            status: TournamentStatus::Open,
            round: 0,
            entrants: Vec::new(),
            games: Vec::new(),
            seq: 0,
            created_at: now,
            started_at: None,
            ends_at: None,
            initial,
        }
    }

    /// Enters a player, an AI level or an engine.
    pub(crate) fn enter(&mut self, player: PlayerInfo, rating: i32) -> Result<(), Refusal> {
        if self.status != TournamentStatus::Open {
            return Err(refuse(
                ErrorCode::TournamentStarted,
                "the tournament has started",
            ));
        }
        if self.entrants.iter().any(|e| e.player.id == player.id) {
            return Err(refuse(
                ErrorCode::BadRequest,
                format!("{} is already entered", player.name),
            ));
        }
        if self.entrants.len() as u32 >= self.spec.max_entrants {
            return Err(refuse(
                ErrorCode::TournamentFull,
                format!("the tournament takes {} entrants", self.spec.max_entrants),
            ));
        }
        self.entrants.push(Entrant {
            no: self.entrants.len() as u32 + 1,
            player,
            rating,
            withdrawn: false,
            absences: 0,
        });
        Ok(())
    }

    /// Takes an entrant out: before the start, off the list; after it,
    /// never paired again.
    pub(crate) fn withdraw(&mut self, player_id: &str) -> Result<(), Refusal> {
        let Some(at) = self.entrants.iter().position(|e| e.player.id == player_id) else {
            return Err(refuse(
                ErrorCode::NotFound,
                "not entered in this tournament",
            ));
        };
        match self.status {
            TournamentStatus::Open => {
                self.entrants.remove(at);
                for (i, e) in self.entrants.iter_mut().enumerate() {
                    e.no = i as u32 + 1;
                }
            }
            TournamentStatus::Finished => {
                return Err(refuse(
                    ErrorCode::TournamentStarted,
                    "the tournament is over",
                ));
            }
            _ => self.entrants[at].withdrawn = true,
        }
        Ok(())
    }

    /// Starts: pairing numbers by rating, then the first round. Returns the
    /// new games (to make rooms for).
    /// At its `starts_at`, an open tournament starts by itself (or ends
    /// unplayed with fewer than two entrants). True when it changed.
    pub(crate) fn start_if_due(&mut self, now: i64) -> bool {
        if self.status != TournamentStatus::Open || self.spec.starts_at.is_none_or(|t| now < t) {
            return false;
        }
        if self.entrants.len() < 2 {
            self.status = TournamentStatus::Finished;
            return true;
        }
        self.start(now).is_ok()
    }

    pub(crate) fn start(&mut self, now: i64) -> Result<Vec<usize>, Refusal> {
        if self.status != TournamentStatus::Open {
            return Err(refuse(
                ErrorCode::TournamentStarted,
                "the tournament has started",
            ));
        }
        if self.entrants.len() < 2 {
            return Err(refuse(
                ErrorCode::BadRequest,
                "a tournament needs two entrants",
            ));
        }
        // Stable: equal ratings keep the order of entry.
        self.entrants.sort_by_key(|e| std::cmp::Reverse(e.rating));
        for (i, e) in self.entrants.iter_mut().enumerate() {
            e.no = i as u32 + 1;
        }
        self.status = TournamentStatus::Running;
        self.started_at = Some(now);
        if let TournamentFormat::Arena { minutes } = self.spec.format {
            self.ends_at = Some(now + i64::from(minutes) * 60_000);
            self.round = 1;
        }
        Ok(self.advance(now))
    }

    /// The entrant with pairing number `no`.
    pub(crate) fn entrant(&self, no: u32) -> &Entrant {
        &self.entrants[no as usize - 1]
    }

    fn active(&self, no: u32) -> bool {
        !self.entrant(no).withdrawn
    }

    /// Scores a paired game's end. False when the game is not this
    /// tournament's, or already scored (a room reports again after a restart).
    pub(crate) fn record(&mut self, room_id: &str, score: GameScore) -> bool {
        let Some(g) = self
            .games
            .iter_mut()
            .find(|g| g.room_id.as_deref() == Some(room_id) && g.first_score.is_none())
        else {
            return false;
        };
        g.first_score = Some(score.points[0]);
        g.second_score = Some(score.points[1]);
        g.forfeit = score.absent.iter().any(|&a| a);
        g.game_id = score.game_id;
        let nos = [Some(g.first), g.second];
        for (no, absent) in nos.into_iter().zip(score.absent) {
            if let (Some(no), true) = (no, absent) {
                let e = &mut self.entrants[no as usize - 1];
                e.absences += 1;
                // A second absence withdraws.
                if e.absences >= 2 {
                    e.withdrawn = true;
                }
            }
        }
        true
    }

    /// Games with no result yet.
    pub(crate) fn games_in_play(&self) -> usize {
        self.games
            .iter()
            .filter(|g| g.first_score.is_none())
            .count()
    }

    /// What follows now: the next round when this one is over (an arena:
    /// a game for everyone waiting), or the end. Returns the new games.
    pub(crate) fn advance(&mut self, now: i64) -> Vec<usize> {
        if self.status != TournamentStatus::Running {
            return Vec::new();
        }
        let before = self.games.len();
        match self.spec.format {
            TournamentFormat::Arena { .. } => {
                if self.ends_at.is_some_and(|t| now >= t) {
                    if self.games_in_play() == 0 {
                        self.status = TournamentStatus::Finished;
                    }
                } else {
                    self.pair_arena();
                }
            }
            _ if self.games_in_play() > 0 => {}
            TournamentFormat::Swiss { rounds } if self.round < rounds => self.pair_swiss(),
            TournamentFormat::RoundRobin { double }
                if self.round < round_robin::rounds(self.entrants.len() as u32, double) =>
            {
                self.pair_round_robin()
            }
            TournamentFormat::Knockout if self.knockout_alive().len() > 1 => self.pair_knockout(),
            _ => self.status = TournamentStatus::Finished,
        }
        (before..self.games.len())
            .filter(|&i| self.games[i].second.is_some() && self.games[i].first_score.is_none())
            .collect()
    }

    /// Ends the tournament now (the host): no new pairings; games in play
    /// still count when they end.
    pub(crate) fn end(&mut self) {
        self.status = TournamentStatus::Finished;
    }

    fn push_game(&mut self, first: u32, second: Option<u32>) {
        self.push_game_from(first, second, None);
    }

    /// A game that starts from the spec's opening number `opening`.
    fn push_game_from(&mut self, first: u32, second: Option<u32>, opening: Option<u32>) {
        let mut g = TournamentGame {
            round: self.round,
            first,
            second,
            room_id: None,
            first_score: None,
            second_score: None,
            forfeit: false,
            game_id: None,
            opening,
        };
        match second {
            None => {
                let rest = matches!(self.spec.format, TournamentFormat::RoundRobin { .. });
                g.first_score = Some(if rest { 0 } else { 2 });
            }
            Some(s) if !self.active(first) || !self.active(s) => {
                // A withdrawn entrant's game is scored for the other.
                g.first_score = Some(if self.active(first) { 2 } else { 0 });
                g.second_score = Some(if self.active(s) { 2 } else { 0 });
                g.forfeit = true;
            }
            Some(_) => {}
        }
        self.games.push(g);
    }

    fn pair_swiss(&mut self) {
        self.round += 1;
        let total = match self.spec.format {
            TournamentFormat::Swiss { rounds } => rounds,
            _ => self.round,
        };
        let players = self.swiss_players();
        let rules = swiss::SwissRules {
            round: self.round,
            total_rounds: total,
            initial: self.initial,
        };
        match swiss::pair_round(&players, rules) {
            Ok(round) => {
                for (a, b) in round.games {
                    self.push_game(a, Some(b));
                }
                if let Some(b) = round.bye {
                    self.push_game(b, None);
                }
            }
            Err(e) => {
                tracing::warn!(tournament = %self.id, round = self.round, error = %e,
                    "no Swiss pairing: the tournament ends");
                self.round -= 1;
                self.status = TournamentStatus::Finished;
            }
        }
    }

    /// The active entrants as the Swiss pairing sees them.
    fn swiss_players(&self) -> Vec<swiss::SwissPlayer> {
        let n = self.entrants.len();
        let mut players: Vec<swiss::SwissPlayer> = self
            .entrants
            .iter()
            .map(|e| swiss::SwissPlayer::entering(e.no, e.no))
            .collect();
        for r in 1..=self.round.saturating_sub(1) {
            let before: Vec<u32> = players.iter().map(|p| p.score).collect();
            let mut floated = vec![false; n];
            for g in self.games.iter().filter(|g| g.round == r) {
                let a = g.first as usize - 1;
                let (sa, sb) = (g.first_score.unwrap_or(0), g.second_score.unwrap_or(0));
                players[a].score += sa;
                let Some(second) = g.second else {
                    players[a].byes += 1;
                    players[a].floats.push(swiss::Float::Down);
                    floated[a] = true;
                    continue;
                };
                let b = second as usize - 1;
                players[b].score += sb;
                players[a].opponents.push(second);
                players[b].opponents.push(g.first);
                if !g.forfeit {
                    players[a].colours.push(Seat::First);
                    players[b].colours.push(Seat::Second);
                }
                let (fa, fb) = match before[a].cmp(&before[b]) {
                    std::cmp::Ordering::Greater => (swiss::Float::Down, swiss::Float::Up),
                    std::cmp::Ordering::Less => (swiss::Float::Up, swiss::Float::Down),
                    std::cmp::Ordering::Equal => (swiss::Float::None, swiss::Float::None),
                };
                players[a].floats.push(fa);
                players[b].floats.push(fb);
                floated[a] = true;
                floated[b] = true;
            }
            for (p, f) in players.iter_mut().zip(floated) {
                if !f {
                    p.floats.push(swiss::Float::None);
                }
            }
        }
        players.retain(|p| self.active(p.id));
        players
    }

    fn pair_round_robin(&mut self) {
        self.round += 1;
        let round = round_robin::berger_round(self.entrants.len() as u32, self.round);
        let openings = self.spec.openings.len() as u32;
        for (a, b) in round.games {
            if openings == 0 {
                self.push_game(a, Some(b));
            }
            // Each opening with both colours, as the Gomocup plays them.
            for k in 0..openings {
                self.push_game_from(a, Some(b), Some(k));
                self.push_game_from(b, Some(a), Some(k));
            }
        }
        if let Some(b) = round.bye {
            self.push_game(b, None);
        }
    }

    /// The knockout's entrants still in, in bracket order.
    fn knockout_alive(&self) -> Vec<u32> {
        if self.round == 0 {
            return (1..=self.entrants.len() as u32).collect();
        }
        self.games
            .iter()
            .filter(|g| g.round == self.round)
            .map(|g| match (g.second, g.first_score, g.second_score) {
                (None, _, _) => g.first,
                // A draw sends the higher seed (the lower number) through.
                (Some(s), Some(a), Some(b)) if a == b => g.first.min(s),
                (Some(s), Some(a), Some(b)) => {
                    if a > b {
                        g.first
                    } else {
                        s
                    }
                }
                (Some(_), _, _) => g.first,
            })
            .collect()
    }

    fn pair_knockout(&mut self) {
        let alive = self.knockout_alive();
        let first_round = self.round == 0;
        self.round += 1;
        if first_round {
            for (a, b) in knockout::first_round(self.entrants.len() as u32) {
                match (a, b) {
                    (Some(a), Some(b)) => self.push_game(a, Some(b)),
                    (Some(a), None) | (None, Some(a)) => self.push_game(a, None),
                    (None, None) => {}
                }
            }
            return;
        }
        for pair in alive.chunks(2) {
            match *pair {
                [a, b] => self.push_game(a.min(b), Some(a.max(b))),
                [a] => self.push_game(a, None),
                _ => {}
            }
        }
    }

    fn pair_arena(&mut self) {
        let busy: std::collections::HashSet<u32> = self
            .games
            .iter()
            .filter(|g| g.first_score.is_none())
            .flat_map(|g| [Some(g.first), g.second])
            .flatten()
            .collect();
        let finished = self.finished_by_entrant();
        let none = Vec::new();
        let games_of = |no: u32| finished.get(&no).unwrap_or(&none);
        let waiting: Vec<arena::Waiting> = self
            .entrants
            .iter()
            .filter(|e| !e.withdrawn && !busy.contains(&e.no))
            .map(|e| arena::Waiting {
                id: e.no,
                points: arena::points(&arena_games(games_of(e.no))),
                rating: e.rating,
                last_opponent: games_of(e.no).last().map(|&(_, _, opponent)| opponent),
            })
            .collect();
        let pairs: Vec<(u32, u32)> = arena::pair(&waiting)
            .into_iter()
            .map(|(a, b)| {
                // The one who had the second seat last time starts first.
                let last_seat = games_of(a).last().map(|&(_, seat, _)| seat);
                if last_seat == Some(Seat::First) {
                    (b, a)
                } else {
                    (a, b)
                }
            })
            .collect();
        for (a, b) in pairs {
            self.push_game(a, Some(b));
        }
    }

    /// Each entrant's finished games, oldest first: (their half points,
    /// their seat, the opponent), in one pass over the games (an arena of
    /// thousands pairs after every result).
    fn finished_by_entrant(&self) -> HashMap<u32, Vec<(u32, Seat, u32)>> {
        let mut by: HashMap<u32, Vec<(u32, Seat, u32)>> = HashMap::new();
        for g in &self.games {
            let (Some(first_score), Some(second)) = (g.first_score, g.second) else {
                continue;
            };
            let second_score = g.second_score.unwrap_or(0);
            by.entry(g.first)
                .or_default()
                .push((first_score, Seat::First, second));
            by.entry(second)
                .or_default()
                .push((second_score, Seat::Second, g.first));
        }
        by
    }

    /// The standings, best first.
    pub(crate) fn standings(&self) -> Vec<Standing> {
        if let TournamentFormat::Arena { .. } = self.spec.format {
            let finished = self.finished_by_entrant();
            let mut rows: Vec<(Standing, u32)> = self
                .entrants
                .iter()
                .map(|e| {
                    let games = finished
                        .get(&e.no)
                        .map_or_else(Vec::new, |g| arena_games(g));
                    let row = Standing {
                        id: e.no,
                        score: arena::points(&games),
                        buchholz: 0,
                        sonneborn_berger: 0,
                        games: games.len() as u32,
                    };
                    (row, e.no)
                })
                .collect();
            rows.sort_by_key(|(s, no)| (std::cmp::Reverse(s.score), *no));
            return rows.into_iter().map(|(s, _)| s).collect();
        }
        let entrants: Vec<(u32, u32)> = self.entrants.iter().map(|e| (e.no, e.no)).collect();
        let mut played = Vec::new();
        let mut byes = Vec::new();
        for g in &self.games {
            let (Some(a), b) = (g.first_score, g.second_score) else {
                continue;
            };
            match g.second {
                // A round robin's bye is a rest: everyone has the same number.
                None if matches!(self.spec.format, TournamentFormat::RoundRobin { .. }) => {}
                None => byes.push(g.first),
                Some(second) => played.push(Played {
                    first: g.first,
                    second,
                    first_score: a,
                    second_score: b.unwrap_or(2 - a.min(2)),
                }),
            }
        }
        standings(&entrants, &played, &byes)
    }

    /// The tournament as its page shows it.
    pub(crate) fn view(&self) -> TournamentView {
        TournamentView {
            id: self.id.clone(),
            spec: self.spec.clone(),
            host: self.host.clone(),
            status: self.status,
            round: self.round,
            entrants: self.entrants.clone(),
            games: self.games.clone(),
            standings: self.standings(),
            seq: self.seq,
            started_at: self.started_at,
            ends_at: self.ends_at,
        }
    }

    /// Its line in the list.
    pub(crate) fn summary(&self) -> TournamentSummary {
        TournamentSummary {
            id: self.id.clone(),
            name: self.spec.name.clone(),
            format: self.spec.format,
            game: self.spec.game.clone(),
            time_control: self.spec.time_control,
            status: self.status,
            entrants: self.entrants.len() as u32,
            max_entrants: self.spec.max_entrants,
            round: self.round,
            host: self.host.name.clone(),
        }
    }
}

/// An entrant's finished games (from [`Tournament::finished_by_entrant`])
/// as the arena scores them.
fn arena_games(games: &[(u32, Seat, u32)]) -> Vec<arena::ArenaGame> {
    games
        .iter()
        .map(|&(result, _, _)| arena::ArenaGame {
            result,
            berserk: false,
        })
        .collect()
}

#[cfg(test)]
#[path = "event_tests.rs"]
mod tests;
