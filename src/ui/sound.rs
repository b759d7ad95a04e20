//! Short sounds made with Web Audio (no files to download): a soft click
//! for a move, a two-note blip for a capture, flip, pin or removal, a chord
//! for a mill and a little arpeggio for the end of a game.

use std::cell::RefCell;

use web_sys::{AudioContext, OscillatorType};

/// What just happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sound {
    Move,
    Capture,
    Mill,
    End,
}

thread_local! {
    /// One audio context for the page, made on first use (after a click).
    static CONTEXT: RefCell<Option<AudioContext>> = const { RefCell::new(None) };
}

/// One note: frequency (Hz), start offset and length (s), volume.
fn tone(ctx: &AudioContext, freq: f32, at: f64, len: f64, volume: f32) -> Option<()> {
    let osc = ctx.create_oscillator().ok()?;
    let gain = ctx.create_gain().ok()?;
    osc.set_type(OscillatorType::Triangle);
    osc.frequency().set_value(freq);
    let t = ctx.current_time() + at;
    let g = gain.gain();
    g.set_value_at_time(0.0, t).ok()?;
    g.linear_ramp_to_value_at_time(volume, t + 0.01).ok()?;
    g.exponential_ramp_to_value_at_time(0.001, t + len).ok()?;
    osc.connect_with_audio_node(&gain).ok()?;
    gain.connect_with_audio_node(&ctx.destination()).ok()?;
    osc.start_with_when(t).ok()?;
    osc.stop_with_when(t + len + 0.02).ok()?;
    Some(())
}

/// Plays `sound` (quietly does nothing where Web Audio is unavailable).
pub fn play(sound: Sound) {
    CONTEXT.with(|c| {
        let mut c = c.borrow_mut();
        if c.is_none() {
            *c = AudioContext::new().ok();
        }
        let Some(ctx) = c.as_ref() else { return };
        let notes: &[(f32, f64, f64, f32)] = match sound {
            Sound::Move => &[(660.0, 0.0, 0.07, 0.12)],
            Sound::Capture => &[(520.0, 0.0, 0.08, 0.14), (780.0, 0.07, 0.1, 0.14)],
            Sound::Mill => &[
                (523.0, 0.0, 0.3, 0.1),
                (659.0, 0.0, 0.3, 0.1),
                (784.0, 0.0, 0.3, 0.1),
            ],
            Sound::End => &[
                (523.0, 0.0, 0.15, 0.12),
                (659.0, 0.12, 0.15, 0.12),
                (784.0, 0.24, 0.15, 0.12),
                (1046.0, 0.36, 0.35, 0.12),
            ],
        };
        for &(f, at, len, vol) in notes {
            let _ = tone(ctx, f, at, len, vol);
        }
    });
}
