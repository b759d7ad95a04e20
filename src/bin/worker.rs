//! The AI worker: a second wasm binary that Trunk builds as a Web Worker.
//! It posts `Ready`, then answers each `Request` with `Info` messages and a
//! final `Best` (or `Error`), so the page never waits on a search.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The Stoneplay AI worker runs in the browser; natively use `engine`.");
    std::process::exit(2);
}

#[cfg(target_arch = "wasm32")]
mod worker {
    use stoneplay::ai::worker::serve;
    use stoneplay::protocol::{Request, Response};
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    fn post(scope: &DedicatedWorkerGlobalScope, response: &Response) {
        if let Ok(value) = serde_wasm_bindgen::to_value(response) {
            let _ = scope.post_message(&value);
        }
    }

    /// Installs the message handler and says Ready.
    pub fn start() {
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let handler_scope = scope.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let scope = &handler_scope;
            let answer = match serde_wasm_bindgen::from_value::<Request>(ev.data()) {
                Ok(request) => {
                    let perf = scope.performance();
                    let clock = move || perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
                    serve(&request, &clock, &mut |r| post(scope, &r))
                }
                Err(e) => Response::Error {
                    id: 0,
                    message: format!("malformed request: {e}"),
                },
            };
            post(scope, &answer);
        });
        scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        post(&scope, &Response::Ready);
    }
}
