//! The online setup's look at the server (issue 36): on opening the setup,
//! a WebSocket is opened to the server and closed again at once. If it
//! cannot open (or has not within [`PROBE_DEADLINE_MS`]), the setup says so
//! up front, before Create is pressed, and looks again every
//! [`REPROBE_MS`] until the server answers; the line then goes away. The
//! game's own connection (with its "Trying again…" and backoff) is
//! unchanged: this only looks, and sends nothing.
//!
//! At most one probe socket is open at a time, and none once the setup is
//! left.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::WebSocket;

use crate::t;
use crate::ui::words::use_lang;

/// How long a probe may take to open before the server counts as down.
pub const PROBE_DEADLINE_MS: u32 = 5_000;
/// How often a server found down is looked at again.
pub const REPROBE_MS: u32 = 5_000;

type Handler = Closure<dyn FnMut(web_sys::Event)>;

/// The probe's state, shared by its handlers and timers.
#[derive(Default)]
struct Probe {
    ws: Option<WebSocket>,
    handlers: Vec<Handler>,
    timer: Option<Timeout>,
    /// Set when the setup is left: nothing more is started.
    stopped: bool,
}

impl Probe {
    /// Detaches and closes the current socket, if any.
    fn close(&mut self) {
        if let Some(ws) = self.ws.take() {
            ws.set_onopen(None);
            ws.set_onclose(None);
            ws.set_onerror(None);
            let _ = ws.close();
        }
        self.handlers.clear();
        self.timer = None;
    }
}

/// Opens one probe of `url`; `down` is set by its result.
fn look(probe: &Rc<RefCell<Probe>>, url: &str, down: RwSignal<bool>) {
    let mut p = probe.borrow_mut();
    if p.stopped {
        return;
    }
    p.close();
    let ws = match WebSocket::new(url) {
        Ok(ws) => ws,
        Err(_) => {
            // Not a usable address: the setting's own check says why.
            return;
        }
    };
    let weak = Rc::downgrade(probe);
    let url_owned = url.to_string();
    // Run after the handler or timer that calls it has returned: closing
    // drops that handler's closure, which must not happen while it runs.
    let settle = move |up: bool| {
        let (weak, url) = (weak.clone(), url_owned.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let Some(probe) = weak.upgrade() else { return };
            if probe.borrow().stopped {
                return;
            }
            down.set(!up);
            probe.borrow_mut().close();
            if !up {
                let again = Rc::downgrade(&probe);
                let timer = Timeout::new(REPROBE_MS, move || {
                    if let Some(probe) = again.upgrade() {
                        // Also run after this timer's callback returns.
                        wasm_bindgen_futures::spawn_local(async move {
                            look(&probe, &url, down);
                        });
                    }
                });
                probe.borrow_mut().timer = Some(timer);
            }
        });
    };
    let (on_up, on_down, on_late) = (settle.clone(), settle.clone(), settle);
    let opened: Handler = Closure::new(move |_| on_up(true));
    let failed: Handler = Closure::new(move |_| on_down(false));
    ws.set_onopen(Some(opened.as_ref().unchecked_ref()));
    ws.set_onclose(Some(failed.as_ref().unchecked_ref()));
    p.handlers = vec![opened, failed];
    p.ws = Some(ws);
    p.timer = Some(Timeout::new(PROBE_DEADLINE_MS, move || on_late(false)));
}

/// "The online server cannot be reached right now", shown on the setup
/// while a probe of `server` fails; nothing while it answers.
#[component]
pub fn ServerProbe(server: String) -> impl IntoView {
    let lang = use_lang();
    let down = RwSignal::new(false);
    let probe = Rc::new(RefCell::new(Probe::default()));
    look(&probe, &server, down);
    let keep = StoredValue::new_local(probe);
    on_cleanup(move || {
        if let Some(probe) = keep.try_get_value() {
            let mut p = probe.borrow_mut();
            p.stopped = true;
            p.close();
        }
    });
    let server = StoredValue::new(server);
    move || {
        down.get().then(|| {
            view! {
                <div class="banner-line warn" role="status" data-testid="server-down">
                    <span>{move || t!(lang.get(), "online.server_down", url = server.get_value())}</span>
                </div>
            }
        })
    }
}
