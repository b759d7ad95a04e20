//! The player's name on the setup screen (issue 37): the first online
//! visit asks for a display name (`register`); later visits show it with
//! the ratings, rename (with the wait the server sets), the recovery code
//! on request, "use a recovery code" for another device, and forgetting
//! the identity on this device, explained before it is done. Every refusal
//! is worded in the player's language ([`super::text::refusal`]).

use leptos::prelude::*;

use super::me;
use super::socket::Driver;
use super::text;
use crate::client::online::identity::{rating_text, recovery_code, wait_secs};
use crate::client::online::link::{OnlineLink, Route};
use crate::client::online::session::{Connection, IdentityAsk};
use crate::protocol::online::{PlayerTag, Refusal};
use crate::t;
use crate::ui::address::server_param;
use crate::ui::clock::ticker;
use crate::ui::games::game_title;
use crate::ui::words::use_lang;

/// What the card's form is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    None,
    Rename,
    Recover,
    Code,
    Forget,
}

/// The name card: ask for a name, or show it with its actions.
#[component]
pub fn IdentityCard(driver: Driver) -> impl IntoView {
    let lang = use_lang();
    let session = driver.session;
    let server = driver.url.get_value();
    let kept_name = StoredValue::new(me::kept(&server).map(|k| k.name).unwrap_or_default());
    let now = ticker(Signal::derive(|| true));
    let form = RwSignal::new(Form::None);
    let typed = RwSignal::new(String::new());
    let code_typed = RwSignal::new(String::new());
    let bad_code = RwSignal::new(false);

    let open = move || session.with(|s| s.connection == Connection::Open);
    let busy = move || session.with(|s| s.identity_busy.is_some());
    let me = Memo::new(move |_| session.with(|s| s.me.clone()));
    let problem = move || {
        let lang = lang.get();
        session.with(|s| {
            s.identity_problem
                .as_ref()
                .map(|p| text::refusal(lang, p.code, &p.reason))
        })
    };
    // This device's kept identity is unknown to the server (its database
    // was reset, or another server): say so, offer a new name.
    let lost = move || {
        session.with(|s| {
            s.identity_problem
                .as_ref()
                .is_some_and(|p| p.ask == IdentityAsk::Identify && p.code == Refusal::BadIdentity)
        })
    };
    let submit_name = move || {
        let name = typed.get_untracked().trim().to_string();
        if me.with_untracked(|m| m.is_some()) {
            driver.rename(name);
        } else {
            driver.register(name);
        }
    };
    // A rename that went through closes the form.
    Effect::new(move |prev: Option<Option<String>>| {
        let name = me.with(|m| m.as_ref().map(|m| m.player.name.clone()));
        if prev.is_some_and(|p| p != name) {
            form.set(Form::None);
            typed.set(String::new());
            code_typed.set(String::new());
        }
        name
    });
    let submit_code = move || {
        let ok = driver.recover(&code_typed.get_untracked());
        bad_code.set(!ok);
    };

    let name_form = move |heading: bool| {
        view! {
            <form class="name-form" data-testid="name-form" on:submit=move |ev| { ev.prevent_default(); submit_name(); }>
                {heading.then(|| view! {
                    <h3>{move || t!(lang.get(), "online.name_title")}</h3>
                    <p class="muted">{move || t!(lang.get(), "online.name_help")}</p>
                })}
                <label>
                    {move || t!(lang.get(), "online.name_label")}" "
                    <input type="text" data-testid="name-input" maxlength="40" autocomplete="nickname"
                        prop:value=move || typed.get()
                        on:input=move |ev| typed.set(event_target_value(&ev))/>
                </label>
                <button type="submit" class="primary" data-testid="name-save"
                    disabled=move || !open() || busy() || typed.with(|t| t.trim().is_empty())>
                    {move || t!(lang.get(), "online.name_save")}
                </button>
            </form>
        }
    };
    let recover_form = move || {
        view! {
            <form class="name-form" data-testid="recover-form" on:submit=move |ev| { ev.prevent_default(); submit_code(); }>
                <p class="muted">{move || t!(lang.get(), "online.recover_help")}</p>
                <label>
                    {move || t!(lang.get(), "online.recover_label")}" "
                    <input type="text" data-testid="recover-input" maxlength="80" autocomplete="off" spellcheck="false"
                        prop:value=move || code_typed.get()
                        on:input=move |ev| { bad_code.set(false); code_typed.set(event_target_value(&ev)) }/>
                </label>
                <button type="submit" data-testid="recover-use" disabled=move || !open() || busy()>
                    {move || t!(lang.get(), "online.recover_use")}
                </button>
                <Show when=move || bad_code.get()>
                    <p class="warn" role="alert" data-testid="recover-bad">{move || t!(lang.get(), "online.recover_malformed")}</p>
                </Show>
            </form>
        }
    };

    let ratings = move || {
        let lang = lang.get();
        me.with(|m| {
            m.as_ref().map(|m| {
                m.ratings
                    .iter()
                    .map(|r| {
                        let tag = PlayerTag {
                            id: String::new(),
                            name: String::new(),
                            rating: Some(r.rating),
                            provisional: r.provisional,
                        };
                        format!(
                            "{} {}",
                            game_title(lang, r.game),
                            rating_text(&tag).unwrap_or_default()
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" · ")
            })
        })
    };
    let rename_wait = move || {
        let at = me.with(|m| m.as_ref().map(|m| m.rename_at))?;
        let secs = wait_secs(at, now.get());
        (secs > 0).then(|| {
            t!(
                lang.get(),
                "online.rename_wait",
                time = text::wait(lang.get(), secs)
            )
        })
    };
    let code = move || {
        session
            .with(|s| s.secret.clone())
            .map(|secret| recovery_code(&secret))
    };
    let toggle = move |f: Form| form.update(|v| *v = if *v == f { Form::None } else { f });

    let known = move || {
        let name = me.with(|m| m.as_ref().map(|m| m.player.name.clone()));
        let my_page = me.with(|m| {
            m.as_ref().map(|m| {
                OnlineLink {
                    route: Route::Player {
                        who: m.player.id.clone(),
                    },
                    server: server_param(&driver.url.get_value()),
                }
                .query()
            })
        });
        view! {
            <p data-testid="my-name">
                {move || t!(lang.get(), "online.playing_as")}" "<strong>{name}</strong>
            </p>
            <p class="muted" data-testid="my-ratings">{ratings}</p>
            <p><a data-testid="my-page" href=my_page>{move || t!(lang.get(), "online.my_page")}</a></p>
            <div class="card-actions">
                <button data-testid="rename" disabled=move || rename_wait().is_some() on:click=move |_| toggle(Form::Rename)>{move || t!(lang.get(), "online.rename")}</button>
                <button data-testid="show-code" on:click=move |_| toggle(Form::Code)>{move || t!(lang.get(), "online.recovery_code")}</button>
                <button data-testid="forget-identity" on:click=move |_| toggle(Form::Forget)>{move || t!(lang.get(), "online.forget_identity")}</button>
            </div>
            {move || rename_wait().map(|w| view! { <p class="muted" data-testid="rename-wait">{w}</p> })}
            {move || match form.get() {
                Form::Rename => name_form(false).into_any(),
                Form::Code => view! {
                    <div class="recovery" data-testid="recovery">
                        <p>{move || t!(lang.get(), "online.code_help")}</p>
                        <p><code data-testid="recovery-code">{code}</code></p>
                    </div>
                }.into_any(),
                Form::Forget => view! {
                    <div class="recovery" role="alertdialog" data-testid="forget-confirm">
                        <p>{move || t!(lang.get(), "online.forget_explained")}</p>
                        <div class="card-actions">
                            <button class="danger" data-testid="forget-yes" on:click=move |_| driver.forget_identity()>{move || t!(lang.get(), "online.forget_yes")}</button>
                            <button data-testid="forget-no" on:click=move |_| form.set(Form::None)>{move || t!(lang.get(), "online.forget_no")}</button>
                        </div>
                    </div>
                }.into_any(),
                _ => ().into_any(),
            }}
        }
    };
    let unknown = move || {
        let waiting = session.with(|s| s.secret.is_some()) && !lost();
        if waiting {
            // The kept identity is being identified.
            return view! {
                <p class="muted" data-testid="my-name-kept">
                    {move || t!(lang.get(), "online.playing_as")}" "<strong>{kept_name.get_value()}</strong>
                </p>
            }
            .into_any();
        }
        view! {
            <Show when=lost>
                <p class="warn" data-testid="identity-lost">{move || t!(lang.get(), "online.identity_lost", name = kept_name.get_value())}</p>
            </Show>
            {name_form(true)}
            <p>
                <button class="link-button" data-testid="recover" on:click=move |_| toggle(Form::Recover)>{move || t!(lang.get(), "online.recover_open")}</button>
            </p>
            <Show when=move || form.get() == Form::Recover>{recover_form()}</Show>
        }
        .into_any()
    };

    view! {
        <section class="identity" data-testid="identity" aria-label=move || t!(lang.get(), "online.name_section")>
            {move || if me.with(|m| m.is_some()) { known().into_any() } else { unknown().into_any() }}
            {move || problem().map(|p| view! { <p class="warn" role="alert" data-testid="identity-problem">{p}</p> })}
        </section>
    }
}
