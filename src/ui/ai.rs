//! The page's side of the AI worker.
//!
//! The worker is started only when the computer is first asked for a move,
//! answers `Ready` first, and takes one request at a time. A request that is
//! no longer wanted (undo, new game, pause, leaving the game) is dropped: if
//! the worker is still searching it is terminated, and a fresh one is started
//! for the next request, so nothing waits on a stale search. Answers carry
//! the request id; answers to anything but the current request are ignored.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker};

use crate::protocol::{Request, Response};

type Handler = Rc<dyn Fn(Response)>;
type MessageHandler = Closure<dyn FnMut(MessageEvent)>;

#[derive(Default)]
struct State {
    worker: Option<Worker>,
    ready: bool,
    /// A request waiting for the worker's `Ready`.
    queued: Option<Request>,
    /// The request being served and who gets its answers.
    current: Option<(u32, Handler)>,
    next_id: u32,
    /// Keeps the worker's message handler alive as long as the worker.
    on_message: Option<MessageHandler>,
}

/// A handle to the AI worker, shared through context.
#[derive(Clone, Copy)]
pub struct Ai {
    state: StoredValue<Rc<RefCell<State>>, LocalStorage>,
}

fn post(worker: &Worker, request: &Request) {
    match serde_wasm_bindgen::to_value(request) {
        Ok(v) => {
            let _ = worker.post_message(&v);
        }
        Err(e) => web_sys::console::warn_1(&format!("cannot send to the AI worker: {e}").into()),
    }
}

impl Ai {
    /// A handle; no worker is started until the first request.
    pub fn new() -> Self {
        Ai {
            state: StoredValue::new_local(Rc::new(RefCell::new(State::default()))),
        }
    }

    /// A new request id.
    pub fn next_id(&self) -> u32 {
        self.state.with_value(|s| {
            let mut s = s.borrow_mut();
            s.next_id = s.next_id.wrapping_add(1);
            s.next_id
        })
    }

    /// Sends `request`, replacing any request still running; `on_answer`
    /// gets every answer to it, up to the final one.
    pub fn send(&self, request: Request, on_answer: impl Fn(Response) + 'static) {
        self.cancel();
        let shared = self.state.get_value();
        let mut s = shared.borrow_mut();
        s.current = Some((request.id(), Rc::new(on_answer)));
        if s.worker.is_none() {
            match spawn(&shared) {
                Ok((worker, closure)) => {
                    s.worker = Some(worker);
                    s.on_message = Some(closure);
                    s.ready = false;
                }
                Err(message) => {
                    let (id, handler) = s.current.take().expect("set above");
                    drop(s);
                    handler(Response::Error { id, message });
                    return;
                }
            }
        }
        if s.ready {
            if let Some(w) = &s.worker {
                post(w, &request);
            }
        } else {
            s.queued = Some(request);
        }
    }

    /// Drops the current request; a worker still searching is terminated.
    pub fn cancel(&self) {
        let shared = self.state.get_value();
        let mut s = shared.borrow_mut();
        if s.current.take().is_some() {
            if let Some(w) = s.worker.take() {
                w.terminate();
            }
            s.on_message = None;
            s.ready = false;
            s.queued = None;
        }
    }

    /// Whether a request is being served.
    pub fn busy(&self) -> bool {
        self.state.with_value(|s| s.borrow().current.is_some())
    }
}

impl Default for Ai {
    fn default() -> Self {
        Ai::new()
    }
}

/// Starts a worker whose messages go to the current request's handler.
fn spawn(shared: &Rc<RefCell<State>>) -> Result<(Worker, MessageHandler), String> {
    let worker = Worker::new("./worker_loader.js")
        .map_err(|e| format!("the AI worker could not start: {e:?}"))?;
    let weak = Rc::downgrade(shared);
    let on_message = MessageHandler::new(move |ev: MessageEvent| {
        let Some(shared) = weak.upgrade() else { return };
        let response = match serde_wasm_bindgen::from_value::<Response>(ev.data()) {
            Ok(r) => r,
            Err(e) => {
                web_sys::console::warn_1(&format!("unreadable AI message: {e}").into());
                return;
            }
        };
        let handler = {
            let mut s = shared.borrow_mut();
            match response.id() {
                None => {
                    s.ready = true;
                    if let (Some(req), Some(w)) = (s.queued.take(), s.worker.as_ref()) {
                        post(w, &req);
                    }
                    None
                }
                Some(id) => {
                    let handler = s
                        .current
                        .as_ref()
                        .filter(|(cur, _)| *cur == id)
                        .map(|(_, h)| h.clone());
                    if handler.is_some() && response.is_final() {
                        s.current = None;
                    }
                    handler
                }
            }
        };
        // Called with no borrow held: the handler may send the next request.
        if let Some(h) = handler {
            h(response);
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    Ok((worker, on_message))
}
