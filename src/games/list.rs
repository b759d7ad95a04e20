//! The one list of games. Every game the app knows is one line of
//! [`for_each_game!`]: its kind (the variant's name in `GameKind`,
//! `Variant` and `AnyRecord`, also their names on the wire and in stored
//! games), its module in `games/` and its position type. What enumerates
//! the games is made from this list: the game modules' declarations,
//! `GameKind` (with `ALL`, the slugs and names), `Variant` and `AnyRecord`
//! (`games::any`), and the calls the layers above use to run generic code
//! for a game known only at run time:
//!
//! - [`with_game!`]`(kind, G => body)`: `body` with the type `G` being the
//!   game of a `GameKind`;
//! - [`with_variant!`]`(variant, G, rules => body)`: the same for a
//!   `Variant`, with `rules` bound to its rules;
//! - [`with_record!`]`(record, G, r => body)`: the same for an
//!   `AnyRecord`, with `r` bound to its `Record<G>`.
//!
//! Each expands to one `match` with an arm per game, so a game added to
//! the list is a compile error wherever a layer lacks what it needs (its
//! per-game trait impl), never a silent gap. A game's own files say the
//! rest: its name and slug (`TITLE`, `TAGLINE`, `SLUG` in its module), the
//! rules each mode plays ([`crate::games::Game::rules_for`]), and in each
//! layer its file or folder (the evaluation, the protocol, the screen).
//!
//! Adding a fourth game: its folder in `games/` (declared in
//! `games/mod.rs`), one line below, its file in each layer above (declared
//! in that layer's module: `ai/eval/`, `ai/uci/`, `ai/train/`,
//! `client/games/` (with its rules pages' diagrams), `ui/games/`,
//! `ui/board/`, `protocol/wire/`), its row in `ui/lazy.rs` (the page's
//! wasm chunks, whose names must be written out), the language tables
//! and the CSS. A layer that lacks the game's impl fails to compile.
//!
//! A list as a macro rather than a trait object or a registry: the games
//! are few and known when the crate is built, the search is generic over
//! the game and must stay monomorphised (no dynamic dispatch in the hot
//! path), and `Variant`'s serde form must stay an enum.

/// Calls `$callback! { ($args) Kind: module::Type, … }` with every game,
/// in picker order. `$callback` is a macro in scope where this is called.
#[macro_export]
macro_rules! for_each_game {
    ($callback:ident ! ($($args:tt)*)) => {
        $callback! { ($($args)*)
            Ataxx: ataxx::Ataxx,
            Stones: stones::Stones,
            Mill: mill::Mill,
        }
    };
}

/// Runs `$body` with `$G` the game type of `$kind` (a `GameKind`).
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {{
        use $crate::__with_game_arms;
        $crate::for_each_game!(__with_game_arms!($kind, $G, $body))
    }};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_arms {
    (($kind:expr, $G:ident, $body:expr) $($Kind:ident: $module:ident::$Type:ident,)*) => {
        match $kind {
            $($crate::games::GameKind::$Kind => {
                #[allow(dead_code)]
                type $G = $crate::games::$module::$Type;
                $body
            })*
        }
    };
}

/// Runs `$body` with `$G` the game of `$variant` (a `Variant` or a
/// reference to one) and its rules matched by `$rules`.
#[macro_export]
macro_rules! with_variant {
    ($variant:expr, $G:ident, $rules:pat => $body:expr) => {{
        use $crate::__with_variant_arms;
        $crate::for_each_game!(__with_variant_arms!($variant, $G, $rules, $body))
    }};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_variant_arms {
    (($variant:expr, $G:ident, $rules:pat, $body:expr) $($Kind:ident: $module:ident::$Type:ident,)*) => {
        match $variant {
            $($crate::games::any::Variant::$Kind($rules) => {
                #[allow(dead_code)]
                type $G = $crate::games::$module::$Type;
                $body
            })*
        }
    };
}

/// Runs `$body` with `$G` the game of `$record` (an `AnyRecord` or a
/// reference to one) and its `Record<$G>` matched by `$r`.
#[macro_export]
macro_rules! with_record {
    ($record:expr, $G:ident, $r:pat => $body:expr) => {{
        use $crate::__with_record_arms;
        $crate::for_each_game!(__with_record_arms!($record, $G, $r, $body))
    }};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_record_arms {
    (($record:expr, $G:ident, $r:pat, $body:expr) $($Kind:ident: $module:ident::$Type:ident,)*) => {
        match $record {
            $($crate::games::any::AnyRecord::$Kind($r) => {
                #[allow(dead_code)]
                type $G = $crate::games::$module::$Type;
                $body
            })*
        }
    };
}
