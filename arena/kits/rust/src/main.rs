//! {{name}}: an arena bot for {{game}}, in Rust (standard library only).
//! Build with `cargo build --release --offline`; arena runs ./target/release/bot.
//! The referee talks to it over stdin/stdout in MessagePack frames (msgpack.rs); stderr is its
//! log: use eprintln!, never println! (stdout belongs to the protocol).
//! Replace choose() with your own strategy: see README.md for the observation and the actions.
mod msgpack;

use msgpack::{message, receive, send, Value};
use std::io::{self, BufWriter};

/// The rule to replace: play the first legal action. `observation` is a map (README.md lists its
/// fields: `observation.get("{{field}}")` and so on); `legal` holds strings, never empty.
/// Return one of the strings of `legal`, exactly.
fn choose(_observation: &Value, legal: &[String]) -> String {
    legal[0].clone()
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut output = BufWriter::new(io::stdout().lock());
    while let Some(msg) = receive(&mut input) {
        match msg.get("type").and_then(Value::as_str).unwrap_or("") {
            "hello" => {
                eprintln!("{{name}}: seat {:?} of {:?}, options {:?}",
                          msg.get("seat").and_then(Value::as_int),
                          msg.get("num_players").and_then(Value::as_int),
                          msg.get("options"));
                send(&mut output, &message(&[("type", Value::Str("ready".into())),
                                            ("protocol", Value::Int(1))]))?;
            }
            "act" => {
                let legal: Vec<String> = msg.get("legal").and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
                    .unwrap_or_default();
                let observation = msg.get("observation").cloned().unwrap_or(Value::Nil);
                let action = choose(&observation, &legal);
                eprintln!("decision {}: {} (of {} legal)",
                          msg.get("decision").and_then(Value::as_int).unwrap_or(-1), action, legal.len());
                // To say why, for people (kept in the match record, shown by `arena play` and
                // the replay; at most 256 bytes), send a note with the action:
                //     ("note", Value::Str("the first legal action".into())),
                send(&mut output, &message(&[("type", Value::Str("action".into())),
                                            ("action", Value::Str(action))]))?;
            }
            "end" => {
                eprintln!("{{name}}: the match is over; scores {:?}",
                          msg.get("result").and_then(|r| r.get("scores")));
                break;
            }
            _ => {} // other message types are ignored (SPEC.md §3)
        }
    }
    Ok(())
}
