//! What the client layer knows of each game beyond its rules, one file per
//! game of the list ([`crate::games::list`]): how its ending is put in
//! words ([`super::ending::Ends`]), which spots its moves touch
//! ([`super::mark::Marks`]) and its rules pages' diagrams
//! ([`super::diagram::Diagrams`]).

mod ataxx;
mod mill;
mod stones;
