//! The room panel beside the board: the players and their clocks, whose
//! turn it is, the game's controls (Swap2, dice, cube, the play being built),
//! resign and the offers, and the chat.

use rust_i18n::t;
use web_time::Instant;

use egui::{Color32, Key, RichText, Ui};
use tabula_shared::backgammon::{BgMatch, GamePhase, ResignKind, Side};
use tabula_shared::game::LiveGame;
use tabula_shared::gomoku::{Gomoku, Phase, Stone, Swap2Choice};
use tabula_shared::protocol::{GameRecord, RoomStatus, RoomSummary};
use tabula_shared::seat::Seat;

use super::labels::{WARN, dot, game_name, rules_text};
use super::result_dialog::{reason_text, winner_text};
use super::room_screen::RoomScreen;
use super::{Command, Danger};
use crate::bg_view;
use crate::dice_check::DiceCheck;
use crate::room::{
    Room, display_name, offer_made_text, own_offer_text, seat_index, side_name, side_of,
};
use crate::settings::Settings;

impl RoomScreen {
    /// Draws the panel.
    pub(super) fn panel(
        &mut self,
        ui: &mut Ui,
        settings: &mut Settings,
        invite_link: Option<&str>,
    ) -> Vec<Command> {
        let mut out = Vec::new();
        let lines = self.move_lines().to_vec();
        let looking = self.look_back.as_ref().map(|l| l.0);
        let Some(room) = &self.room else { return out };
        if room.summary.is_none() {
            ui.spinner();
            ui.label(t!("room.joining"));
            return out;
        }
        crate::probe::mark("room-panel", ui.max_rect());
        // (The panel itself is narrow either way: the window's width says
        // whether it is beside the board or below it.)
        if ui.ctx().content_rect().width() < super::layout::NARROW {
            // Below the board, on a phone: whose turn it is and the turn's
            // controls (roll, Undo, Confirm) keep the top of the panel, and
            // the rest scrolls beneath them.
            out.extend(self.turn_section(ui, settings));
            ui.separator();
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    out.extend(self.panel_body(ui, settings, invite_link, &lines, looking, false));
                    ui.separator();
                    if let Some(room) = &self.room {
                        out.extend(chat(ui, room, &mut self.chat_input, NARROW_CHAT_HEIGHT));
                    }
                });
            return out;
        }
        // Beside the board: the chat keeps the bottom of the panel, and the
        // rest scrolls above it when the window is too short for it all
        // (a Backgammon room at 800×600).
        let chat_height = (ui.available_height() * 0.3).clamp(140.0, 280.0);
        egui::Panel::bottom("room-chat")
            .resizable(false)
            .exact_size(chat_height)
            .show(ui, |ui| {
                if let Some(room) = &self.room {
                    let height = (ui.available_height() - 48.0).max(60.0);
                    out.extend(chat(ui, room, &mut self.chat_input, height));
                }
            });
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                out.extend(self.panel_body(ui, settings, invite_link, &lines, looking, true));
            });
        out
    }

    /// The panel above the chat: the game, the seats, the turn and its
    /// controls (unless `with_turn` is false: they are drawn above), the
    /// offers and the move list.
    fn panel_body(
        &mut self,
        ui: &mut Ui,
        settings: &mut Settings,
        invite_link: Option<&str>,
        lines: &[String],
        looking: Option<usize>,
        with_turn: bool,
    ) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(room) = &self.room else { return out };
        let Some(summary) = &room.summary else {
            return out;
        };
        ui.heading(game_name(summary.options.game.kind()));
        ui.label(rules_text(&summary.options.game));
        if let Some(code) = &room.code {
            ui.label(RichText::new(t!("room.private_code", code = code)).strong());
        }
        if let Some(link) = invite_link {
            invite_row(ui, link);
        }
        ui.separator();
        seats(ui, room, summary);
        ui.label(t!("room.watching_count", n = summary.spectators));
        ui.separator();
        if with_turn {
            out.extend(self.turn_section(ui, settings));
        }
        let Some(room) = &self.room else { return out };
        match room.live() {
            Some(LiveGame::Gomoku(_)) => {
                ui.checkbox(&mut settings.show_numbers, t!("room.move_numbers"));
            }
            Some(LiveGame::Backgammon(game)) => self.match_info(ui, room, game),
            None => {}
        }
        out.extend(self.hint_panel(ui));
        ui.separator();
        if room.is_player() {
            out.extend(player_buttons(ui, room, summary));
            out.extend(offers(ui, room));
        } else {
            ui.horizontal(|ui| {
                ui.label(t!("room.spectating"));
                let flip = ui.button(t!("room.flip"));
                crate::probe::mark("flip-board", flip.rect);
                if flip.clicked() {
                    out.push(Command::Flip);
                }
            });
        }
        ui.separator();
        out.extend(super::move_list::move_list(ui, lines, looking));
        out
    }

    /// Whose turn it is and what may be done now: Swap2's choice, or the
    /// dice, the cube and the play being built.
    fn turn_section(&self, ui: &mut Ui, settings: &Settings) -> Vec<Command> {
        let mut out = Vec::new();
        let Some(room) = &self.room else { return out };
        ui.label(RichText::new(status_text(room)).strong());
        match room.live() {
            Some(LiveGame::Gomoku(game)) => out.extend(swap2_choice(ui, room, game)),
            Some(LiveGame::Backgammon(game)) => {
                out.extend(self.bg_controls(ui, room, game, settings.die_clicks));
            }
            None => {}
        }
        out
    }

    /// The score, the pips, the cube and the last move.
    fn match_info(&self, ui: &mut Ui, room: &Room, game: &BgMatch) {
        let score = game.score();
        let length = game.config().length;
        ui.label(if length == 0 {
            t!("room.money_score", white = score[0], black = score[1])
        } else {
            t!(
                "room.match_score",
                length = length,
                white = score[0],
                black = score[1],
                crawford = if game.is_crawford_game() {
                    t!("room.crawford")
                } else {
                    "".into()
                }
            )
        });
        if let Some(text) = crate::room::game_end_text(game) {
            ui.label(RichText::new(t!("room.last_game", text = text)).italics());
        }
        let (w, b) = game.position_for(Side::White).pip_count();
        ui.label(t!("room.pips", white = w, black = b));
        let cube = game.cube();
        ui.label(match cube.owner {
            None => t!("room.cube_centred", value = cube.value),
            Some(s) => t!("room.cube_owned", value = cube.value, side = side_name(s)),
        });
        if let Some(GameRecord::Backgammon { actions, .. }) = room.record()
            && let Some(last) = crate::replay::last_play(actions)
        {
            ui.label(t!("room.last_move", last = last));
        }
        if let Some(proof) = room.record().and_then(GameRecord::dice)
            && !proof.is_revealed()
        {
            // Before the reveal the dice can only be shown committed; the
            // check itself comes in the game-over dialog.
            let seeds = proof.player_seeds.iter().filter(|s| !s.is_empty()).count();
            let check = DiceCheck::Committed {
                commitment: proof.commitment.clone(),
                test_seed: proof.test_seed,
            };
            ui.label(check.text()).on_hover_text(t!(
                "dice.committed_hint",
                hash = proof.commitment,
                seeds = seeds
            ));
            if let Some(note) = check.note() {
                ui.label(RichText::new(note).italics().color(WARN));
            }
        }
    }

    /// Roll, double, take or drop, and the play being built.
    fn bg_controls(
        &self,
        ui: &mut Ui,
        room: &Room,
        game: &BgMatch,
        die_clicks: bool,
    ) -> Vec<Command> {
        let mut out = Vec::new();
        let me = match (room.is_player(), room.seat.map(side_of)) {
            (true, Some(me)) if room.result.is_none() => me,
            _ => return out,
        };
        let anim = !self.anims.is_empty();
        ui.horizontal(|ui| match *game.phase() {
            GamePhase::AwaitingRoll { side } if side == me && !anim => {
                let roll = ui.button(t!("room.roll"));
                crate::probe::mark("roll", roll.rect);
                if roll.clicked() {
                    out.push(Command::Roll);
                }
                if game.can_double(me) && ui.button(t!("room.double")).clicked() {
                    out.push(Command::Double);
                }
            }
            GamePhase::CubeOffered { by } if by != me => {
                ui.label(t!("room.doubles", side = side_name(by)));
                if ui.button(t!("room.take")).clicked() {
                    out.push(Command::TakeCube);
                }
                if ui.button(t!("room.drop")).clicked() {
                    out.push(Command::DropCube);
                }
            }
            _ => {}
        });
        let Some(turn) = &self.bg else { return out };
        let play = turn.builder.play();
        ui.label(t!(
            "room.your_move",
            play = if play.moves.is_empty() && die_clicks {
                t!("room.click_a_checker_dice").to_string()
            } else if play.moves.is_empty() {
                t!("room.click_a_checker").to_string()
            } else {
                play.to_string()
            }
        ));
        ui.horizontal(|ui| {
            crate::probe::note("bg-hops", turn.builder.hops().len() as f32);
            let undo = !turn.builder.hops().is_empty() && !turn.sent;
            let undo = ui.add_enabled(undo, egui::Button::new(t!("room.undo")));
            crate::probe::mark("undo", undo.rect);
            if undo.clicked() {
                out.push(Command::UndoHop);
            }
            let confirm = turn.builder.is_complete() && !turn.sent;
            let confirm = ui.add_enabled(confirm, egui::Button::new(t!("room.confirm")));
            if confirm.enabled() {
                crate::probe::mark("confirm", confirm.rect);
            }
            if confirm.clicked() {
                out.push(Command::ConfirmPlay);
            }
        });
        out
    }
}

/// One line per seat: colour, name, connection and clock.
fn seats(ui: &mut Ui, room: &Room, summary: &RoomSummary) {
    let clock = room.clock_now();
    for info in &summary.seats {
        ui.horizontal(|ui| {
            let colour = seat_colour(room, info.seat);
            dot(ui, colour.0, 16.0).on_hover_text(&colour.1);
            let name = info
                .player
                .as_ref()
                .map_or_else(|| t!("room.empty_seat").to_string(), display_name);
            let you = if room.seat == Some(info.seat) && room.is_player() {
                t!("room.you")
            } else {
                "".into()
            };
            let turn = room.to_act_seat() == Some(info.seat);
            let text = RichText::new(format!("{name}{you}"));
            ui.label(if turn {
                text.strong().underline()
            } else {
                text
            });
            if info.player.is_some() && !info.connected {
                let left = room.grace_until[seat_index(info.seat)]
                    .map(|t| t.saturating_duration_since(Instant::now()).as_secs());
                ui.label(
                    RichText::new(match left {
                        Some(s) => t!("room.disconnected_for", secs = s),
                        None => t!("room.disconnected"),
                    })
                    .color(WARN),
                );
            }
            if let Some((ms, running)) = clock {
                let ms = ms[seat_index(info.seat)];
                let text = format!("{}:{:02}", ms / 60_000, (ms / 1000) % 60);
                let rt = RichText::new(text).monospace().size(16.0);
                ui.label(if running == Some(info.seat) {
                    rt.strong().color(running_clock_colour(ui))
                } else {
                    rt
                });
            }
        });
    }
}

/// The running clock's colour: yellow on a dark panel, a dark amber on a
/// light one (yellow on near-white could hardly be read).
fn running_clock_colour(ui: &Ui) -> Color32 {
    if ui.visuals().dark_mode {
        Color32::YELLOW
    } else {
        Color32::from_rgb(150, 75, 0)
    }
}

/// The Swap2 choice, when it is ours to make.
fn swap2_choice(ui: &mut Ui, room: &Room, game: &Gomoku) -> Vec<Command> {
    let mut out = Vec::new();
    if !room.is_player() || game.to_act() != room.seat || room.result.is_some() {
        return out;
    }
    let choices: &[(Swap2Choice, &str)] = match game.phase() {
        Phase::Swap2Choose => &[
            (Swap2Choice::PlayBlack, "swap2.play_black"),
            (Swap2Choice::PlayWhite, "swap2.play_white"),
            (Swap2Choice::PlaceTwo, "swap2.place_two"),
        ],
        Phase::Swap2FinalChoose => &[
            (Swap2Choice::PlayBlack, "swap2.play_black"),
            (Swap2Choice::PlayWhite, "swap2.play_white"),
        ],
        _ => &[],
    };
    if !choices.is_empty() {
        ui.label(t!("swap2.choose"));
        ui.horizontal(|ui| {
            for (choice, label) in choices {
                if ui.button(t!(*label)).clicked() {
                    out.push(Command::ChooseSwap2(*choice));
                }
            }
        });
    }
    out
}

/// Resign, draw, takeback, rematch, claim and mute: what a player may ask.
fn player_buttons(ui: &mut Ui, room: &Room, summary: &RoomSummary) -> Vec<Command> {
    // A stable id: the widgets above (the last move, the Roll button) come
    // and go with every event, and ids counted from them would change and
    // close an open menu (Resign) whenever the game moved on.
    let stable = egui::UiBuilder::new().scope_id(ui.scope_id().with("player_buttons"));
    let mut out = ui
        .scope_builder(stable, |ui| request_buttons(ui, room, summary))
        .inner;
    let mut muted = room.spectators_muted;
    if ui.checkbox(&mut muted, t!("room.mute")).changed() {
        out.push(Command::MuteSpectators(muted));
    }
    out
}

/// The height of the chat's messages in the panel below the board.
const NARROW_CHAT_HEIGHT: f32 = 160.0;

/// The row of what a player may ask: resign, draw, takeback, rematch, claim.
fn request_buttons(ui: &mut Ui, room: &Room, summary: &RoomSummary) -> Vec<Command> {
    let mut out = Vec::new();
    let over = room.result.is_some();
    let playing = summary.status == RoomStatus::Playing && !over;
    ui.horizontal_wrapped(|ui| {
        if playing && matches!(room.live(), Some(LiveGame::Backgammon(_))) {
            // Backgammon: concede a single game, a gammon or a backgammon.
            ui.menu_button(t!("room.resign"), |ui| {
                for (label, kind) in [
                    (t!("room.resign_single"), ResignKind::Single),
                    (t!("room.resign_gammon"), ResignKind::Gammon),
                    (t!("room.resign_backgammon"), ResignKind::Backgammon),
                ] {
                    if ui.button(label).clicked() {
                        out.push(Command::Ask(Some(Danger::Resign(Some(kind)))));
                    }
                }
            });
        } else if playing
            // Only once the game's state is known: before it, a Backgammon
            // room would show a plain Resign instead of its menu.
            && matches!(room.live(), Some(LiveGame::Gomoku(_)))
            && ui.button(t!("room.resign")).clicked()
        {
            out.push(Command::Ask(Some(Danger::Resign(None))));
        }
        if playing
            && matches!(room.live(), Some(LiveGame::Gomoku(_)))
            && ui.button(t!("room.offer_draw")).clicked()
        {
            out.push(Command::OfferDraw);
        }
        if playing && summary.options.takebacks && ui.button(t!("room.takeback")).clicked() {
            out.push(Command::RequestTakeback);
        }
        if over && ui.button(t!("result.rematch")).clicked() {
            out.push(Command::Rematch);
        }
        let opponent_gone = room.seat.is_some_and(|s| {
            room.grace_until[seat_index(s.other())].is_some_and(|t| t <= Instant::now())
        });
        if playing && opponent_gone && ui.button(t!("room.claim_win")).clicked() {
            out.push(Command::ClaimWin);
        }
    });
    out
}

/// The opponent's offer to answer, and our own offer still open.
fn offers(ui: &mut Ui, room: &Room) -> Vec<Command> {
    let mut out = Vec::new();
    if let Some(offer) = room.offer_to_answer() {
        ui.group(|ui| {
            ui.label(format!(
                "{}.",
                offer_made_text(&offer, &room.player_name(offer.by))
            ));
            ui.horizontal(|ui| {
                if ui.button(t!("room.accept")).clicked() {
                    out.push(Command::AnswerOffer {
                        kind: offer.kind,
                        accept: true,
                    });
                }
                if ui.button(t!("room.decline")).clicked() {
                    out.push(Command::AnswerOffer {
                        kind: offer.kind,
                        accept: false,
                    });
                }
            });
        });
    }
    if let Some(mine) = room.offers.iter().find(|o| Some(o.by) == room.seat) {
        ui.label(own_offer_text(mine));
    }
    out
}

/// The chat lines and the line being typed.
fn chat(ui: &mut Ui, room: &Room, input: &mut String, height: f32) -> Vec<Command> {
    let mut out = Vec::new();
    ui.label(RichText::new(t!("room.chat")).strong());
    // The messages keep one height from the first line on, so the line
    // being typed stays where it is as messages come.
    egui::ScrollArea::vertical()
        .min_scrolled_height(height)
        .max_height(height)
        .auto_shrink([false, false])
        .stick_to_bottom(true)
        .show(ui, |ui| {
            for line in &room.chat {
                let who = if line.spectator {
                    t!("room.chat_spectator", name = line.from).into()
                } else {
                    line.from.clone()
                };
                ui.label(format!("{who}: {}", line.text));
            }
        });
    ui.horizontal(|ui| {
        let edit = ui.add(
            egui::TextEdit::singleline(input)
                .hint_text(t!("room.say"))
                .desired_width(190.0),
        );
        if (edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)))
            || ui.button(t!("room.send")).clicked()
        {
            out.push(Command::SendChat);
        }
    });
    out
}

/// A seat's colour in the game, and its name for the tooltip.
fn seat_colour(room: &Room, seat: Seat) -> (Color32, String) {
    let (colour, name) = match room.live() {
        Some(LiveGame::Gomoku(g)) => match g.stone_of(seat) {
            Some(Stone::Black) => (Color32::BLACK, t!("turn.black")),
            Some(Stone::White) => (Color32::WHITE, t!("turn.white")),
            None => (Color32::GRAY, t!("room.colour_not_chosen")),
        },
        Some(LiveGame::Backgammon(_)) => match side_of(seat) {
            Side::White => (bg_view::checker_colour(Side::White), t!("turn.white")),
            Side::Black => (bg_view::checker_colour(Side::Black), t!("turn.black")),
        },
        None => (Color32::GRAY, "".into()),
    };
    (colour, name.into_owned())
}

/// Whose turn it is, in words.
pub(super) fn status_text(room: &Room) -> String {
    if let Some(result) = &room.result {
        // The dialog may be closed: the panel keeps saying who won and how.
        return t!(
            "room.game_over",
            winner = winner_text(room, result),
            reason = reason_text(result, room.live())
        )
        .into();
    }
    if room
        .summary
        .as_ref()
        .is_some_and(|s| s.status == RoomStatus::Waiting)
    {
        return t!("room.waiting").into();
    }
    let Some(seat) = room.to_act_seat() else {
        return match room.live() {
            Some(LiveGame::Backgammon(g)) if *g.phase() == GamePhase::OpeningRoll => {
                t!("room.opening_roll").into()
            }
            _ => String::new(),
        };
    };
    let mine = room.is_player() && room.seat == Some(seat);
    // "Your turn" or "Ada's turn": whose, then what.
    let name = room.player_name(seat);
    let turn = |what: String| -> String {
        if mine {
            t!("turn.yours", what = what).into()
        } else {
            t!("turn.theirs", name = name, what = what).into()
        }
    };
    match room.live() {
        Some(LiveGame::Gomoku(g)) => match g.phase() {
            Phase::Swap2Choose | Phase::Swap2FinalChoose => turn(t!("turn.swap2_choice").into()),
            Phase::Swap2PlaceThree => turn(t!("turn.opening_stones").into()),
            Phase::Swap2PlaceTwo => turn(t!("turn.two_more").into()),
            _ => turn(
                if g.stone_to_play() == Stone::Black {
                    t!("turn.black")
                } else {
                    t!("turn.white")
                }
                .into(),
            ),
        },
        Some(LiveGame::Backgammon(g)) => match g.phase() {
            GamePhase::AwaitingRoll { .. } => turn(t!("turn.roll").into()),
            GamePhase::Moving { dice, .. } => turn(t!("turn.move", a = dice.a, b = dice.b).into()),
            GamePhase::CubeOffered { .. } => turn(t!("turn.cube").into()),
            _ => String::new(),
        },
        None => String::new(),
    }
}

/// The room's invite link, and a button that copies it.
fn invite_row(ui: &mut Ui, link: &str) {
    ui.horizontal_wrapped(|ui| {
        ui.label(t!("room.invite"));
        // A phone's panel is narrower than the link: it ends in "…" there
        // (Copy link copies it whole).
        ui.scope(|ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            ui.set_max_width(ui.available_width().min(260.0));
            ui.hyperlink_to(RichText::new(link).monospace(), link)
                .on_hover_text(t!("room.invite_hint"));
        });
        let copied_id = egui::Id::unique("invite-copied");
        let copied_at: Option<f64> = ui.ctx().data(|d| d.get_temp(copied_id));
        let now = ui.input(|i| i.time);
        let recently = copied_at.is_some_and(|t| now - t < 2.0);
        let label = if recently {
            t!("room.copied")
        } else {
            t!("room.copy_link")
        };
        if ui.button(label).clicked() {
            ui.ctx().copy_text(link.to_string());
            ui.ctx().data_mut(|d| d.insert_temp(copied_id, now));
        }
        if recently {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(500));
        }
    });
}
