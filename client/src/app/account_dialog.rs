//! [`AccountDialog`]: the account window, where a guest registers the name
//! it plays under.

use egui::RichText;
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
        ErrorCode::NameTaken => {
            "This name is already registered by someone else. Connect with another name to register it.".into()
        }
        ErrorCode::WeakPassword => "Weak password: a password has 8 to 128 characters.".into(),
        ErrorCode::AlreadyRegistered => "You are already registered.".into(),
        _ => format!("Registration failed: {message}"),
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
            self.note = Some(AccountNote::Failed("The two passwords differ.".into()));
            return;
        }
        let length = self.password.chars().count();
        if !(8..=128).contains(&length) {
            self.note = Some(AccountNote::Failed(format!(
                "Weak password: it has {length} characters; a password has 8 to 128."
            )));
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
        self.note = Some(AccountNote::Done(format!(
            "Registered: \"{name}\" is now your account. Sign in with it from any computer."
        )));
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
        egui::Window::new("Account")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::RIGHT_TOP, [-12.0, 48.0])
            .show(ctx, |ui| {
                if session.registered {
                    ui.label(
                        RichText::new(format!("Signed in as {}", session.my_name))
                            .strong()
                            .color(GOOD),
                    );
                    ui.label("A registered account: your name is reserved, your rated games count on the leaderboard.");
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
        ui.label(RichText::new(format!("Playing as a guest: {name}")).strong());
        ui.label("Register this name to keep it, sign in from any computer and play rated games.");
        ui.add_space(6.0);
        // Enter in the second field registers, as the button does.
        let mut entered = false;
        egui::Grid::new("register")
            .num_columns(2)
            .spacing([10.0, 6.0])
            .show(ui, |ui| {
                let l = ui.label("New password");
                ui.add(
                    egui::TextEdit::singleline(&mut self.password)
                        .password(true)
                        .hint_text("8 to 128 characters"),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Confirm password");
                let confirm = ui
                    .add(egui::TextEdit::singleline(&mut self.confirm).password(true))
                    .labelled_by(l.id);
                entered = confirm.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.end_row();
            });
        let pending = self.note == Some(AccountNote::Pending);
        let ready = !pending && !self.password.is_empty();
        if ui
            .add_enabled(ready, egui::Button::new("Register this name"))
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
                    ui.label("Registering…");
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
