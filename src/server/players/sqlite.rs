//! The players' operations on SQLite (see [`super::schema`]). Each runs
//! on the connection it is given, inside the caller's transaction where
//! it writes: the store records a game's result, its ratings and the
//! room's last state in one commit.

use rusqlite::{params, Connection, OptionalExtension};

use super::glicko::Rating;
use super::name::Name;
use super::{identity, settle, shown, unrated_because, FinishedGame, PlayerError};
use crate::games::any::Variant;
use crate::games::{GameKind, Outcome};
use crate::protocol::online::{
    BoardRow, GameSummary, PlayerTag, RatingHistory, RatingInfo, GAMES_PER_PAGE,
};

/// A player as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: String,
    pub name: String,
    pub renamed_ms: u64,
}

/// One player's standing in one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub game: GameKind,
    pub rating: Rating,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub last_ms: u64,
}

impl Standing {
    /// A player with no rated game yet.
    pub fn new(game: GameKind) -> Standing {
        Standing {
            game,
            rating: Rating::default(),
            games: 0,
            wins: 0,
            losses: 0,
            draws: 0,
            last_ms: 0,
        }
    }

    /// The rating as of `now_ms` (the deviation widened for idle time).
    pub fn rating_at(&self, now_ms: u64) -> Rating {
        if self.games == 0 {
            return self.rating;
        }
        self.rating.idle(now_ms.saturating_sub(self.last_ms))
    }

    pub fn info(&self, now_ms: u64) -> RatingInfo {
        let r = self.rating_at(now_ms);
        RatingInfo {
            game: self.game,
            rating: shown(r.rating) as u32,
            deviation: shown(r.deviation) as u32,
            provisional: r.provisional(),
            games: self.games,
            wins: self.wins,
            losses: self.losses,
            draws: self.draws,
        }
    }
}

fn db(e: rusqlite::Error) -> PlayerError {
    match &e {
        rusqlite::Error::SqliteFailure(f, _)
            if f.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            PlayerError::Conflict(e.to_string())
        }
        _ => PlayerError::Db(e.to_string()),
    }
}

/// Makes a player. The name's key is unique: a taken one is refused.
pub fn register(
    conn: &Connection,
    id: &str,
    secret: &str,
    name: &Name,
    now_ms: u64,
) -> Result<(), PlayerError> {
    if name_owner(conn, name)?.is_some() {
        return Err(PlayerError::NameTaken);
    }
    conn.prepare_cached(
        "INSERT INTO players (id, secret, name, name_key, name_shape, created_ms, renamed_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0)",
    )
    .and_then(|mut s| {
        s.execute(params![
            id,
            identity::seal(secret),
            name.shown,
            name.key,
            name.shape,
            now_ms as i64
        ])
    })
    .map_err(db)?;
    Ok(())
}

/// The player whose name is `name` or looks like it (either fold equal).
fn name_owner(conn: &Connection, name: &Name) -> Result<Option<String>, PlayerError> {
    conn.prepare_cached("SELECT id FROM players WHERE name_key = ?1 OR name_shape = ?2 LIMIT 1")
        .and_then(|mut s| {
            s.query_row(params![name.key, name.shape], |r| r.get(0))
                .optional()
        })
        .map_err(db)
}

fn player_row(r: &rusqlite::Row) -> rusqlite::Result<Player> {
    Ok(Player {
        id: r.get(0)?,
        name: r.get(1)?,
        renamed_ms: r.get::<_, i64>(2)? as u64,
    })
}

/// The player whose secret this is.
pub fn identify(conn: &Connection, secret: &str) -> Result<Option<Player>, PlayerError> {
    conn.prepare_cached("SELECT id, name, renamed_ms FROM players WHERE secret = ?1")
        .and_then(|mut s| {
            s.query_row(params![identity::seal(secret)], player_row)
                .optional()
        })
        .map_err(db)
}

/// A player by public id, or by name (compared by key).
pub fn find(conn: &Connection, who: &str) -> Result<Option<Player>, PlayerError> {
    if let Some(id) = identity::parse_id(who) {
        let found = conn
            .prepare_cached("SELECT id, name, renamed_ms FROM players WHERE id = ?1")
            .and_then(|mut s| s.query_row(params![id], player_row).optional())
            .map_err(db)?;
        if found.is_some() {
            return Ok(found);
        }
    }
    if who.len() > super::name::MAX_INPUT_BYTES {
        return Ok(None);
    }
    // The name as typed, in any case: the player whose name folds alike
    // (its exact fold first).
    let (key, shape) = (super::name::key(who.trim()), super::name::shape(who.trim()));
    conn.prepare_cached(
        "SELECT id, name, renamed_ms FROM players WHERE name_key = ?1 OR name_shape = ?2
         ORDER BY name_key = ?1 DESC LIMIT 1",
    )
    .and_then(|mut s| s.query_row(params![key, shape], player_row).optional())
    .map_err(db)
}

/// Changes a player's name, at most once per `every_ms`.
pub fn rename(
    conn: &Connection,
    id: &str,
    name: &Name,
    now_ms: u64,
    every_ms: u64,
) -> Result<(), PlayerError> {
    let player = conn
        .prepare_cached("SELECT id, name, renamed_ms FROM players WHERE id = ?1")
        .and_then(|mut s| s.query_row(params![id], player_row).optional())
        .map_err(db)?
        .ok_or(PlayerError::NoSuchPlayer)?;
    let next = player.renamed_ms.saturating_add(every_ms);
    if now_ms < next {
        return Err(PlayerError::TooSoon {
            wait_ms: next - now_ms,
        });
    }
    let others = conn
        .prepare_cached(
            "SELECT COUNT(*) FROM players WHERE (name_key = ?2 OR name_shape = ?3) AND id <> ?1",
        )
        .and_then(|mut s| s.query_row(params![id, name.key, name.shape], |r| r.get::<_, i64>(0)))
        .map_err(db)?;
    if others > 0 {
        return Err(PlayerError::NameTaken);
    }
    conn.prepare_cached(
        "UPDATE players SET name = ?2, name_key = ?3, name_shape = ?4, renamed_ms = ?5 WHERE id = ?1",
    )
    .and_then(|mut s| s.execute(params![id, name.shown, name.key, name.shape, now_ms as i64]))
    .map_err(db)?;
    Ok(())
}

fn standing_row(r: &rusqlite::Row) -> rusqlite::Result<Option<Standing>> {
    let slug: String = r.get(0)?;
    let Some(game) = GameKind::from_slug(&slug) else {
        return Ok(None);
    };
    let rating = Rating {
        rating: r.get(1)?,
        deviation: r.get(2)?,
        volatility: r.get(3)?,
    };
    Ok(Some(Standing {
        game,
        // A stored rating that makes no sense is a new player's again.
        rating: if rating.is_sane() {
            rating
        } else {
            Rating::default()
        },
        games: r.get(4)?,
        wins: r.get(5)?,
        losses: r.get(6)?,
        draws: r.get(7)?,
        last_ms: r.get::<_, i64>(8)? as u64,
    }))
}

const STANDING: &str =
    "SELECT game, rating, deviation, volatility, games, wins, losses, draws, last_ms FROM ratings";

/// A player's standings, in [`GameKind::ALL`] order (games never played
/// left out).
pub fn standings(conn: &Connection, id: &str) -> Result<Vec<Standing>, PlayerError> {
    let mut all: Vec<Standing> = conn
        .prepare_cached(&format!("{STANDING} WHERE player = ?1"))
        .and_then(|mut s| {
            s.query_map(params![id], standing_row)?
                .collect::<rusqlite::Result<Vec<_>>>()
        })
        .map_err(db)?
        .into_iter()
        .flatten()
        .collect();
    all.sort_by_key(|s| GameKind::ALL.iter().position(|g| *g == s.game));
    Ok(all)
}

/// One player's standing in one game (a new player's if none).
pub fn standing(conn: &Connection, id: &str, game: GameKind) -> Result<Standing, PlayerError> {
    let found = conn
        .prepare_cached(&format!("{STANDING} WHERE player = ?1 AND game = ?2"))
        .and_then(|mut s| {
            s.query_row(params![id, game.slug()], standing_row)
                .optional()
        })
        .map_err(db)?;
    Ok(found.flatten().unwrap_or_else(|| Standing::new(game)))
}

/// A player's tag with their rating in `game` (none: no rating shown).
pub fn tag(
    conn: &Connection,
    id: &str,
    game: Option<GameKind>,
    now_ms: u64,
) -> Result<Option<PlayerTag>, PlayerError> {
    let Some(player) = conn
        .prepare_cached("SELECT id, name, renamed_ms FROM players WHERE id = ?1")
        .and_then(|mut s| s.query_row(params![id], player_row).optional())
        .map_err(db)?
    else {
        return Ok(None);
    };
    let (rating, provisional) = match game {
        Some(g) => {
            let r = standing(conn, id, g)?.rating_at(now_ms);
            (Some(shown(r.rating) as u32), r.provisional())
        }
        None => (None, false),
    };
    Ok(Some(PlayerTag {
        id: player.id,
        name: player.name,
        rating,
        provisional,
    }))
}

fn put_standing(conn: &Connection, id: &str, s: &Standing) -> Result<(), PlayerError> {
    conn.prepare_cached(
        "INSERT INTO ratings (player, game, rating, deviation, volatility, games, wins, losses, draws, last_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         ON CONFLICT (player, game) DO UPDATE SET rating = ?3, deviation = ?4, volatility = ?5,
         games = ?6, wins = ?7, losses = ?8, draws = ?9, last_ms = ?10",
    )
    .and_then(|mut st| {
        st.execute(params![
            id,
            s.game.slug(),
            s.rating.rating,
            s.rating.deviation,
            s.rating.volatility,
            s.games,
            s.wins,
            s.losses,
            s.draws,
            s.last_ms as i64
        ])
    })
    .map_err(db)?;
    Ok(())
}

/// Records a finished game and, when it counts, both players' new
/// ratings: on `conn`, which should be inside the transaction that stores
/// the room's result. Returns each side's rating before and after when
/// it counted. A game recorded before is refused (the ratings move once).
pub fn record(
    conn: &Connection,
    game: &FinishedGame,
) -> Result<Option<[(Rating, Rating); 2]>, PlayerError> {
    let recorded = conn
        .prepare_cached("SELECT COUNT(*) FROM games WHERE room = ?1 AND game_no = ?2")
        .and_then(|mut s| s.query_row(params![game.room, game.game_no], |r| r.get::<_, i64>(0)))
        .map_err(db)?;
    if recorded > 0 {
        return Err(PlayerError::Conflict(format!(
            "game {} of room {} is recorded already",
            game.game_no, game.room
        )));
    }
    let kind = super::rated_kind(&game.spec);
    let mut changes = None;
    if unrated_because(game).is_none() {
        if let (Some(kind), [Some(a), Some(b)]) = (kind, &game.players) {
            let mut st = [standing(conn, a, kind)?, standing(conn, b, kind)?];
            let before = [
                st[0].rating_at(game.finished_ms),
                st[1].rating_at(game.finished_ms),
            ];
            let after = settle(before, &game.outcome);
            for (i, s) in st.iter_mut().enumerate() {
                s.rating = after[i];
                s.games += 1;
                s.last_ms = game.finished_ms;
                match game.outcome.winner.map(|w| w.index() == i) {
                    Some(true) => s.wins += 1,
                    Some(false) => s.losses += 1,
                    None => s.draws += 1,
                }
            }
            for (i, id) in [a, b].into_iter().enumerate() {
                put_standing(conn, id, &st[i])?;
                conn.prepare_cached(
                    "INSERT INTO rating_history (player, game, at_ms, rating, deviation, room, game_no)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )
                .and_then(|mut s| {
                    s.execute(params![
                        id,
                        kind.slug(),
                        game.finished_ms as i64,
                        after[i].rating,
                        after[i].deviation,
                        game.room,
                        game.game_no
                    ])
                })
                .map_err(db)?;
            }
            changes = Some([(before[0], after[0]), (before[1], after[1])]);
        }
    }
    let spec = serde_json::to_string(&game.spec).map_err(|e| PlayerError::Db(e.to_string()))?;
    let outcome =
        serde_json::to_string(&game.outcome).map_err(|e| PlayerError::Db(e.to_string()))?;
    let side = |i: usize| changes.map(|c: [(Rating, Rating); 2]| (c[i].0.rating, c[i].1.rating));
    conn.prepare_cached(
        "INSERT INTO games (room, game_no, game, spec, start, first, second, outcome, plies, clock_ms,
         rated, counted, first_before, first_after, second_before, second_after, finished_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
    )
    .and_then(|mut s| {
        s.execute(params![
            game.room,
            game.game_no,
            game.spec.kind().slug(),
            spec,
            game.start,
            game.players[0],
            game.players[1],
            outcome,
            game.plies,
            game.clock_ms as i64,
            game.rated,
            changes.is_some(),
            side(0).map(|c| c.0),
            side(0).map(|c| c.1),
            side(1).map(|c| c.0),
            side(1).map(|c| c.1),
            game.finished_ms as i64
        ])
    })
    .map_err(db)?;
    Ok(changes)
}

const SUMMARY: &str = "SELECT g.room, g.game_no, g.spec, g.outcome, g.rated, g.counted,
    g.first_before, g.first_after, g.second_before, g.second_after, g.plies, g.clock_ms,
    g.finished_ms, g.first, a.name, g.second, b.name, g.start
    FROM games g LEFT JOIN players a ON a.id = g.first LEFT JOIN players b ON b.id = g.second";

fn summary_row(r: &rusqlite::Row) -> rusqlite::Result<Option<(GameSummary, String)>> {
    let spec: String = r.get(2)?;
    let outcome: String = r.get(3)?;
    let (Ok(game), Ok(outcome)) = (
        serde_json::from_str::<Variant>(&spec),
        serde_json::from_str::<Outcome>(&outcome),
    ) else {
        return Ok(None);
    };
    let rating = |i: usize| -> rusqlite::Result<Option<u32>> {
        Ok(r.get::<_, Option<f64>>(i)?.map(|x| shown(x) as u32))
    };
    let tag = |id: usize, name: usize, after: Option<u32>| -> rusqlite::Result<Option<PlayerTag>> {
        let id: Option<String> = r.get(id)?;
        let name: Option<String> = r.get(name)?;
        Ok(id.zip(name).map(|(id, name)| PlayerTag {
            id,
            name,
            rating: after,
            provisional: false,
        }))
    };
    let after = [rating(7)?, rating(9)?];
    Ok(Some((
        GameSummary {
            room: r.get(0)?,
            game_no: r.get(1)?,
            game,
            players: [tag(13, 14, after[0])?, tag(15, 16, after[1])?],
            outcome,
            rated: r.get(4)?,
            counted: r.get(5)?,
            before: [rating(6)?, rating(8)?],
            after,
            plies: r.get(10)?,
            clock_ms: r.get::<_, i64>(11)? as u64,
            finished_ms: r.get::<_, i64>(12)? as u64,
        },
        r.get(17)?,
    )))
}

/// One page (from 0) of a player's finished games, newest first, and how
/// many pages there are. A page past the last is refused.
pub fn games(
    conn: &Connection,
    id: &str,
    page: u32,
) -> Result<(Vec<GameSummary>, u32), PlayerError> {
    if page > super::MAX_PAGE {
        return Err(PlayerError::BadPage);
    }
    let total: u32 = conn
        .prepare_cached("SELECT (SELECT COUNT(*) FROM games WHERE first = ?1) + (SELECT COUNT(*) FROM games WHERE second = ?1 AND (first IS NULL OR first <> ?1))")
        .and_then(|mut s| s.query_row(params![id], |r| r.get(0)))
        .map_err(db)?;
    let pages = total.div_ceil(GAMES_PER_PAGE).max(1);
    if page >= pages {
        return Err(PlayerError::BadPage);
    }
    let rows = conn
        .prepare_cached(&format!(
            "{SUMMARY} WHERE g.first = ?1 OR g.second = ?1 ORDER BY g.finished_ms DESC, g.room, g.game_no LIMIT ?2 OFFSET ?3"
        ))
        .and_then(|mut s| {
            s.query_map(
                params![id, GAMES_PER_PAGE, page * GAMES_PER_PAGE],
                summary_row,
            )?
            .collect::<rusqlite::Result<Vec<_>>>()
        })
        .map_err(db)?;
    Ok((rows.into_iter().flatten().map(|(g, _)| g).collect(), pages))
}

/// A finished game with its start position (its moves are the room's).
pub fn archived(
    conn: &Connection,
    room: &str,
    game_no: u32,
) -> Result<Option<(GameSummary, String)>, PlayerError> {
    conn.prepare_cached(&format!("{SUMMARY} WHERE g.room = ?1 AND g.game_no = ?2"))
        .and_then(|mut s| s.query_row(params![room, game_no], summary_row).optional())
        .map_err(db)
        .map(Option::flatten)
}

/// A player's rating after each rated game in each game they played,
/// the latest [`super::HISTORY_POINTS`], oldest first.
pub fn history(conn: &Connection, id: &str) -> Result<Vec<RatingHistory>, PlayerError> {
    let mut out = Vec::new();
    for game in GameKind::ALL {
        let mut points: Vec<[u64; 2]> = conn
            .prepare_cached(
                "SELECT at_ms, rating FROM rating_history WHERE player = ?1 AND game = ?2
                 ORDER BY at_ms DESC LIMIT ?3",
            )
            .and_then(|mut s| {
                s.query_map(params![id, game.slug(), super::HISTORY_POINTS], |r| {
                    Ok([
                        r.get::<_, i64>(0)? as u64,
                        shown(r.get::<_, f64>(1)?) as u64,
                    ])
                })?
                .collect::<rusqlite::Result<Vec<_>>>()
            })
            .map_err(db)?;
        if !points.is_empty() {
            points.reverse();
            out.push(RatingHistory { game, points });
        }
    }
    Ok(out)
}

/// The best players of `game` with a rated game in the last
/// [`super::ACTIVE_MS`] and a rating that is not provisional (as of
/// `now_ms`).
pub fn leaderboard(
    conn: &Connection,
    game: GameKind,
    now_ms: u64,
) -> Result<Vec<BoardRow>, PlayerError> {
    let since = now_ms.saturating_sub(super::ACTIVE_MS) as i64;
    // Read a few more than shown: idle time may make some provisional.
    let rows = conn
        .prepare_cached(
            "SELECT r.player, p.name, r.game, r.rating, r.deviation, r.volatility, r.games,
             r.wins, r.losses, r.draws, r.last_ms
             FROM ratings r JOIN players p ON p.id = r.player
             WHERE r.game = ?1 AND r.last_ms >= ?2 AND r.deviation <= ?3
             ORDER BY r.rating DESC, r.player LIMIT ?4",
        )
        .and_then(|mut s| {
            s.query_map(
                params![
                    game.slug(),
                    since,
                    super::glicko::PROVISIONAL_DEVIATION,
                    (super::LEADERBOARD_ROWS * 2) as i64
                ],
                |r| {
                    let id: String = r.get(0)?;
                    let name: String = r.get(1)?;
                    let Some(st) = standing_from(r)? else {
                        return Ok(None);
                    };
                    Ok(Some((id, name, st)))
                },
            )?
            .collect::<rusqlite::Result<Vec<_>>>()
        })
        .map_err(db)?;
    Ok(rows
        .into_iter()
        .flatten()
        .filter_map(|(id, name, st)| {
            let r = st.rating_at(now_ms);
            (!r.provisional()).then(|| BoardRow {
                player: PlayerTag {
                    id,
                    name,
                    rating: Some(shown(r.rating) as u32),
                    provisional: false,
                },
                games: st.games,
            })
        })
        .take(super::LEADERBOARD_ROWS)
        .collect())
}

/// A standing from a row whose columns 2.. are those of [`STANDING`].
fn standing_from(r: &rusqlite::Row) -> rusqlite::Result<Option<Standing>> {
    let slug: String = r.get(2)?;
    let Some(game) = GameKind::from_slug(&slug) else {
        return Ok(None);
    };
    let rating = Rating {
        rating: r.get(3)?,
        deviation: r.get(4)?,
        volatility: r.get(5)?,
    };
    if !rating.is_sane() {
        return Ok(None);
    }
    Ok(Some(Standing {
        game,
        rating,
        games: r.get(6)?,
        wins: r.get(7)?,
        losses: r.get(8)?,
        draws: r.get(9)?,
        last_ms: r.get::<_, i64>(10)? as u64,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::stones::StonesRules;
    use crate::games::{EndReason, Side};
    use crate::server::players::name;

    const DAY: u64 = 24 * 3600 * 1000;
    const T0: u64 = 1_800_000_000_000;

    fn db() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(super::super::schema::SQLITE).unwrap();
        conn
    }

    /// Registers `name`; returns (id, secret).
    fn player(conn: &Connection, name: &str) -> (String, String) {
        let (secret, id) = identity::fresh().unwrap();
        register(conn, &id, &secret, &name::check(name).unwrap(), T0).unwrap();
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

    #[test]
    fn identities_names_and_renames() {
        let conn = db();
        let (id, secret) = player(&conn, "Ayşe");
        let me = identify(&conn, &secret).unwrap().unwrap();
        assert_eq!((me.id.as_str(), me.name.as_str()), (id.as_str(), "Ayşe"));
        // Only the hash is stored.
        let stored: String = conn
            .query_row("SELECT secret FROM players", [], |r| r.get(0))
            .unwrap();
        assert!(!stored.contains(&secret));
        assert_eq!(
            identify(&conn, &identity::fresh().unwrap().0).unwrap(),
            None
        );
        // The same name in any case or look-alike form is taken.
        let (s2, id2) = identity::fresh().unwrap();
        for taken in ["ayşe", "AYŞE", "Ayşe"] {
            let n = name::check(taken).unwrap();
            assert_eq!(
                register(&conn, &id2, &s2, &n, T0),
                Err(PlayerError::NameTaken)
            );
        }
        let (other, _) = player(&conn, "Bob");
        // Found by id and by name in any form.
        assert_eq!(find(&conn, &id).unwrap().unwrap().name, "Ayşe");
        assert_eq!(find(&conn, "b0b").unwrap().unwrap().id, other);
        assert_eq!(find(&conn, "nobody here").unwrap(), None);
        assert_eq!(find(&conn, &"x".repeat(100_000)).unwrap(), None);
        // Renaming: a new player may fix their name at once; then not
        // within a day of the last rename, never to a taken one.
        let fixed = name::check("Ayşe K").unwrap();
        rename(&conn, &id, &fixed, T0 + 500, DAY).unwrap();
        let new = name::check("Ayşe Y").unwrap();
        assert_eq!(
            rename(&conn, &id, &new, T0 + 1500, DAY),
            Err(PlayerError::TooSoon {
                wait_ms: DAY - 1000
            })
        );
        assert_eq!(
            rename(
                &conn,
                &id,
                &name::check("BOB").unwrap(),
                T0 + 500 + DAY,
                DAY
            ),
            Err(PlayerError::NameTaken)
        );
        rename(&conn, &id, &new, T0 + 500 + DAY, DAY).unwrap();
        assert_eq!(identify(&conn, &secret).unwrap().unwrap().name, "Ayşe Y");
        // The old name is free again; the player's own may change case.
        player(&conn, "Ayse");
        assert_eq!(
            rename(&conn, "nosuchplayer0000", &new, T0 + DAY, DAY),
            Err(PlayerError::NoSuchPlayer)
        );
    }

    #[test]
    fn a_rated_game_moves_both_ratings_once() {
        let conn = db();
        let (a, _) = player(&conn, "Ann");
        let (b, _) = player(&conn, "Ben");
        let g = finished(&a, &b, 1, Some(Side::First));
        let [(a0, a1), (b0, b1)] = record(&conn, &g).unwrap().unwrap();
        assert_eq!((a0, b0), (Rating::default(), Rating::default()));
        assert!(a1.rating > 1500.0 && b1.rating < 1500.0);
        // The same game again is refused and changes nothing.
        assert!(matches!(record(&conn, &g), Err(PlayerError::Conflict(_))));
        let sa = standing(&conn, &a, GameKind::Stones).unwrap();
        assert_eq!((sa.games, sa.wins, sa.losses), (1, 1, 0));
        assert_eq!(sa.rating, a1);
        let sb = standing(&conn, &b, GameKind::Stones).unwrap();
        assert_eq!((sb.games, sb.wins, sb.losses), (1, 0, 1));
        // Other games' ratings are untouched.
        assert_eq!(standing(&conn, &a, GameKind::Mill).unwrap().games, 0);
        assert_eq!(standings(&conn, &a).unwrap().len(), 1);
        let info = sa.info(g.finished_ms);
        assert!(info.provisional && info.rating == 1662, "{info:?}");
        let h = history(&conn, &a).unwrap();
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].points, vec![[g.finished_ms, 1662]]);
        let (page, pages) = games(&conn, &a, 0).unwrap();
        assert_eq!(pages, 1);
        assert_eq!(page.len(), 1);
        assert!(page[0].counted && page[0].rated);
        assert_eq!(page[0].before, [Some(1500), Some(1500)]);
        assert_eq!(page[0].after, [Some(1662), Some(1338)]);
        assert_eq!(page[0].players[1].as_ref().unwrap().name, "Ben");
        let (back, start) = archived(&conn, &g.room, 1).unwrap().unwrap();
        assert_eq!(back, page[0]);
        assert_eq!(start, "start");
        assert_eq!(archived(&conn, &g.room, 2).unwrap(), None);
    }

    #[test]
    fn unrated_games_are_kept_and_change_no_rating() {
        let conn = db();
        let (a, _) = player(&conn, "Ann");
        let (b, _) = player(&conn, "Ben");
        let aborted = FinishedGame {
            moved: [true, false],
            plies: 1,
            ..finished(&a, &b, 1, Some(Side::First))
        };
        let casual = FinishedGame {
            rated: false,
            ..finished(&a, &b, 2, Some(Side::Second))
        };
        let alone = finished(&a, &a, 3, Some(Side::First));
        let anonymous = FinishedGame {
            players: [Some(a.clone()), None],
            ..finished(&a, &b, 4, None)
        };
        for g in [&aborted, &casual, &alone, &anonymous] {
            assert_eq!(record(&conn, g).unwrap(), None, "{g:?}");
        }
        for id in [&a, &b] {
            assert_eq!(standings(&conn, id).unwrap(), vec![]);
            assert_eq!(history(&conn, id).unwrap(), vec![]);
        }
        let (page, _) = games(&conn, &a, 0).unwrap();
        assert_eq!(page.len(), 4, "every finished game is listed");
        assert!(page.iter().all(|g| !g.counted && g.after == [None, None]));
        // The game against themselves is listed once.
        let (page, _) = games(&conn, &b, 0).unwrap();
        assert_eq!(page.len(), 2);
    }

    #[test]
    fn pages_and_their_bounds() {
        let conn = db();
        let (a, _) = player(&conn, "Ann");
        let (b, _) = player(&conn, "Ben");
        assert_eq!(games(&conn, &a, 0).unwrap(), (vec![], 1));
        for no in 1..=45 {
            let winner = if no % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            record(&conn, &finished(&a, &b, no, Some(winner))).unwrap();
        }
        let (first, pages) = games(&conn, &a, 0).unwrap();
        assert_eq!((first.len(), pages), (20, 3));
        assert_eq!(first[0].game_no, 45, "newest first");
        let (last, _) = games(&conn, &a, 2).unwrap();
        assert_eq!(last.len(), 5);
        assert_eq!(last[4].game_no, 1);
        assert_eq!(games(&conn, &a, 3), Err(PlayerError::BadPage));
        assert_eq!(games(&conn, &a, u32::MAX), Err(PlayerError::BadPage));
        let h = history(&conn, &a).unwrap();
        assert_eq!(h[0].points.len(), 45);
        assert!(
            h[0].points.windows(2).all(|w| w[0][0] < w[1][0]),
            "oldest first"
        );
    }

    #[test]
    fn the_leaderboard_lists_active_established_players() {
        let conn = db();
        let (a, _) = player(&conn, "Ann");
        let (b, _) = player(&conn, "Ben");
        let (c, _) = player(&conn, "Cem");
        let now = T0 + 100_000;
        assert_eq!(leaderboard(&conn, GameKind::Stones, now).unwrap(), vec![]);
        for no in 1..=40 {
            // Ann beats Ben three games in four; Cem plays once.
            let winner = if no % 4 == 0 {
                Side::Second
            } else {
                Side::First
            };
            record(&conn, &finished(&a, &b, no, Some(winner))).unwrap();
        }
        record(&conn, &finished(&c, &a, 41, Some(Side::First))).unwrap();
        let board = leaderboard(&conn, GameKind::Stones, now).unwrap();
        let names: Vec<&str> = board.iter().map(|r| r.player.name.as_str()).collect();
        assert_eq!(names, ["Ann", "Ben"], "Cem is provisional");
        assert!(board[0].player.rating > board[1].player.rating);
        assert_eq!(board[0].games, 41);
        // A month and more later nobody is active.
        assert_eq!(
            leaderboard(&conn, GameKind::Stones, now + 31 * DAY).unwrap(),
            vec![]
        );
        assert_eq!(leaderboard(&conn, GameKind::Mill, now).unwrap(), vec![]);
        let t = tag(&conn, &c, Some(GameKind::Stones), now)
            .unwrap()
            .unwrap();
        assert!(t.provisional && t.rating.unwrap() > 1500);
        assert_eq!(tag(&conn, &c, None, now).unwrap().unwrap().rating, None);
        assert_eq!(tag(&conn, "nosuchplayer0000", None, now).unwrap(), None);
    }
}
