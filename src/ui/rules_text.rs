//! The rules pages shown to players, one per game, written from the rules
//! contracts in shared/rules/ (territory-duel.md, stones.md, mill.md). Pure
//! data: plain text, no markup, so any view can lay it out.

/// One rules page.
pub struct RulesPage {
    /// The game's name.
    pub title: &'static str,
    /// One or two sentences: what the game is about.
    pub summary: &'static str,
    /// The page body, in reading order.
    pub sections: &'static [Section],
}

/// A headed section: paragraphs and/or bullet points.
pub struct Section {
    /// The section heading.
    pub heading: &'static str,
    /// Paragraphs, shown before the bullets.
    pub paragraphs: &'static [&'static str],
    /// Bullet points, shown after the paragraphs.
    pub bullets: &'static [&'static str],
}

/// Territory Duel (the Ataxx family).
pub const ATAXX: RulesPage = RulesPage {
    title: "Territory Duel",
    summary: "Spread your pieces across the board and flip your opponent’s. \
              When the game ends, the side with more pieces wins.",
    sections: &[
        Section {
            heading: "Board and start",
            paragraphs: &[
                "The board has 7×7 squares: files a–g from the left, ranks 1–7 from the bottom.",
                "There are two sides, X and O. X moves first, then you take turns. \
                 Each side starts with two pieces in opposite corners: X on a7 and g1, O on a1 and g7.",
            ],
            bullets: &[],
        },
        Section {
            heading: "Your move",
            paragraphs: &[
                "Pick one of your pieces and an empty square near it. \
                 Tap a piece to see where it can go.",
            ],
            bullets: &[
                "Clone: move to one of the 8 squares touching your piece, diagonals included. \
                 A new piece appears there, and your piece stays where it was.",
                "Jump: move to a square exactly two steps away (the 16 squares of the ring just \
                 outside the touching ones). Your piece moves there and its old square becomes empty.",
                "Then every opponent piece on the 8 squares around the square you moved to becomes yours. \
                 There is no chain reaction: flipped pieces flip nothing.",
            ],
        },
        Section {
            heading: "No move, and gaps",
            paragraphs: &[],
            bullets: &[
                "Two players: if you have no clone or jump, you pass and your opponent moves again.",
                "Against the computer: if you have no clone or jump, you lose at once, \
                 even with pieces on the board. This goes for the computer too.",
                "Some boards have gaps: blocked squares. Nothing can stand on a gap or move to one. \
                 The standard board has none.",
            ],
        },
        Section {
            heading: "End of the game",
            paragraphs: &[
                "After every move or pass, the game ends if:",
            ],
            bullets: &[
                "the board has no empty square (gaps don’t count);",
                "a side has no pieces left;",
                "neither side can move;",
                "the same position, with the same side to move, occurs for the third time;",
                "80 jumps in a row, counting both sides, flip nothing. A clone, or any move that \
                 flips a piece, starts the count again; a pass doesn’t count.",
            ],
        },
        Section {
            heading: "Who wins",
            paragraphs: &[
                "When the game ends in one of those ways, the side with more pieces wins. \
                 Equal counts are a draw.",
                "You lose at once if you cannot move against the computer, \
                 if your clock runs out, or if you resign.",
            ],
            bullets: &[],
        },
        Section {
            heading: "Clock",
            paragraphs: &[],
            bullets: &[
                "You have 30 seconds for each move. The clock starts again every turn; \
                 unused time is not kept.",
                "If your time runs out, you lose.",
                "Pause stops the clock. When you resume, it goes on from the time left.",
                "30 seconds is the default: you can choose another time, or no clock.",
            ],
        },
        Section {
            heading: "Notation",
            paragraphs: &["The move list names squares by file and rank."],
            bullets: &[
                "A clone is its target square: b6.",
                "A jump is its start square, then its target: a7c5.",
                "A pass is 0000.",
            ],
        },
    ],
};

/// Stones!
pub const STONES: RulesPage = RulesPage {
    title: "Stones!",
    summary: "Race your stones to the far side of the board. \
              Jumping never captures: it pins an opponent’s stone or frees one of your own.",
    sections: &[
        Section {
            heading: "Board and start",
            paragraphs: &[
                "The board has 8×8 squares, all in use: files a–h, ranks 1–8. \
                 White has eight stones on a1–h1, Black eight on a8–h8. White moves first.",
                "Forward is up the board for White and down for Black. \
                 Every stone starts unpinned. A pinned stone cannot move. \
                 Stones never leave the board.",
            ],
            bullets: &[],
        },
        Section {
            heading: "Your move",
            paragraphs: &["Move exactly one of your unpinned stones, once. \
                 Tap a stone to see where it can go."],
            bullets: &[
                "Slide: move diagonally forward over any number of empty squares, \
                 and stop on any of them. There is no sideways slide.",
                "Jump: if the first stone on that diagonal can be jumped, you may jump over it \
                 to the empty square just beyond it, and stop there. \
                 A slide and then a jump are one move.",
                "Sideways jump: if the stone right next to yours, left or right, can be jumped \
                 and the square beyond it on the same rank is empty, you may jump over it.",
                "You jump at most once per turn, and jumping is never forced.",
            ],
        },
        Section {
            heading: "Which stones can be jumped",
            paragraphs: &[
                "You can never jump your own unpinned stones or your opponent’s pinned ones. \
                 Jumping never changes the stone that jumps.",
            ],
            bullets: &[
                "An unpinned opponent stone: it becomes pinned.",
                "A pinned stone of your own: it becomes unpinned and can move again.",
            ],
        },
        Section {
            heading: "The far rank",
            paragraphs: &["Your far rank is rank 8 for White and rank 1 for Black. \
                 A stone that gets there stays in play: it can no longer move forward, \
                 but it can still jump sideways and be jumped sideways."],
            bullets: &[],
        },
        Section {
            heading: "End of the game",
            paragraphs: &[
                "At the start of each turn, if the player to move has no legal move, \
                 the game ends. The other player’s moves don’t matter.",
                "Each player then counts their unpinned stones on their far rank. \
                 More wins. Pinned stones there count zero. \
                 Equal counts, 0–0 included, are a draw.",
                "You lose at once if your clock runs out or if you resign. \
                 Slides only go forward, so every game ends and there is no repetition rule.",
            ],
            bullets: &[],
        },
        Section {
            heading: "Clock",
            paragraphs: &[],
            bullets: &[
                "You have 30 seconds for each move by default; you can choose another time.",
                "If your time runs out, you lose.",
                "Pause stops the clock. When you resume, it goes on from the time left.",
            ],
        },
        Section {
            heading: "Notation",
            paragraphs: &["The move list names squares a1–h8. A jump names the stone it jumps."],
            bullets: &[
                "A slide: c3-e5.",
                "A slide and a jump: c3xf6-g7 (from c3, over f6, landing on g7).",
                "A sideways jump: d4xe4-f4.",
            ],
        },
    ],
};

/// Mill (Nine Men’s Morris and its family).
pub const MILL: RulesPage = RulesPage {
    title: "Mill",
    summary: "Make rows of three, called mills. Each mill removes one of your opponent’s pieces.",
    sections: &[
        Section {
            heading: "Board and start",
            paragraphs: &[
                "The board has 24 points on three nested squares joined at the middle of each side. \
                 Points are named like a 7×7 grid: files a–g, ranks 1–7.",
                "White moves first, then Black. In Nine Men’s Morris, the default, \
                 each player starts with 9 pieces in hand and an empty board.",
            ],
            bullets: &[],
        },
        Section {
            heading: "Your move",
            paragraphs: &["Tap a piece to see where it can go."],
            bullets: &[
                "Placing: take turns putting a piece from your hand on any empty point.",
                "Moving: once all pieces are placed, slide a piece along a line \
                 to the next point, if it is empty.",
                "Flying: when you are down to 3 pieces, you may move a piece to any empty point.",
            ],
        },
        Section {
            heading: "Mills",
            paragraphs: &[],
            bullets: &[
                "Three of your pieces on one line form a mill. There are 16 lines: \
                 the sides of the three squares and the four lines joining them.",
                "When your placement or move forms a mill, you then remove one opponent piece.",
                "You can’t remove a piece that stands in a mill, \
                 unless all of your opponent’s pieces stand in mills.",
            ],
        },
        Section {
            heading: "End of the game",
            paragraphs: &[],
            bullets: &[
                "You lose when you are down to 2 pieces.",
                "You lose if you cannot move in the moving phase.",
                "A position that occurs for the third time is a draw.",
                "100 moves in a row, counting both players, without a removal is a draw.",
                "If placing fills all 24 points, White (the first player) loses.",
                "You lose if your clock runs out or if you resign.",
            ],
        },
        Section {
            heading: "Clock",
            paragraphs: &[
                "You have 30 seconds for each move by default; you can choose another time. \
                 A removal is part of the turn that formed the mill. \
                 If your time runs out, you lose. Pause stops the clock.",
            ],
            bullets: &[],
        },
        Section {
            heading: "Variants",
            paragraphs: &[
                "Choose a preset, then change single options if you like: pieces per side (9–12), \
                 diagonal lines, flying, removing from mills, the no-removal draw and more.",
            ],
            bullets: &[
                "Nine Men’s Morris: 9 pieces each, the rules above.",
                "Twelve Men’s Morris: 12 pieces each; the four corner diagonals are lines too.",
                "Morabaraba: like Twelve Men’s Morris, and two mills at once remove two pieces.",
                "Lasker Morris: 10 pieces each; while placing, you may slide a piece instead.",
                "Russian Mill: 9 pieces each; a mill counts only the first time it is formed.",
                "Cheng San Qi: 9 pieces each; no flying.",
                "Da San Qi: 12 pieces each with diagonals, no flying; a removed point stays \
                 closed until placing ends; Black starts moving; pieces in mills may always be removed.",
            ],
        },
        Section {
            heading: "Notation",
            paragraphs: &[],
            bullets: &[
                "A placement is its point: d6.",
                "A slide or flight is from-to: a1-a4.",
                "A removal: xd7, shown after the move that formed the mill: a1-a4xd7.",
            ],
        },
    ],
};
