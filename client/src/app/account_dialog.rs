//! [`AccountDialog`]: the account window, where a guest registers the name
//! it plays under.

use egui::RichText;
use rust_i18n::t;
use tabula_shared::protocol::{ClientMessage, ErrorCode};

use super::Command;
use super::labels::{BAD, GOOD};
use super::requests::Requests;
use super::session::Session;

/// What the account window says after a `register`.
#[derive(Debug, Clone, PartialEq)]
pub enum AccountNote {
    /// Sent, waiting for the answer.
    Pending,
    /// Done.
    Done(String),
    /// Refused, with a readable reason.
    Failed(String),
}

/// The account window's state.
#[derive(Default)]
pub(super) struct AccountDialog {
    /// The window is open.
    pub(super) open: bool,
    /// The new password typed.
    pub(super) password: String,
    /// The password typed again.
    pub(super) confirm: String,
    /// The pending `register`, to match its answer.
    request: Option<u64>,
    /// What the window says about the last `register`.
    pub(super) note: Option<AccountNote>,
}

/// A readable reason for a refused `register`.
fn register_error(code: ErrorCode, message: &str) -> String {
    match code {
        ErrorCode::NameTaken => t!("account.name_taken").into(),
        ErrorCode::WeakPassword => t!("account.weak").into(),
        ErrorCode::AlreadyRegistered => t!("account.already").into(),
        _ => t!(
            "account.failed",
            message = crate::error_text::error_text(code, message)
        )
        .into(),
    }
}

impl AccountDialog {
    /// Opens or closes the window; closing forgets the passwords typed.
    pub(super) fn show(&mut self, open: bool) {
        self.open = open;
        if !open {
            self.password.clear();
            self.confirm.clear();
        }
    }

    /// Closes the window and forgets everything about the last identity.
    pub(super) fn reset(&mut self) {
        self.show(false);
        self.note = None;
    }

    /// Sends a `register` with the password typed, if both fields agree
    /// and its length is one the server takes. The fields keep what was
    /// typed until the server has registered the name, so a mistake is
    /// corrected, not typed again.
    pub(super) fn register(&mut self, requests: &mut Requests) {
        if self.password != self.confirm {
            self.note = Some(AccountNote::Failed(t!("account.differ").into()));
            return;
        }
        let length = self.password.chars().count();
        if !(8..=128).contains(&length) {
            self.note = Some(AccountNote::Failed(
                t!("account.too_short", length = length).into(),
            ));
            return;
        }
        let password = self.password.clone();
        self.request = Some(requests.send(ClientMessage::Register { password }));
        self.note = Some(AccountNote::Pending);
    }

    /// The server registered our name.
    pub(super) fn registered(&mut self, name: &str) {
        self.request = None;
        self.password.clear();
        self.confirm.clear();
        self.note = Some(AccountNote::Done(t!("account.done", name = name).into()));
    }

    /// Takes an error if it answers our `register`; returns whether it did.
    pub(super) fn take_error(
        &mut self,
        request_id: Option<u64>,
        code: ErrorCode,
        message: &str,
    ) -> bool {
        if request_id.is_none() || request_id != self.request {
            return false;
        }
        self.request = None;
        self.note = Some(AccountNote::Failed(register_error(code, message)));
        true
    }

    /// Draws the window.
    pub(super) fn ui(&mut self, ctx: &egui::Context, session: &Session) -> Vec<Command> {
        let mut out = Vec::new();
        let mut open = true;
        egui::Window::new(t!("ui.account"))
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::RIGHT_TOP, [-12.0, 48.0])
            .show(ctx, |ui| {
                if session.registered {
                    ui.label(
                        RichText::new(t!("account.signed_in", name = session.my_name))
                            .strong()
                            .color(GOOD),
                    );
                    ui.label(t!("ui.a_registered_account_your_name_is_reserv"));
                } else {
                    out.extend(self.register_form(ui, &session.my_name));
                }
                self.note_ui(ui);
            });
        if !open {
            out.push(Command::ShowAccount(false));
        }
        out
    }

    /// The form a guest registers with.
    fn register_form(&mut self, ui: &mut egui::Ui, name: &str) -> Vec<Command> {
        let mut out = Vec::new();
        ui.label(RichText::new(t!("account.guest", name = name)).strong());
        ui.label(t!("ui.register_this_name_to_keep_it_sign_in_fr"));
        ui.add_space(6.0);
        // Enter in the second field registers, as the button does.
        let mut entered = false;
        egui::Grid::new("register")
            .num_columns(2)
            .spacing([10.0, 6.0])
            .show(ui, |ui| {
                let l = ui.label(t!("ui.new_password"));
                ui.add(
                    egui::TextEdit::singleline(&mut self.password)
                        .password(true)
                        .hint_text(t!("ui.8_to_128_characters")),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label(t!("ui.confirm_password"));
                let confirm = ui
                    .add(egui::TextEdit::singleline(&mut self.confirm).password(true))
                    .labelled_by(l.id);
                entered = confirm.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.end_row();
            });
        let pending = self.note == Some(AccountNote::Pending);
        let ready = !pending && !self.password.is_empty();
        if ui
            .add_enabled(ready, egui::Button::new(t!("ui.register_this_name")))
            .clicked()
            || (ready && entered)
        {
            out.push(Command::Register);
        }
        out
    }

    /// What the window says about the last `register`.
    fn note_ui(&self, ui: &mut egui::Ui) {
        match &self.note {
            None => {}
            Some(AccountNote::Pending) => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(t!("ui.registering"));
                });
            }
            Some(AccountNote::Done(text)) => {
                ui.label(RichText::new(text).color(GOOD));
            }
            Some(AccountNote::Failed(text)) => {
                ui.label(RichText::new(text).color(BAD));
            }
        }
    }
}
