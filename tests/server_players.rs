//! The players' operations on a real PostgreSQL (started by the test, see
//! tests/cluster/mod.rs): the same behaviour as the SQLite ones' unit
//! tests (src/server/players/sqlite.rs), each refusal changing nothing.

mod cluster;

use stoneplay::games::any::Variant;
use stoneplay::games::stones::StonesRules;
use stoneplay::games::{EndReason, GameKind, Outcome, Side};
use stoneplay::server::players::glicko::Rating;
use stoneplay::server::players::{identity, name, pg, schema, FinishedGame, PlayerError};

const DAY: u64 = 24 * 3600 * 1000;
const T0: u64 = 1_800_000_000_000;

async fn database() -> tokio_postgres::Client {
    let (postgres, _) = cluster::shared();
    let url = postgres.database().await;
    let client = stoneplay::server::pg::connect(&url).await.unwrap();
    client.batch_execute(schema::POSTGRES).await.unwrap();
    client
}

async fn player(c: &tokio_postgres::Client, name: &str) -> (String, String) {
    let (secret, id) = identity::fresh().unwrap();
    pg::register(c, &id, &secret, &name::check(name).unwrap(), T0)
        .await
        .unwrap();
    (id, secret)
}

fn finished(a: &str, b: &str, no: u32, winner: Option<Side>) -> FinishedGame {
    FinishedGame {
        room: "roomroomroomroom".into(),
        game_no: no,
        spec: Variant::Stones(StonesRules),
        start: "start".into(),
        plies: 12,
        players: [Some(a.into()), Some(b.into())],
        outcome: match winner {
            Some(w) => Outcome::win(w, EndReason::Resignation),
            None => Outcome::draw(EndReason::Agreement),
        },
        rated: true,
        moved: [true, true],
        clock_ms: 30_000,
        finished_ms: T0 + u64::from(no) * 1000,
    }
}

#[tokio::test]
async fn identities_and_names_on_postgres() {
    let c = database().await;
    let (id, secret) = player(&c, "Ayşe").await;
    assert_eq!(pg::identify(&c, &secret).await.unwrap().unwrap().id, id);
    assert_eq!(
        pg::identify(&c, &identity::fresh().unwrap().0)
            .await
            .unwrap(),
        None
    );
    let (s2, id2) = identity::fresh().unwrap();
    for taken in ["ayşe", "AYŞE"] {
        let n = name::check(taken).unwrap();
        assert_eq!(
            pg::register(&c, &id2, &s2, &n, T0).await,
            Err(PlayerError::NameTaken)
        );
    }
    let (bob, _) = player(&c, "Bob").await;
    assert_eq!(pg::find(&c, "B0B").await.unwrap().unwrap().id, bob);
    assert_eq!(pg::find(&c, &id).await.unwrap().unwrap().name, "Ayşe");
    assert_eq!(pg::find(&c, "nobody at all").await.unwrap(), None);
    // A new name may be fixed once at once; the day's wait counts from
    // that rename, not from the first name.
    pg::rename(&c, &id, &name::check("Ayşe X").unwrap(), T0 + 1, DAY)
        .await
        .unwrap();
    let new = name::check("Ayşe Y").unwrap();
    assert_eq!(
        pg::rename(&c, &id, &new, T0 + 2, DAY).await,
        Err(PlayerError::TooSoon { wait_ms: DAY - 1 })
    );
    assert_eq!(
        pg::rename(&c, &id, &name::check("bob").unwrap(), T0 + 1 + DAY, DAY).await,
        Err(PlayerError::NameTaken)
    );
    pg::rename(&c, &id, &new, T0 + 1 + DAY, DAY).await.unwrap();
    assert_eq!(
        pg::identify(&c, &secret).await.unwrap().unwrap().name,
        "Ayşe Y"
    );
}

#[tokio::test]
async fn ratings_and_games_on_postgres() {
    let c = database().await;
    let (a, _) = player(&c, "Ann").await;
    let (b, _) = player(&c, "Ben").await;
    let g = finished(&a, &b, 1, Some(Side::First));
    let [(a0, a1), (_, b1)] = pg::record(&c, &g).await.unwrap().unwrap();
    assert_eq!(a0, Rating::default());
    assert!(a1.rating > 1500.0 && b1.rating < 1500.0);
    // Recorded once: a second time is refused and changes nothing.
    assert!(matches!(
        pg::record(&c, &g).await,
        Err(PlayerError::Conflict(_))
    ));
    let sa = pg::standing(&c, &a, GameKind::Stones).await.unwrap();
    assert_eq!((sa.games, sa.wins, sa.rating), (1, 1, a1));
    // Unrated: an abort, a casual game, a game against themselves.
    let aborted = FinishedGame {
        moved: [true, false],
        ..finished(&a, &b, 2, Some(Side::Second))
    };
    let casual = FinishedGame {
        rated: false,
        ..finished(&a, &b, 3, Some(Side::Second))
    };
    let alone = finished(&a, &a, 4, Some(Side::Second));
    for game in [&aborted, &casual, &alone] {
        assert_eq!(pg::record(&c, game).await.unwrap(), None);
    }
    assert_eq!(
        pg::standing(&c, &a, GameKind::Stones).await.unwrap(),
        sa,
        "no unrated game moved the rating"
    );
    let (page, pages) = pg::games(&c, &a, 0).await.unwrap();
    assert_eq!((page.len(), pages), (4, 1));
    assert_eq!(page[3].after, [Some(1662), Some(1338)]);
    assert_eq!(pg::games(&c, &a, 1).await, Err(PlayerError::BadPage));
    assert_eq!(pg::games(&c, &a, u32::MAX).await, Err(PlayerError::BadPage));
    let (back, start) = pg::archived(&c, &g.room, 1).await.unwrap().unwrap();
    assert_eq!((back, start.as_str()), (page[3].clone(), "start"));
    assert_eq!(pg::archived(&c, &g.room, 99).await.unwrap(), None);
    let h = pg::history(&c, &a).await.unwrap();
    assert_eq!(h[0].points, vec![[g.finished_ms, 1662]]);
    // Provisional after one game: not on the leaderboard yet.
    assert_eq!(
        pg::leaderboard(&c, GameKind::Stones, T0 + 10_000)
            .await
            .unwrap(),
        vec![]
    );
    for no in 10..50 {
        let winner = if no % 4 == 0 {
            Side::Second
        } else {
            Side::First
        };
        pg::record(&c, &finished(&a, &b, no, Some(winner)))
            .await
            .unwrap();
    }
    let board = pg::leaderboard(&c, GameKind::Stones, T0 + 100_000)
        .await
        .unwrap();
    let names: Vec<&str> = board.iter().map(|r| r.player.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Ben"]);
    let t = pg::tag(&c, &b, Some(GameKind::Stones), T0 + 100_000)
        .await
        .unwrap()
        .unwrap();
    assert!(!t.provisional && t.rating.unwrap() < 1500);
}
