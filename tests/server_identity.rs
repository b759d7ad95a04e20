//! Identities over the socket (issue 37): `register`, `identify` and
//! `rename` through the connection into the players' tables, on one node
//! (SQLite) and, with feature `cluster`, on PostgreSQL (started by the
//! test, see tests/cluster/mod.rs). Every refusal changes nothing: the
//! name asked for stays free or the old name stays.

#[cfg(feature = "cluster")]
mod cluster;
mod common;

use std::time::Duration;

use common::{data_dir, refused_outside, WAIT};

use stoneplay::protocol::online::{ClientMsg, PlayerTag, Refusal, ServerMsg};
use stoneplay::server::client::Client;
use stoneplay::server::{self, Config};

/// Names here may change every 400 ms (a day on a real server).
const RENAME_EVERY: Duration = Duration::from_millis(400);

/// The next message must be `identity`: (player, secret, rename_in_ms).
async fn identity(c: &mut Client) -> (PlayerTag, Option<String>, u64) {
    match c.recv(WAIT).await.expect("an answer") {
        ServerMsg::Identity {
            player,
            secret,
            rename_in_ms,
            ..
        } => (player, secret, rename_in_ms),
        other => panic!("expected identity, got {other:?}"),
    }
}

async fn send(c: &mut Client, msg: ClientMsg) {
    c.send(&msg).await.expect("sent");
}

fn register(name: &str) -> ClientMsg {
    ClientMsg::Register { name: name.into() }
}

/// The whole story on a server started with `config`.
async fn identities(config: Config) {
    let server = server::start(Config {
        rename_every: RENAME_EVERY,
        ..config
    })
    .await
    .expect("server starts");
    let addr = server.addr();

    // A new identity: its secret comes once, with its public id.
    let mut a = Client::hello(addr).await.unwrap();
    send(&mut a, register("Ada")).await;
    let (ada, secret, rename_in) = identity(&mut a).await;
    assert_eq!(ada.name, "Ada");
    assert_eq!(ada.id.len(), 16);
    let secret = secret.expect("register sends the secret");
    assert_eq!(rename_in, 0, "a new name may be fixed at once");

    // Bad names and taken names (any case, look-alikes) are refused.
    let mut b = Client::hello(addr).await.unwrap();
    for (name, code) in [
        ("x", Refusal::NameTooShort),
        ("A\u{200B}da", Refusal::NameCharacter),
        ("Admin", Refusal::NameReserved),
        ("ADA", Refusal::NameTaken),
        ("\u{410}da", Refusal::NameMixedScripts), // Cyrillic А, Latin da
        ("a name far longer than twenty", Refusal::NameTooLong),
    ] {
        send(&mut b, register(name)).await;
        refused_outside(&mut b, code).await;
    }

    // Without an identity there is no name to change.
    send(&mut b, ClientMsg::Rename { name: "Bea".into() }).await;
    refused_outside(&mut b, Refusal::NoIdentity).await;

    // Forged or unknown secrets identify nobody.
    let unknown = "a".repeat(32);
    for forged in ["", "not a secret", &unknown, &"b".repeat(3000)] {
        send(
            &mut b,
            ClientMsg::Identify {
                secret: forged.to_string(),
            },
        )
        .await;
        refused_outside(&mut b, Refusal::BadIdentity).await;
    }

    // The recovery code (dashes, upper case) is the same identity.
    let code = secret
        .as_bytes()
        .chunks(4)
        .map(|c| std::str::from_utf8(c).unwrap().to_uppercase())
        .collect::<Vec<_>>()
        .join("-");
    send(&mut b, ClientMsg::Identify { secret: code }).await;
    let (again, no_secret, _) = identity(&mut b).await;
    assert_eq!(again, ada);
    assert_eq!(no_secret, None, "identify never sends the secret");

    // The first rename goes through at once; the wait counts from it:
    // renaming again too soon is refused and the name stays.
    send(
        &mut b,
        ClientMsg::Rename {
            name: "Ada F".into(),
        },
    )
    .await;
    let (fixed, _, rename_in) = identity(&mut b).await;
    assert_eq!(
        (fixed.id.as_str(), fixed.name.as_str()),
        (ada.id.as_str(), "Ada F")
    );
    assert!(rename_in > 0 && rename_in <= RENAME_EVERY.as_millis() as u64);
    send(&mut b, ClientMsg::Rename { name: "Bea".into() }).await;
    refused_outside(&mut b, Refusal::RenameTooSoon).await;
    let mut c = Client::hello(addr).await.unwrap();
    send(
        &mut c,
        ClientMsg::Identify {
            secret: secret.clone(),
        },
    )
    .await;
    assert_eq!(identity(&mut c).await.0.name, "Ada F");

    // Another player takes "Bob"; Ada may not take it, nor a look-alike.
    send(&mut c, register("Bob")).await;
    let (bob, _, _) = identity(&mut c).await;
    assert_ne!(bob.id, ada.id);
    tokio::time::sleep(RENAME_EVERY).await;
    for look_alike in ["B0B", "\u{412}\u{41E}\u{412}"] {
        // B0B, and Cyrillic ВОВ.
        send(
            &mut b,
            ClientMsg::Rename {
                name: look_alike.into(),
            },
        )
        .await;
        refused_outside(&mut b, Refusal::NameTaken).await;
    }

    // Once the wait is over the rename goes through, and the old name
    // is free again.
    send(
        &mut b,
        ClientMsg::Rename {
            name: "Ada L".into(),
        },
    )
    .await;
    let (renamed, _, rename_in) = identity(&mut b).await;
    assert_eq!(
        (renamed.id.as_str(), renamed.name.as_str()),
        (ada.id.as_str(), "Ada L")
    );
    assert!(rename_in > 0);
    let mut d = Client::hello(addr).await.unwrap();
    send(&mut d, register("ada f")).await;
    assert_eq!(identity(&mut d).await.0.name, "ada f");

    server.shutdown().await;
}

#[tokio::test]
async fn identities_over_the_socket_on_sqlite() {
    let dir = data_dir("identity");
    identities(common::config(&dir)).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(feature = "cluster")]
#[tokio::test]
async fn identities_over_the_socket_on_postgres() {
    let (postgres, _) = cluster::shared();
    let dir = data_dir("identity-pg");
    identities(Config {
        database: Some(postgres.database().await),
        ..common::config(&dir)
    })
    .await;
    let _ = std::fs::remove_dir_all(&dir);
}
