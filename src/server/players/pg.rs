//! The players' operations on PostgreSQL (feature `cluster`): the same as
//! [`super::sqlite`], statement for statement, on any client or
//! transaction, so the PostgreSQL store records a game's result and its
//! ratings in the transaction that stores the room. Two nodes registering
//! one name at once: the unique folds make the second insert fail, and
//! it is refused as taken.

use tokio_postgres::error::SqlState;
use tokio_postgres::{GenericClient, Row};

use super::glicko::Rating;
use super::name::Name;
use super::sqlite::{Player, Standing};
use super::{identity, settle, shown, unrated_because, FinishedGame, PlayerError};
use crate::games::any::Variant;
use crate::games::{GameKind, Outcome};
use crate::protocol::online::{BoardRow, GameSummary, PlayerTag, RatingHistory, GAMES_PER_PAGE};
use crate::server::pg_error::pg_error;

fn db(e: tokio_postgres::Error) -> PlayerError {
    match e.as_db_error() {
        Some(d) if *d.code() == SqlState::UNIQUE_VIOLATION => {
            PlayerError::Conflict(d.message().to_string())
        }
        _ => PlayerError::Db(pg_error(&e)),
    }
}

fn player_row(r: &Row) -> Player {
    Player {
        id: r.get(0),
        name: r.get(1),
        renamed_ms: r.get::<_, i64>(2) as u64,
    }
}

/// Makes a player (see [`super::sqlite::register`]).
pub async fn register(
    c: &impl GenericClient,
    id: &str,
    secret: &str,
    name: &Name,
    now_ms: u64,
) -> Result<(), PlayerError> {
    if name_owner(c, name).await?.is_some() {
        return Err(PlayerError::NameTaken);
    }
    let result = c
        .execute(
            "INSERT INTO players (id, secret, name, name_key, name_shape, created_ms, renamed_ms)
             VALUES ($1, $2, $3, $4, $5, $6, 0)",
            &[
                &id,
                &identity::seal(secret),
                &name.shown,
                &name.key,
                &name.shape,
                &(now_ms as i64),
            ],
        )
        .await;
    match result.map_err(db) {
        // Another node took the name in the meantime.
        Err(PlayerError::Conflict(_)) => Err(PlayerError::NameTaken),
        other => other.map(|_| ()),
    }
}

async fn name_owner(c: &impl GenericClient, name: &Name) -> Result<Option<String>, PlayerError> {
    c.query_opt(
        "SELECT id FROM players WHERE name_key = $1 OR name_shape = $2 LIMIT 1",
        &[&name.key, &name.shape],
    )
    .await
    .map(|r| r.map(|r| r.get(0)))
    .map_err(db)
}

/// The player whose secret this is.
pub async fn identify(c: &impl GenericClient, secret: &str) -> Result<Option<Player>, PlayerError> {
    c.query_opt(
        "SELECT id, name, renamed_ms FROM players WHERE secret = $1",
        &[&identity::seal(secret)],
    )
    .await
    .map(|r| r.as_ref().map(player_row))
    .map_err(db)
}

async fn by_id(c: &impl GenericClient, id: &str) -> Result<Option<Player>, PlayerError> {
    c.query_opt(
        "SELECT id, name, renamed_ms FROM players WHERE id = $1",
        &[&id],
    )
    .await
    .map(|r| r.as_ref().map(player_row))
    .map_err(db)
}

/// A player by public id, or by name (see [`super::sqlite::find`]).
pub async fn find(c: &impl GenericClient, who: &str) -> Result<Option<Player>, PlayerError> {
    if let Some(id) = identity::parse_id(who) {
        if let Some(p) = by_id(c, &id).await? {
            return Ok(Some(p));
        }
    }
    if who.len() > super::name::MAX_INPUT_BYTES {
        return Ok(None);
    }
    let (key, shape) = (super::name::key(who.trim()), super::name::shape(who.trim()));
    c.query_opt(
        "SELECT id, name, renamed_ms FROM players WHERE name_key = $1 OR name_shape = $2
         ORDER BY name_key = $1 DESC LIMIT 1",
        &[&key, &shape],
    )
    .await
    .map(|r| r.as_ref().map(player_row))
    .map_err(db)
}

/// Changes a player's name, at most once per `every_ms`.
pub async fn rename(
    c: &impl GenericClient,
    id: &str,
    name: &Name,
    now_ms: u64,
    every_ms: u64,
) -> Result<(), PlayerError> {
    let player = by_id(c, id).await?.ok_or(PlayerError::NoSuchPlayer)?;
    let next = player.renamed_ms.saturating_add(every_ms);
    if now_ms < next {
        return Err(PlayerError::TooSoon {
            wait_ms: next - now_ms,
        });
    }
    let others: i64 = c
        .query_one(
            "SELECT COUNT(*) FROM players WHERE (name_key = $2 OR name_shape = $3) AND id <> $1",
            &[&id, &name.key, &name.shape],
        )
        .await
        .map_err(db)?
        .get(0);
    if others > 0 {
        return Err(PlayerError::NameTaken);
    }
    let result = c
        .execute(
            "UPDATE players SET name = $2, name_key = $3, name_shape = $4, renamed_ms = $5 WHERE id = $1",
            &[&id, &name.shown, &name.key, &name.shape, &(now_ms as i64)],
        )
        .await;
    match result.map_err(db) {
        Err(PlayerError::Conflict(_)) => Err(PlayerError::NameTaken),
        other => other.map(|_| ()),
    }
}

const STANDING: &str =
    "SELECT game, rating, deviation, volatility, games, wins, losses, draws, last_ms FROM ratings";

fn standing_row(r: &Row, at: usize) -> Option<Standing> {
    let game = GameKind::from_slug(r.get::<_, &str>(at))?;
    let rating = Rating {
        rating: r.get(at + 1),
        deviation: r.get(at + 2),
        volatility: r.get(at + 3),
    };
    Some(Standing {
        game,
        rating: if rating.is_sane() {
            rating
        } else {
            Rating::default()
        },
        games: r.get::<_, i32>(at + 4) as u32,
        wins: r.get::<_, i32>(at + 5) as u32,
        losses: r.get::<_, i32>(at + 6) as u32,
        draws: r.get::<_, i32>(at + 7) as u32,
        last_ms: r.get::<_, i64>(at + 8) as u64,
    })
}

/// A player's standings, in [`GameKind::ALL`] order.
pub async fn standings(c: &impl GenericClient, id: &str) -> Result<Vec<Standing>, PlayerError> {
    let rows = c
        .query(&format!("{STANDING} WHERE player = $1"), &[&id])
        .await
        .map_err(db)?;
    let mut all: Vec<Standing> = rows.iter().filter_map(|r| standing_row(r, 0)).collect();
    all.sort_by_key(|s| GameKind::ALL.iter().position(|g| *g == s.game));
    Ok(all)
}

/// One player's standing in one game (a new player's if none).
pub async fn standing(
    c: &impl GenericClient,
    id: &str,
    game: GameKind,
) -> Result<Standing, PlayerError> {
    let row = c
        .query_opt(
            &format!("{STANDING} WHERE player = $1 AND game = $2"),
            &[&id, &game.slug()],
        )
        .await
        .map_err(db)?;
    Ok(row
        .and_then(|r| standing_row(&r, 0))
        .unwrap_or_else(|| Standing::new(game)))
}

/// A player's tag with their rating in `game`.
pub async fn tag(
    c: &impl GenericClient,
    id: &str,
    game: Option<GameKind>,
    now_ms: u64,
) -> Result<Option<PlayerTag>, PlayerError> {
    let Some(player) = by_id(c, id).await? else {
        return Ok(None);
    };
    let (rating, provisional) = match game {
        Some(g) => {
            let r = standing(c, id, g).await?.rating_at(now_ms);
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

/// Records a finished game and, when it counts, both players' new ratings
/// (see [`super::sqlite::record`]); run it inside the transaction that
/// stores the room's result. The ratings rows are locked (`FOR UPDATE`)
/// while read, so two nodes finishing games of one player at once apply
/// both, one after the other.
pub async fn record(
    c: &impl GenericClient,
    game: &FinishedGame,
) -> Result<Option<[(Rating, Rating); 2]>, PlayerError> {
    let recorded: i64 = c
        .query_one(
            "SELECT COUNT(*) FROM games WHERE room = $1 AND game_no = $2",
            &[&game.room, &(game.game_no as i32)],
        )
        .await
        .map_err(db)?
        .get(0);
    if recorded > 0 {
        return Err(PlayerError::Conflict(format!(
            "game {} of room {} is recorded already",
            game.game_no, game.room
        )));
    }
    let mut changes = None;
    if let (None, Some(kind), [Some(a), Some(b)]) = (
        unrated_because(game),
        super::rated_kind(&game.spec),
        &game.players,
    ) {
        // Both rows locked in one order (by id), so two games never wait
        // on each other.
        c.execute(
            "SELECT 1 FROM ratings WHERE game = $1 AND player IN ($2, $3) ORDER BY player FOR UPDATE",
            &[&kind.slug(), a, b],
        )
        .await
        .map_err(db)?;
        let mut st = [standing(c, a, kind).await?, standing(c, b, kind).await?];
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
            let s = &st[i];
            c.execute(
                "INSERT INTO ratings (player, game, rating, deviation, volatility, games, wins, losses, draws, last_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                 ON CONFLICT (player, game) DO UPDATE SET rating = $3, deviation = $4, volatility = $5,
                 games = $6, wins = $7, losses = $8, draws = $9, last_ms = $10",
                &[
                    id,
                    &kind.slug(),
                    &s.rating.rating,
                    &s.rating.deviation,
                    &s.rating.volatility,
                    &(s.games as i32),
                    &(s.wins as i32),
                    &(s.losses as i32),
                    &(s.draws as i32),
                    &(s.last_ms as i64),
                ],
            )
            .await
            .map_err(db)?;
            c.execute(
                "INSERT INTO rating_history (player, game, at_ms, rating, deviation, room, game_no)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    id,
                    &kind.slug(),
                    &(game.finished_ms as i64),
                    &after[i].rating,
                    &after[i].deviation,
                    &game.room,
                    &(game.game_no as i32),
                ],
            )
            .await
            .map_err(db)?;
        }
        changes = Some([(before[0], after[0]), (before[1], after[1])]);
    }
    let spec = serde_json::to_string(&game.spec).map_err(|e| PlayerError::Db(e.to_string()))?;
    let outcome =
        serde_json::to_string(&game.outcome).map_err(|e| PlayerError::Db(e.to_string()))?;
    let side = |i: usize| changes.map(|c: [(Rating, Rating); 2]| (c[i].0.rating, c[i].1.rating));
    c.execute(
        "INSERT INTO games (room, game_no, game, spec, start, first, second, outcome, plies, clock_ms,
         rated, counted, first_before, first_after, second_before, second_after, finished_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
        &[
            &game.room,
            &(game.game_no as i32),
            &game.spec.kind().slug(),
            &spec,
            &game.start,
            &game.players[0],
            &game.players[1],
            &outcome,
            &(game.plies as i32),
            &(game.clock_ms as i64),
            &game.rated,
            &changes.is_some(),
            &side(0).map(|c| c.0),
            &side(0).map(|c| c.1),
            &side(1).map(|c| c.0),
            &side(1).map(|c| c.1),
            &(game.finished_ms as i64),
        ],
    )
    .await
    .map_err(db)?;
    Ok(changes)
}

const SUMMARY: &str = "SELECT g.room, g.game_no, g.spec, g.outcome, g.rated, g.counted,
    g.first_before, g.first_after, g.second_before, g.second_after, g.plies, g.clock_ms,
    g.finished_ms, g.first, a.name, g.second, b.name, g.start
    FROM games g LEFT JOIN players a ON a.id = g.first LEFT JOIN players b ON b.id = g.second";

fn summary_row(r: &Row) -> Option<(GameSummary, String)> {
    let game = serde_json::from_str::<Variant>(r.get(2)).ok()?;
    let outcome = serde_json::from_str::<Outcome>(r.get(3)).ok()?;
    let rating = |i: usize| r.get::<_, Option<f64>>(i).map(|x| shown(x) as u32);
    let tag = |id: usize, name: usize, after: Option<u32>| {
        let id: Option<String> = r.get(id);
        let name: Option<String> = r.get(name);
        id.zip(name).map(|(id, name)| PlayerTag {
            id,
            name,
            rating: after,
            provisional: false,
        })
    };
    let after = [rating(7), rating(9)];
    Some((
        GameSummary {
            room: r.get(0),
            game_no: r.get::<_, i32>(1) as u32,
            game,
            players: [tag(13, 14, after[0]), tag(15, 16, after[1])],
            outcome,
            rated: r.get(4),
            counted: r.get(5),
            before: [rating(6), rating(8)],
            after,
            plies: r.get::<_, i32>(10) as u32,
            clock_ms: r.get::<_, i64>(11) as u64,
            finished_ms: r.get::<_, i64>(12) as u64,
        },
        r.get(17),
    ))
}

/// One page (from 0) of a player's finished games, newest first, and how
/// many pages there are. A page past the last is refused.
pub async fn games(
    c: &impl GenericClient,
    id: &str,
    page: u32,
) -> Result<(Vec<GameSummary>, u32), PlayerError> {
    if page > super::MAX_PAGE {
        return Err(PlayerError::BadPage);
    }
    let total: i64 = c
        .query_one(
            "SELECT (SELECT COUNT(*) FROM games WHERE first = $1) + (SELECT COUNT(*) FROM games WHERE second = $1 AND (first IS NULL OR first <> $1))",
            &[&id],
        )
        .await
        .map_err(db)?
        .get(0);
    let pages = (total.max(0) as u32).div_ceil(GAMES_PER_PAGE).max(1);
    if page >= pages {
        return Err(PlayerError::BadPage);
    }
    let rows = c
        .query(
            &format!(
                "{SUMMARY} WHERE g.first = $1 OR g.second = $1 ORDER BY g.finished_ms DESC, g.room, g.game_no LIMIT $2 OFFSET $3"
            ),
            &[
                &id,
                &i64::from(GAMES_PER_PAGE),
                &i64::from(page * GAMES_PER_PAGE),
            ],
        )
        .await
        .map_err(db)?;
    Ok((
        rows.iter()
            .filter_map(summary_row)
            .map(|(g, _)| g)
            .collect(),
        pages,
    ))
}

/// A finished game with its start position.
pub async fn archived(
    c: &impl GenericClient,
    room: &str,
    game_no: u32,
) -> Result<Option<(GameSummary, String)>, PlayerError> {
    let Ok(no) = i32::try_from(game_no) else {
        return Ok(None);
    };
    c.query_opt(
        &format!("{SUMMARY} WHERE g.room = $1 AND g.game_no = $2"),
        &[&room, &no],
    )
    .await
    .map(|r| r.as_ref().and_then(summary_row))
    .map_err(db)
}

/// A player's rating after each rated game, the latest
/// [`super::HISTORY_POINTS`] per game, oldest first.
pub async fn history(c: &impl GenericClient, id: &str) -> Result<Vec<RatingHistory>, PlayerError> {
    let mut out = Vec::new();
    for game in GameKind::ALL {
        let rows = c
            .query(
                "SELECT at_ms, rating FROM rating_history WHERE player = $1 AND game = $2
                 ORDER BY at_ms DESC LIMIT $3",
                &[&id, &game.slug(), &i64::from(super::HISTORY_POINTS)],
            )
            .await
            .map_err(db)?;
        let mut points: Vec<[u64; 2]> = rows
            .iter()
            .map(|r| [r.get::<_, i64>(0) as u64, shown(r.get::<_, f64>(1)) as u64])
            .collect();
        if !points.is_empty() {
            points.reverse();
            out.push(RatingHistory { game, points });
        }
    }
    Ok(out)
}

/// The best active, non-provisional players of `game` (see
/// [`super::sqlite::leaderboard`]).
pub async fn leaderboard(
    c: &impl GenericClient,
    game: GameKind,
    now_ms: u64,
) -> Result<Vec<BoardRow>, PlayerError> {
    let since = now_ms.saturating_sub(super::ACTIVE_MS) as i64;
    let rows = c
        .query(
            "SELECT r.player, p.name, r.game, r.rating, r.deviation, r.volatility, r.games,
             r.wins, r.losses, r.draws, r.last_ms
             FROM ratings r JOIN players p ON p.id = r.player
             WHERE r.game = $1 AND r.last_ms >= $2 AND r.deviation <= $3
             ORDER BY r.rating DESC, r.player LIMIT $4",
            &[
                &game.slug(),
                &since,
                &super::glicko::PROVISIONAL_DEVIATION,
                &((super::LEADERBOARD_ROWS * 2) as i64),
            ],
        )
        .await
        .map_err(db)?;
    Ok(rows
        .iter()
        .filter_map(|r| {
            let st = standing_row(r, 2)?;
            let rating = st.rating_at(now_ms);
            (st.rating.is_sane() && !rating.provisional()).then(|| BoardRow {
                player: PlayerTag {
                    id: r.get(0),
                    name: r.get(1),
                    rating: Some(shown(rating.rating) as u32),
                    provisional: false,
                },
                games: st.games,
            })
        })
        .take(super::LEADERBOARD_ROWS)
        .collect())
}
