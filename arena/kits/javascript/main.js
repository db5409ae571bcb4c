// {{name}}: an arena bot for {{game}}, in JavaScript (Node.js). arena runs `node main.js`.
// The referee talks to it over stdin/stdout in MessagePack frames (msgpack.js); stderr is its log:
// use console.error, never console.log (stdout belongs to the protocol).
// Replace choose() with your own strategy: see README.md for the observation and the actions.
"use strict";
const { receive, send } = require("./msgpack.js");

// The rule to replace: play the first legal action. `observation` is an object (README.md lists
// its fields: observation.{{field}} and so on); `legal` is an array of strings, never empty.
// Return one of the strings of `legal`, exactly.
function choose(observation, legal) {
  return legal[0];
}

for (;;) {
  const message = receive();
  if (message === null) break;
  if (message.type === "hello") {
    console.error(`{{name}}: seat ${message.seat} of ${message.num_players}, options ${JSON.stringify(message.options)}`);
    send({ type: "ready", protocol: 1 });
  } else if (message.type === "act") {
    const action = choose(message.observation, message.legal);
    console.error(`decision ${message.decision}: ${action} (of ${message.legal.length} legal)`);
    send({ type: "action", action });
    // To say why, for people (kept in the match record, shown by `arena play` and the replay;
    // at most 256 bytes), send a note with the action:
    //     send({ type: "action", action, note: "the first legal action" });
  } else if (message.type === "end") {
    console.error(`{{name}}: the match is over; scores ${JSON.stringify(message.result.scores)}`);
    break;
  } // other message types are ignored (SPEC.md §3)
}
