//! Which spots a move touches when the board draws it (src/client/mark.rs):
//! the hint and the review's better move, in every game.

use stoneplay::client::mark::{Mark, Marks};
use stoneplay::games::ataxx::{Ataxx, AtaxxRules};
use stoneplay::games::mill::{point_name, Mill, MillRules};
use stoneplay::games::stones::{square_name, Stones, StonesRules};
use stoneplay::games::{ataxx, Game};

/// The mark of `text` read in `pos`, with its spots named by `name`.
fn named<G: Marks>(pos: &G, text: &str, name: fn(u8) -> String) -> [Option<String>; 3] {
    let m = G::mark(pos.parse_move(text).unwrap());
    [m.from.map(name), m.to.map(name), m.removes.map(name)]
}

fn s(name: &str) -> Option<String> {
    Some(name.to_string())
}

#[test]
fn territory_duel_a_clone_marks_its_target_a_jump_both_ends_a_pass_nothing() {
    let pos = Ataxx::start(&AtaxxRules::default());
    let name = ataxx::square_name;
    assert_eq!(named(&pos, "b6", name), [None, s("b6"), None]);
    assert_eq!(named(&pos, "a7c5", name), [s("a7"), s("c5"), None]);
    let jump = Ataxx::mark(pos.parse_move("a7c5").unwrap());
    assert_eq!(jump.arrow(), Some((jump.from.unwrap(), jump.to.unwrap())));
    assert_eq!(Ataxx::mark(pos.parse_move("b6").unwrap()).arrow(), None);
    let pass = Ataxx::mark(pos.parse_move("0000").unwrap());
    assert_eq!(pass, Mark::default());
    assert!(pass.is_empty(), "a pass has nothing to draw");
    assert!(!jump.is_empty());
}

#[test]
fn stones_slides_and_jumps_go_from_their_square_to_the_landing_square() {
    let pos = Stones::from_text("W:c3,h1 B:d4,a8 w", &StonesRules).unwrap();
    assert_eq!(named(&pos, "c3-b4", square_name), [s("c3"), s("b4"), None]);
    // The jumped stone stays on the board (pinned): it is not a removal.
    assert_eq!(
        named(&pos, "c3xd4-e5", square_name),
        [s("c3"), s("e5"), None]
    );
}

#[test]
fn mill_placement_marks_the_point_a_slide_both_ends_a_removal_the_piece() {
    let pos = Mill::start(&MillRules::default());
    let name = |p: u8| point_name(p).to_string();
    assert_eq!(named(&pos, "d6", name), [None, s("d6"), None]);
    assert_eq!(named(&pos, "a1-a4", name), [s("a1"), s("a4"), None]);
    let remove = named(&pos, "xd7", name);
    assert_eq!(remove, [None, None, s("d7")]);
    let m = Mill::mark(pos.parse_move("xd7").unwrap());
    assert!(!m.is_empty() && m.arrow().is_none());
}
