//! The room driven without a socket: a real store in a temporary directory,
//! the real [`Shared`] state, and members whose frames land in memory. Each
//! test sends a room the commands a connection would and reads what it
//! told each member.

mod bench;
mod clocks;
mod members;
mod moves;
mod offers;
