//! Challenges between players online: `challenge` (by name), its answer
//! (`answer_challenge`, which creates the room and seats both), and the
//! list of bots online (`list_bots`).

use std::sync::Arc;

use tabula_shared::protocol::{
    ClientMessage, ErrorCode, Opponent, PlayerInfo, Role, RoomOptions, ServerFrame, ServerMessage,
};

use super::Handler;
use crate::challenges::Challenge;
use crate::identity::Identity;
use crate::room;

impl Handler {
    /// `challenge`: delivers a challenge to the player online under `to`.
    pub(super) fn challenge(
        &self,
        rid: Option<u64>,
        identity: &Identity,
        to: &str,
        options: RoomOptions,
    ) {
        if options.opponent != Opponent::Human {
            self.reply(
                rid,
                ServerMessage::error(
                    ErrorCode::BadRequest,
                    "a challenge is to a person or a bot: opponent must be human",
                ),
            );
            return;
        }
        let mut challenges = self.shared.challenges();
        let Some((target, nodes)) = challenges.online_by_name(to) else {
            self.reply(
                rid,
                ServerMessage::error(
                    ErrorCode::NotFound,
                    format!("nobody called {to:?} is online"),
                ),
            );
            return;
        };
        if target.id == identity.id {
            self.reply(
                rid,
                ServerMessage::error(ErrorCode::BadRequest, "you cannot challenge yourself"),
            );
            return;
        }
        let challenge = Challenge::new(identity.clone(), target.id.clone(), options.clone());
        let challenge_id = challenges.open(challenge.clone());
        let from = PlayerInfo {
            id: identity.id.clone(),
            name: identity.name.clone(),
            ai: None,
            bot: identity.bot,
        };
        // Here, and on every other node the player is on, which keeps the
        // challenge for them to answer there.
        challenges.tell_here(
            &target.id,
            &ServerFrame::push(ServerMessage::Challenged {
                challenge_id: challenge_id.clone(),
                from,
                options,
            })
            .encode(),
        );
        drop(challenges);
        if let Some(cluster) = &self.shared.nodes {
            for node in nodes {
                cluster.challenge(&node, &challenge_id, &challenge);
            }
        }
        self.reply(rid, ServerMessage::ChallengeSent { challenge_id });
    }

    /// `answer_challenge`: a no is passed on; a yes creates the room (the
    /// challenger its creator), seats the answerer, and tells the
    /// challenger which room to join.
    pub(super) async fn answer_challenge(
        &mut self,
        rid: Option<u64>,
        identity: Arc<Identity>,
        challenge_id: String,
        accept: bool,
    ) {
        let taken = self.shared.challenges().take(&challenge_id, &identity.id);
        let Some(challenge) = taken else {
            self.reply(
                rid,
                ServerMessage::error(
                    ErrorCode::NotFound,
                    "no such challenge for you (it may have expired or its sender left)",
                ),
            );
            return;
        };
        let answered = |room_id: Option<String>| ServerMessage::ChallengeAnswered {
            challenge_id: challenge_id.clone(),
            accepted: room_id.is_some(),
            room_id,
        };
        if !accept {
            self.shared.tell_player(&challenge.from.id, answered(None));
            self.reply(rid, ServerMessage::Ok);
            return;
        }
        match room::create(&self.shared, &challenge.from, challenge.options).await {
            Ok(room_id) => {
                self.shared
                    .tell_player(&challenge.from.id, answered(Some(room_id.clone())));
                let join = ClientMessage::JoinRoom {
                    room_id: room_id.clone(),
                    role: Role::Player,
                    since: None,
                };
                self.forward(&room_id, identity, rid, join);
            }
            Err((code, why)) => {
                self.shared.tell_player(&challenge.from.id, answered(None));
                self.reply(rid, ServerMessage::error(code, why));
            }
        }
    }

    /// `list_bots`: the bot accounts online.
    pub(super) fn list_bots(&self, rid: Option<u64>) {
        let bots = self.shared.challenges().bots_online();
        self.reply(rid, ServerMessage::BotsOnline { bots });
    }
}
