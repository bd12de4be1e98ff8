//! The Settings window: theme, language, Backgammon move confirmation,
//! auto-roll, die clicks and forced plays, board styles, sounds, animation
//! speed. It edits [`Settings`] in place; eframe saves
//! them with the rest.

use rust_i18n::t;

use super::Command;
use crate::settings::{BgStyle, GomokuStyle, Language, Settings, Theme};

/// Draws the window; closing it (the cross or Esc) returns a command.
pub(super) fn settings_window(ctx: &egui::Context, settings: &mut Settings) -> Vec<Command> {
    let mut out = Vec::new();
    let mut open = true;
    egui::Window::new(t!("settings.title"))
        .id(egui::Id::unique("settings-window"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::RIGHT_TOP, [-12.0, 48.0])
        .show(ctx, |ui| {
            egui::Grid::new("settings")
                .num_columns(2)
                .spacing([12.0, 8.0])
                .show(ui, |ui| {
                    ui.label(t!("settings.theme"));
                    ui.horizontal(|ui| {
                        for (theme, label) in [
                            (Theme::System, t!("settings.theme_system")),
                            (Theme::Light, t!("settings.theme_light")),
                            (Theme::Dark, t!("settings.theme_dark")),
                        ] {
                            ui.radio_value(&mut settings.theme, theme, label);
                        }
                    });
                    ui.end_row();
                    ui.label(t!("settings.language"));
                    ui.horizontal(|ui| {
                        for (language, label) in [
                            (Language::System, t!("settings.language_system")),
                            // Each language is named in itself.
                            (Language::English, "English".into()),
                            (Language::Chinese, "简体中文".into()),
                        ] {
                            ui.radio_value(&mut settings.language, language, label);
                        }
                    });
                    ui.end_row();
                    ui.label(t!("settings.backgammon"));
                    ui.vertical(|ui| {
                        ui.checkbox(&mut settings.confirm_moves, t!("settings.confirm_moves"))
                            .on_hover_text(t!("settings.confirm_moves_hint"));
                        ui.checkbox(&mut settings.auto_roll, t!("settings.auto_roll"))
                            .on_hover_text(t!("settings.auto_roll_hint"));
                        ui.checkbox(&mut settings.die_clicks, t!("settings.die_clicks"))
                            .on_hover_text(t!("settings.die_clicks_hint"));
                        ui.checkbox(&mut settings.auto_forced, t!("settings.auto_forced"))
                            .on_hover_text(t!("settings.auto_forced_hint"));
                        ui.horizontal(|ui| {
                            ui.label(t!("settings.board"));
                            for (style, label) in [
                                (BgStyle::Classic, t!("settings.bg_classic")),
                                (BgStyle::Ocean, t!("settings.bg_ocean")),
                            ] {
                                ui.radio_value(&mut settings.bg_style, style, label);
                            }
                        });
                    });
                    ui.end_row();
                    ui.label(t!("settings.animation"));
                    ui.add(
                        egui::Slider::new(&mut settings.animation_speed, 0.5..=3.0)
                            .step_by(0.25)
                            .suffix("×"),
                    );
                    ui.end_row();
                    ui.label(t!("settings.gomoku"));
                    ui.vertical(|ui| {
                        ui.checkbox(&mut settings.show_numbers, t!("room.move_numbers"));
                        ui.horizontal(|ui| {
                            ui.label(t!("settings.board"));
                            for (style, label) in [
                                (GomokuStyle::Wood, t!("settings.gomoku_wood")),
                                (GomokuStyle::Plain, t!("settings.gomoku_plain")),
                                (GomokuStyle::Dark, t!("settings.gomoku_dark")),
                            ] {
                                ui.radio_value(&mut settings.gomoku_style, style, label);
                            }
                        });
                    });
                    ui.end_row();
                    ui.label(t!("settings.sound"));
                    ui.checkbox(&mut settings.sound, t!("settings.sound_on"));
                    ui.end_row();
                });
        });
    if !open || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        out.push(Command::ShowSettings(false));
    }
    out
}
