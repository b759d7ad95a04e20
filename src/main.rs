//! The browser app: installs the panic hook and mounts the UI. Built by Trunk.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    stoneplay::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The Stoneplay app runs in the browser: use `make play`.");
    std::process::exit(2);
}
