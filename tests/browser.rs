//! Browser tests: the real components mounted in headless Chromium
//! (`make test-browser`, or `wasm-pack test --headless --chrome`).
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use stoneplay::games::any::AnyRecord;
use stoneplay::games::ataxx::{Ataxx, AtaxxRules, NoMoveRule};
use stoneplay::games::mill::Mill;
use stoneplay::games::stones::{Stones, StonesRules};
use stoneplay::games::{Game, Record};
use stoneplay::ui::game::{GameScreen, Resume};
use stoneplay::ui::games::UiGame;
use stoneplay::ui::link::{load_query, query_for};
use stoneplay::ui::review::review_view;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts a game screen for `record` in a fresh container.
fn mount<G: UiGame>(record: Record<G>, clock_secs: u32) -> Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let host: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    host.style().set_property("width", "900px").unwrap();
    doc.body().unwrap().append_child(&host).unwrap();
    leptos::mount::mount_to(host.clone(), move || {
        view! { <GameScreen<G> initial=record clock_secs=clock_secs review=Callback::new(review_view::<G>)/> }
    })
    .forget();
    host.unchecked_into()
}

/// Mounts a Territory Duel game from `fen`.
fn mount_game(fen: &str, clock_secs: u32) -> Element {
    mount(
        Record::new(Ataxx::from_text(fen, &AtaxxRules::default()).unwrap()),
        clock_secs,
    )
}

/// Lets Leptos run its effects and update the DOM.
async fn settle() {
    TimeoutFuture::new(30).await;
}

fn count(root: &Element, selector: &str) -> u32 {
    root.query_selector_all(selector).unwrap().length()
}

fn square(root: &Element, name: &str) -> Element {
    root.query_selector(&format!("[data-square='{name}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("no square {name}"))
}

fn has_class(el: &Element, class: &str) -> bool {
    el.class_list().contains(class)
}

/// A press and release at the centre of a square, as a mouse click or tap does.
async fn click_square(root: &Element, name: &str) {
    click_at(root, &square(root, name)).await;
}

/// A press and release at the centre of a Mill point.
async fn click_point(root: &Element, name: &str) {
    let el = root
        .query_selector(&format!("[data-point='{name}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("no point {name}"));
    click_at(root, &el).await;
}

async fn click_at(root: &Element, target: &Element) {
    let rect = target
        .query_selector("rect")
        .unwrap()
        .unwrap()
        .get_bounding_client_rect();
    let (x, y) = (
        (rect.left() + rect.width() / 2.0) as i32,
        (rect.top() + rect.height() / 2.0) as i32,
    );
    let svg = root.query_selector("svg.board").unwrap().unwrap();
    for kind in ["pointerdown", "pointerup"] {
        let init = web_sys::PointerEventInit::new();
        init.set_bubbles(true);
        init.set_cancelable(true);
        init.set_client_x(x);
        init.set_client_y(y);
        init.set_button(0);
        init.set_pointer_id(1);
        let ev = web_sys::PointerEvent::new_with_event_init_dict(kind, &init).unwrap();
        svg.dispatch_event(&ev).unwrap();
    }
    settle().await;
}

/// The text of the element `selector` names; a missing element fails the test.
fn text(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element {selector}"))
        .text_content()
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn board_renders_49_squares_and_4_pieces() {
    let root = mount_game("x5o/7/7/7/7/7/o5x x 0 1", 30);
    settle().await;
    assert_eq!(count(&root, "[data-square]"), 49);
    assert_eq!(count(&root, ".piece"), 4);
    assert_eq!(count(&root, ".piece.px"), 2);
    assert_eq!(count(&root, ".piece.po"), 2);
    assert_eq!(
        square(&root, "a7").get_attribute("aria-label").unwrap(),
        "a7, X piece"
    );
    assert!(text(&root, "[data-testid=status]").contains("X to move"));
}

#[wasm_bindgen_test]
async fn click_selects_and_shows_clone_and_jump_targets() {
    let root = mount_game("x5o/7/7/7/7/7/o5x x 0 1", 30);
    settle().await;
    click_square(&root, "a7").await;
    assert!(has_class(&square(&root, "a7"), "selected"));
    assert_eq!(count(&root, ".target-clone"), 3);
    assert_eq!(count(&root, ".target-jump"), 5);
    assert_eq!(count(&root, ".hint-clone"), 3);
    assert_eq!(count(&root, ".hint-jump"), 5);
    // Clicking an empty square that is no target deselects.
    click_square(&root, "d4").await;
    assert_eq!(count(&root, ".selected"), 0);
    assert_eq!(count(&root, ".target-clone"), 0);
    // The opponent's piece cannot be selected.
    click_square(&root, "a1").await;
    assert_eq!(count(&root, ".selected"), 0);
}

#[wasm_bindgen_test]
async fn a_move_flips_neighbours_and_passes_the_turn() {
    let root = mount_game("6o/7/7/7/7/1o5/x6 x 0 1", 30);
    settle().await;
    click_square(&root, "a1").await;
    click_square(&root, "b1").await;
    assert_eq!(
        count(&root, ".piece.px"),
        3,
        "a1, the clone on b1, flipped b2"
    );
    assert_eq!(count(&root, ".piece.po"), 1);
    let b2 = square(&root, "b2")
        .query_selector(".piece")
        .unwrap()
        .unwrap();
    assert!(has_class(&b2, "px") && has_class(&b2, "flip"));
    assert!(has_class(&square(&root, "b1"), "last-to"));
    assert!(text(&root, "[data-testid=status]").contains("O to move"));
    assert!(text(&root, "[data-testid=notice]").contains("flips 1 piece"));
    assert_eq!(text(&root, "[data-testid=score-first] .chip-count"), "3");
    // A jump: O g7 to e5 leaves g7 empty.
    click_square(&root, "g7").await;
    click_square(&root, "e5").await;
    assert!(square(&root, "g7")
        .query_selector(".piece")
        .unwrap()
        .is_none());
    assert!(has_class(&square(&root, "g7"), "last-from"));
}

#[wasm_bindgen_test]
async fn pause_stops_the_clock_and_blocks_moves() {
    let root = mount_game("x5o/7/7/7/7/7/o5x x 0 1", 30);
    settle().await;
    let pause: HtmlElement = root
        .query_selector("[data-testid=pause]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    TimeoutFuture::new(1_200).await;
    let before_pause = text(&root, "[data-testid=clock]");
    assert_ne!(before_pause, "0:30", "the clock runs before pausing");
    pause.click();
    settle().await;
    let at_pause = text(&root, "[data-testid=clock]");
    TimeoutFuture::new(1_500).await;
    assert_eq!(
        text(&root, "[data-testid=clock]"),
        at_pause,
        "paused clock must not move"
    );
    click_square(&root, "a7").await;
    assert_eq!(count(&root, ".selected"), 0, "no selection while paused");
    pause.click();
    settle().await;
    TimeoutFuture::new(1_200).await;
    assert_ne!(
        text(&root, "[data-testid=clock]"),
        at_pause,
        "the clock runs again after resume"
    );
}

#[wasm_bindgen_test]
async fn running_out_of_time_loses() {
    let root = mount_game("x5o/7/7/7/7/7/o5x x 0 1", 1);
    TimeoutFuture::new(1_400).await;
    let result = text(&root, "[data-testid=result]");
    assert!(
        result.contains("X ran out of time — O wins."),
        "got {result:?}"
    );
}

#[wasm_bindgen_test]
async fn stones_board_shows_pins_targets_and_a_pinning_jump() {
    let pos = Stones::from_text("W:a1,b2*,c1,c3,g2,h4 B:a5,e4*,f6,g5* w", &StonesRules).unwrap();
    let root = mount(Record::new(pos), 30);
    settle().await;
    assert_eq!(count(&root, "[data-square]"), 64);
    assert_eq!(count(&root, ".piece"), 10);
    assert_eq!(count(&root, ".piece.pinned"), 3);
    assert_eq!(
        count(&root, ".piece.pinned .pin"),
        3,
        "pins are marked by a cross, not colour alone"
    );
    assert!(square(&root, "b2")
        .get_attribute("aria-label")
        .unwrap()
        .contains("pinned"));
    click_square(&root, "c3").await;
    assert_eq!(count(&root, ".target-slide"), 3, "c3-b4, c3-d4, c3-e5");
    assert_eq!(count(&root, ".target-jump"), 1, "c3xf6-g7");
    assert!(has_class(&square(&root, "f6"), "jump-over"));
    click_square(&root, "g7").await;
    assert_eq!(count(&root, ".piece.pinned"), 4);
    let f6 = square(&root, "f6")
        .query_selector(".piece")
        .unwrap()
        .unwrap();
    assert!(has_class(&f6, "pinned") && has_class(&f6, "pin-now"));
    assert!(text(&root, "[data-testid=notice]").contains("pins the stone on f6"));
    assert!(text(&root, "[data-testid=status]").contains("Black to move"));
}

#[wasm_bindgen_test]
async fn mill_board_places_forms_a_mill_and_removes() {
    let root = mount(Record::new(Mill::start(&Default::default())), 30);
    settle().await;
    assert_eq!(count(&root, "[data-point]"), 24);
    assert_eq!(count(&root, ".piece.hand"), 18);
    assert!(text(&root, "[data-testid=status]").contains("White: place a piece (9 in hand)"));
    for p in ["a7", "b6", "d7", "d6"] {
        click_point(&root, p).await;
    }
    assert_eq!(count(&root, ".piece.hand"), 14);
    click_point(&root, "g7").await;
    assert!(text(&root, "[data-testid=status]").contains("remove a Black piece"));
    assert_eq!(count(&root, ".target-remove"), 2);
    assert_eq!(count(&root, ".mill-fresh"), 1, "the new mill is drawn");
    assert_eq!(count(&root, ".piece.in-mill"), 3);
    click_point(&root, "b6").await;
    assert_eq!(count(&root, ".piece.pb:not(.hand)"), 1);
    assert!(text(&root, "[data-testid=score-second]").contains("1 lost"));
    assert!(text(&root, "[data-testid=status]").contains("Black: place a piece"));
}

/// The seconds the clock shows ("0:28" is 28).
fn clock_secs(root: &Element) -> u32 {
    let shown = text(root, "[data-testid=clock]");
    let (m, s) = shown
        .split_once(':')
        .unwrap_or_else(|| panic!("a clock, not {shown:?}"));
    m.parse::<u32>().unwrap() * 60 + s.parse::<u32>().unwrap()
}

#[wasm_bindgen_test]
async fn the_move_clock_restarts_each_turn_and_a_mill_removal_is_the_same_turn() {
    let root = mount(Record::new(Mill::start(&Default::default())), 30);
    settle().await;
    // Each player uses 2.2 s; the next one still starts with 30 s.
    for p in ["a7", "b6", "d7", "d6"] {
        TimeoutFuture::new(2_200).await;
        assert!(clock_secs(&root) <= 28, "the clock runs before {p}");
        click_point(&root, p).await;
        assert_eq!(clock_secs(&root), 30, "a new turn after {p}");
    }
    // g7 closes a mill: the removal is part of White's turn, whose clock
    // (started after d6) runs on.
    TimeoutFuture::new(2_200).await;
    click_point(&root, "g7").await;
    assert!(text(&root, "[data-testid=status]").contains("remove a Black piece"));
    assert!(
        clock_secs(&root) <= 28,
        "the clock restarted between the mill and its removal"
    );
    click_point(&root, "b6").await;
    assert!(text(&root, "[data-testid=status]").contains("Black: place a piece"));
    assert_eq!(
        clock_secs(&root),
        30,
        "Black's turn starts after the removal"
    );
}

#[wasm_bindgen_test]
fn links_round_trip_and_bad_links_are_refused() {
    let Ok(Some(AnyRecord::Mill(r))) = load_query("?game=mill&rules=lasker&moves=d6.f4") else {
        panic!("a Lasker link loads");
    };
    assert_eq!(r.moves().len(), 2);
    assert_eq!(r.position().rules().pieces, 10);
    assert_eq!(query_for(&r), "?game=mill&rules=lasker&moves=d6.f4");

    let Ok(Some(AnyRecord::Ataxx(r))) = load_query("?game=ataxx&moves=b6.a1a3") else {
        panic!("an ataxx link loads");
    };
    assert_eq!(r.moves().len(), 2);
    let custom = "?game=stones&pos=W%3Aa1%2Cb2*%20B%3Ah8%20w";
    let Ok(Some(AnyRecord::Stones(s))) = load_query(custom) else {
        panic!("a custom stones position loads");
    };
    assert_eq!(s.position().to_text(), "W:a1,b2* B:h8 w");
    assert_eq!(query_for(&s), custom);

    // Against the computer the link restates the lose rule, as the page
    // writes it; without `nomove=` it is the lose rule all the same.
    for query in ["?game=ataxx&vs=master&nomove=lose", "?game=ataxx&vs=master"] {
        let Ok(Some(AnyRecord::Ataxx(r))) = load_query(query) else {
            panic!("{query} loads");
        };
        assert_eq!(r.position().rules().no_move, NoMoveRule::Lose, "{query}");
    }

    assert!(load_query("").unwrap().is_none());
    let bad = [
        ("?game=chess", "unknown game"),
        // The move list's numbering (issue 36): b6 is X's move 1, so the
        // bad second half-move is O's, still move 1.
        ("?game=ataxx&moves=b6.zz", "move 1 (zz) could not be read"),
        ("?game=ataxx&moves=b6.b6", "move 1 (b6) is not legal"),
        ("?game=mill&rules=bogus", "unknown Mill rules"),
        ("?game=mill&pieces=40", "pieces"),
        (
            "?game=ataxx&pos=x5o%2F7",
            "position ‘x5o/7’ could not be read",
        ),
        ("?game=ataxx&moves=%E0%A4%A", "not validly encoded"),
        // The mode decides the no-move rule (issue 38): a link cannot
        // choose another.
        (
            "?game=ataxx&nomove=lose",
            "nomove=lose is only for games against the computer",
        ),
        (
            "?game=ataxx&vs=master&nomove=pass",
            "nomove=pass is only for two players",
        ),
    ];
    for (query, expected) in bad {
        match load_query(query) {
            Err(e) => {
                let e = e.describe(stoneplay::i18n::Lang::En);
                assert!(e.contains(expected), "{query}: {e}")
            }
            Ok(_) => panic!("{query} should be refused"),
        }
    }
}

#[wasm_bindgen_test]
fn the_worker_protocol_searches_in_wasm_and_refuses_bad_requests() {
    use stoneplay::ai::worker::serve;
    use stoneplay::games::any::Variant;
    use stoneplay::games::ataxx::START_FEN;
    use stoneplay::protocol::{Request, Response};
    let perf = web_sys::window().unwrap().performance().unwrap();
    let clock = move || perf.now();
    let think = |moves: Vec<&str>, level: &str| Request::Think {
        id: 7,
        game: Variant::Ataxx(AtaxxRules::default()),
        start: START_FEN.to_string(),
        moves: moves.into_iter().map(String::from).collect(),
        level: level.to_string(),
        movetime_ms: Some(200),
        seed: 1,
    };
    let mut infos = 0;
    let answer = serve(&think(vec!["b6"], "master"), &clock, &mut |r| {
        assert!(matches!(r, Response::Info { id: 7, .. }));
        infos += 1;
    });
    let Response::Best {
        id: 7,
        mv: Some(mv),
        nodes,
        ..
    } = answer
    else {
        panic!("expected a move, got {answer:?}");
    };
    assert!(infos > 0 && nodes > 0);
    let mut record = Record::new(Ataxx::start(&AtaxxRules::default()));
    record.play_text("b6").unwrap();
    record.play_text(&mv).expect("the worker's move is legal");

    for (request, expected) in [
        (think(vec!["b6", "zz"], "master"), "move 2 (zz)"),
        (think(vec![], "grandmaster"), "unknown level"),
    ] {
        match serve(&request, &clock, &mut |_| {}) {
            Response::Error { id: 7, message } => assert!(message.contains(expected), "{message}"),
            other => panic!("expected an error, got {other:?}"),
        }
    }
}

#[wasm_bindgen_test]
async fn a_player_without_a_move_passes_and_the_page_says_so() {
    // O on a1 is walled in by X: after X's move O must pass.
    let root = mount_game("7/7/7/7/xxx4/xxx4/oxx4 x 0 1", 30);
    settle().await;
    click_square(&root, "c1").await;
    click_square(&root, "d1").await;
    settle().await;
    assert!(
        text(&root, "[data-testid=notice]").contains("O has no legal move and passes"),
        "notice: {}",
        text(&root, "[data-testid=notice]")
    );
    assert!(text(&root, "[data-testid=status]").contains("X to move"));
    assert_eq!(
        root.query_selector_all(".movelist .mv").unwrap().length(),
        2,
        "d1 and the pass 0000"
    );
}

fn button(root: &Element, testid: &str) -> HtmlElement {
    root.query_selector(&format!("[data-testid={testid}]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no {testid} button"))
        .unchecked_into()
}

fn move_texts(root: &Element) -> Vec<String> {
    let list = root.query_selector_all(".movelist button.mv").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i).and_then(|n| n.text_content()))
        .collect()
}

#[wasm_bindgen_test]
async fn undo_and_redo_one_move_at_a_time_with_two_players() {
    let root = mount_game("x5o/7/7/7/7/7/o5x x 0 1", 30);
    settle().await;
    click_square(&root, "a7").await;
    click_square(&root, "b6").await;
    click_square(&root, "a1").await;
    click_square(&root, "a3").await;
    assert_eq!(move_texts(&root), ["b6", "a1a3"]);
    button(&root, "undo").click();
    settle().await;
    assert_eq!(move_texts(&root), ["b6"]);
    assert!(text(&root, "[data-testid=status]").contains("O to move"));
    button(&root, "redo").click();
    settle().await;
    assert_eq!(move_texts(&root), ["b6", "a1a3"]);
    // A new move after an undo clears what could be redone.
    button(&root, "undo").click();
    settle().await;
    click_square(&root, "g7").await;
    click_square(&root, "f6").await;
    assert_eq!(move_texts(&root), ["b6", "f6"]);
    assert!(button(&root, "redo").has_attribute("disabled"));
}

#[wasm_bindgen_test]
async fn the_move_list_shows_earlier_positions_read_only() {
    let mut record = Record::new(Ataxx::start(&AtaxxRules::default()));
    for m in ["b6", "b2", "a7a5"] {
        record.play_text(m).unwrap();
    }
    let root = mount(record, 30);
    settle().await;
    let first: HtmlElement = root
        .query_selector(".movelist button.mv")
        .unwrap()
        .unwrap()
        .unchecked_into();
    first.click();
    settle().await;
    assert_eq!(count(&root, ".piece"), 5, "after b6");
    // The move list's numbering: b6 b2 a7a5 is two numbered moves.
    let line = text(&root, "[data-testid=lookback-line]");
    assert!(line.contains("Looking back at move 1 of 2"), "{line}");
    click_square(&root, "b6").await;
    assert_eq!(count(&root, ".selected"), 0, "the past is read-only");
    button(&root, "live").click();
    settle().await;
    assert_eq!(count(&root, ".piece"), 6);
    // Back on the live game, the look-back line is gone.
    assert_eq!(count(&root, "[data-testid=lookback]"), 0);
}

#[wasm_bindgen_test]
async fn a_resumed_game_starts_paused_with_its_time_left() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let host: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let mut record = Record::new(Ataxx::start(&AtaxxRules::default()));
    record.play_text("b6").unwrap();
    leptos::mount::mount_to(host.clone(), move || {
        let resume = Some(Resume {
            left_ms: Some(12_300.0),
            outcome: None,
            online: None,
        });
        view! { <GameScreen<Ataxx> initial=record clock_secs=30 resume=resume review=Callback::new(review_view::<Ataxx>)/> }
    })
    .forget();
    let root: Element = host.unchecked_into();
    settle().await;
    assert!(text(&root, "[data-testid=status]").contains("Paused"));
    assert_eq!(text(&root, "[data-testid=clock]"), "0:13");
    TimeoutFuture::new(1_100).await;
    assert_eq!(
        text(&root, "[data-testid=clock]"),
        "0:13",
        "paused on return"
    );
    button(&root, "pause").click();
    TimeoutFuture::new(1_100).await;
    assert_eq!(
        text(&root, "[data-testid=clock]"),
        "0:12",
        "resumes from the time left"
    );
}

#[wasm_bindgen_test]
fn settings_and_saved_games_survive_a_reload_of_storage() {
    use stoneplay::ui::store::{self, SavedGame, Settings, Theme};
    let s = Settings {
        theme: Theme::Dark,
        flip_board: true,
        clock_secs: 15,
        level: stoneplay::ai::Level::Master,
        ..Default::default()
    };
    store::save_settings(&s);
    assert_eq!(store::load_settings(), s);

    let game = SavedGame {
        id: 99,
        query: "?game=ataxx&moves=b6".into(),
        kind: stoneplay::games::GameKind::Ataxx,
        clock_left_ms: Some(4_000.0),
        plies: 1,
        outcome: None,
        updated: store::now_epoch_ms(),
        online: None,
    };
    store::save_game(game.clone());
    assert_eq!(store::saved_games().first(), Some(&game));
    // Issue 37: a finished online game stays online when the game screen
    // saves it again as it sees it (a local record, no origin).
    let origin = store::OnlineOrigin {
        room: "abcdefghijklmnop".into(),
        server: None,
        you: Some(stoneplay::games::Side::First),
        names: [Some("Ana".into()), None],
    };
    store::save_game(SavedGame {
        online: Some(origin.clone()),
        ..game.clone()
    });
    store::save_game(game.clone());
    assert_eq!(store::saved_games()[0].online, Some(origin));
    store::forget_game(99);
    assert!(store::saved_games().iter().all(|g| g.id != 99));

    // Unreadable stored values fall back to the defaults instead of failing.
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.set_item("stoneplay.settings", "{not json").unwrap();
    assert_eq!(store::load_settings(), Settings::default());
    storage.remove_item("stoneplay.settings").unwrap();
}

/// Checks in WebAssembly the scores tests/ai_levels.rs checks natively:
/// `data` holds a position text (read by `parse`), a tab and its score per
/// line, with `#` comments and blank lines; at least 8 positions.
fn scores_as_natively<G: stoneplay::ai::Evaluate>(
    data: &str,
    parse: impl Fn(&str) -> Result<G, stoneplay::games::GameError>,
) {
    let mut checked = 0;
    for line in data.lines() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (text, want) = line.split_once('\t').expect("position<TAB>score");
        let pos = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos.evaluate().to_string(), want, "{text}");
        checked += 1;
    }
    assert!(checked >= 8, "{checked}");
}

/// Territory Duel's network gives in WebAssembly exactly the scores
/// tests/ai_levels.rs checks natively (tests/data/ataxx_eval.txt).
#[wasm_bindgen_test]
fn territory_duel_weights_score_as_natively() {
    let rules = AtaxxRules::default();
    scores_as_natively(include_str!("data/ataxx_eval.txt"), |text| {
        Ataxx::from_text(text, &rules)
    });
}

/// Territory Duel's pattern tables (the lower levels' evaluation) likewise
/// (tests/data/ataxx_tables_eval.txt).
#[wasm_bindgen_test]
fn territory_duel_tables_score_as_natively() {
    use stoneplay::ai::Evaluate;
    let rules = AtaxxRules::default();
    for line in include_str!("data/ataxx_tables_eval.txt").lines() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (text, want) = line.split_once('\t').expect("position<TAB>score");
        let pos = Ataxx::from_text(text, &rules).unwrap();
        assert_eq!(pos.evaluate_plain().to_string(), want, "{text}");
    }
}

/// In WebAssembly the network's `simd128` kernels give the scalar
/// kernels' numbers, through refreshes and through move-by-move updates
/// along random games: the committed net, and a random net of 2×2 window
/// inputs (`nnue::Inputs::Windows`).
#[wasm_bindgen_test]
fn territory_duel_network_simd_matches_scalar() {
    use stoneplay::ai::eval::nnue;
    use stoneplay::ai::SplitMix64;
    use stoneplay::games::Side;
    let windows = nnue::Net::from_bytes(&nnue::random_net_file(nnue::Inputs::Windows, 4, 2))
        .expect("a valid random window net");
    let mut rng = SplitMix64::new(5);
    let mut checked = 0;
    for game in 0..8 {
        let mut pos = Ataxx::start(&AtaxxRules::default());
        let mut path = Vec::new();
        while pos.outcome().is_none() && path.len() < 120 {
            path.push((pos.pieces_bb(Side::First), pos.pieces_bb(Side::Second)));
            let stm = pos.side_to_move().index();
            let scores = if game % 2 == 0 {
                nnue::scores_by_kernels(&path, stm)
            } else {
                nnue::scores_by_kernels_with(&windows, &path, stm)
            };
            assert_eq!(scores.len(), 2, "scalar and simd128");
            assert_eq!(scores[1].0, "simd128");
            let (_, want, _) = scores[0];
            for &(name, fresh, updated) in &scores {
                assert_eq!((fresh, updated), (want, want), "{name}");
            }
            checked += 1;
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 200, "{checked}");
}

/// The committed Stones! weights score tests/data/stones_eval.txt in
/// WebAssembly exactly as natively (tests/ai_levels.rs).
#[wasm_bindgen_test]
fn stones_weights_score_as_natively() {
    scores_as_natively(include_str!("data/stones_eval.txt"), |text| {
        Stones::from_text(text, &StonesRules)
    });
}

/// The committed Mill weights score tests/data/mill_eval.txt in
/// WebAssembly exactly as natively (tests/ai_levels.rs).
#[wasm_bindgen_test]
fn mill_weights_score_as_natively() {
    let rules = stoneplay::games::mill::Preset::NineMensMorris.rules();
    scores_as_natively(include_str!("data/mill_eval.txt"), |text| {
        Mill::from_text(text, &rules)
    });
}
