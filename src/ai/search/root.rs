//! The root of the search: iterative deepening ([`Searcher::iterate`]:
//! when a new iteration may start under the soft limit, what an aborted
//! iteration still tells, the information line after each) and the search
//! of every root move, keeping exact scores within the margin of the best
//! (`search_root`). Moved unchanged from search.rs (issue 34).

use super::{
    to_tt, Bound, Control, RootMove, RootResult, SearchInfo, Searcher, TtEntry, INF, MATE,
    MATE_BOUND, MAX_DEPTH,
};
use crate::ai::eval::Evaluate;
use crate::games::Game;

impl<G: Game + Evaluate> Searcher<G> {
    /// Iterative deepening from `pos`. `history` holds the hashes of the
    /// game's earlier positions since its last irreversible move. The root
    /// keeps exact scores for every move within `margin` of the best.
    pub(crate) fn iterate(
        &mut self,
        pos: &G,
        history: &[u64],
        margin: i32,
        ctl: &Control,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> RootResult<G::Move> {
        self.nodes = 0;
        self.aborted = false;
        self.may_abort = false;
        self.path.clear();
        self.path.extend_from_slice(history);
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        let mut root: Vec<RootMove<G::Move>> = pos
            .legal_moves()
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INF,
                nodes: 0,
            })
            .collect();
        let tt_move = self.tt_probe(pos.hash()).and_then(|e| e.mv);
        root.sort_by_key(|r| {
            if Some(r.mv) == tt_move {
                i32::MIN
            } else {
                -pos.order_hint(r.mv)
            }
        });
        let mut result = RootResult {
            moves: root.clone(),
            depth: 0,
            pv: Vec::new(),
        };
        pos.acc_refresh(&mut self.accs[0]);
        if root.is_empty() {
            return result;
        }
        // How far the soft limit stretches (see `SearchLimits::soft_ms`).
        let mut soft_scale = 1.0;
        for depth in 1..=ctl.max_depth.clamp(1, MAX_DEPTH) {
            if depth > 1 {
                if let Some(soft) = ctl.soft_ms {
                    if ctl.clock.now_ms() >= ctl.start_ms + (soft - ctl.start_ms) * soft_scale {
                        break;
                    }
                }
            }
            if depth > 1 {
                self.may_abort = true;
                self.poll(ctl);
                if self.aborted {
                    break;
                }
            }
            let done = self.search_root(pos, &mut root, depth as i32, margin, ctl);
            if self.aborted {
                // The moves searched to the end in the unfinished iteration
                // include the previous best (it is searched first): if
                // another one beat it, it is the better choice.
                if let Some(b) = root[..done].iter().max_by_key(|r| r.score) {
                    if done > 1 && b.score > root[0].score && result.moves[0].mv != b.mv {
                        let b = *b;
                        result.moves.retain(|r| r.mv != b.mv);
                        result.moves.insert(0, b);
                        result.pv = vec![b.mv];
                    }
                }
                break;
            }
            if root.len() == 1 && ctl.deadline_ms.is_some() {
                // A single legal move needs no thinking time.
                let info = SearchInfo {
                    depth,
                    score: root[0].score,
                    nodes: self.nodes,
                    elapsed_ms: ctl.clock.now_ms() - ctl.start_ms,
                    pv: &[root[0].mv],
                };
                on_info(&info);
                result = RootResult {
                    moves: root.clone(),
                    depth,
                    pv: vec![root[0].mv],
                };
                break;
            }
            // Best first; moves outside the margin keep their old order.
            root.sort_by_key(|r| std::cmp::Reverse(r.score));
            // The best move's share of this iteration's nodes: near 1 it
            // is settled and the soft limit shrinks, low it stretches.
            let total: u64 = root.iter().map(|r| r.nodes).sum();
            if depth >= 7 && total > 0 {
                let share = root[0].nodes as f64 / total as f64;
                soft_scale = (1.5 - share) * 1.4;
            }
            let mut pv = vec![root[0].mv];
            pv.extend_from_slice(&self.pv[1]);
            result = RootResult {
                moves: root.clone(),
                depth,
                pv,
            };
            let info = SearchInfo {
                depth,
                score: root[0].score,
                nodes: self.nodes,
                elapsed_ms: ctl.clock.now_ms() - ctl.start_ms,
                pv: &result.pv,
            };
            on_info(&info);
            // A proven result within reach of this depth cannot change.
            if root[0].score.abs() > MATE_BOUND
                && (MATE - root[0].score.abs()) <= depth as i32
                && ctl.deadline_ms.is_some()
            {
                break;
            }
        }
        result
    }

    /// Searches every root move at `depth`; returns how many were searched
    /// to the end (all of them unless the search was aborted).
    fn search_root(
        &mut self,
        pos: &G,
        root: &mut [RootMove<G::Move>],
        depth: i32,
        margin: i32,
        ctl: &Control,
    ) -> usize {
        let mut done = 0;
        let us = pos.side_to_move();
        let hash = pos.hash();
        self.path.push(hash);
        let floor = 0usize;
        let mut best = -INF;
        let mut best_pv: Vec<G::Move> = Vec::new();
        for entry in root.iter_mut() {
            let mv = entry.mv;
            let mut child = pos.clone();
            child.play_unchecked(mv);
            self.make_acc(0, pos, &child);
            let same = child.side_to_move() == us;
            let cd = if same { depth } else { depth - 1 };
            let cf = if pos.is_irreversible(mv) {
                self.path.len()
            } else {
                floor
            };
            let before = self.nodes;
            let score = if best == -INF {
                self.child(&child, same, cd, -INF, INF, 1, cf, ctl)
            } else {
                let a = (best - margin).max(-INF + 1);
                let s = self.child(&child, same, cd, a, a + 1, 1, cf, ctl);
                if s > a && !self.aborted {
                    self.child(&child, same, cd, a, INF, 1, cf, ctl)
                } else {
                    s
                }
            };
            if self.aborted {
                break;
            }
            entry.nodes = self.nodes - before;
            done += 1;
            let floor_now = if best == -INF { -INF } else { best - margin };
            entry.score = if score > floor_now { score } else { -INF };
            if score > best {
                best = score;
                best_pv.clear();
                best_pv.extend_from_slice(&self.pv[1]);
            }
        }
        self.path.pop();
        // Keep the best line's tail where `iterate` reads it.
        self.pv[1].clear();
        self.pv[1].extend_from_slice(&best_pv);
        if !self.aborted {
            let best_mv = root.iter().max_by_key(|r| r.score).map(|r| r.mv);
            self.tt_store(
                hash,
                TtEntry {
                    key: hash,
                    mv: best_mv,
                    score: to_tt(best, 0),
                    depth: depth as i16,
                    bound: Bound::Exact,
                },
            );
        }
        done
    }
}
