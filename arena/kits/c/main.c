/* {{name}}: an arena bot for {{game}}, in C. Build with `make`; arena runs ./bot.
 * The referee talks to it over stdin/stdout in MessagePack frames (mp.h); stderr is its log.
 * Replace choose() with your own strategy: see README.md for the observation and the actions. */
#include <stdio.h>
#include <string.h>
#include "mp.h"

/* The rule to replace: play the first legal action. `observation` is a map (README.md lists its
 * fields: mp_get(observation, "{{field}}") and so on); `legal` is an array of strings, never empty.
 * Return one of the strings of `legal`, exactly. */
static const char *choose(const mp_value *observation, const mp_value *legal) {
    (void)observation;
    return mp_at(legal, 0)->s;
}

int main(void) {
    mp_buffer out = {0};
    mp_value *message;
    while ((message = mp_receive(stdin)) != NULL) {
        const mp_value *type = mp_get(message, "type");
        const char *kind = type && type->type == MP_STR ? type->s : "";
        if (strcmp(kind, "hello") == 0) {
            fprintf(stderr, "{{name}}: seat ");
            mp_print(stderr, mp_get(message, "seat"));
            fprintf(stderr, " of ");
            mp_print(stderr, mp_get(message, "num_players"));
            fprintf(stderr, ", options ");
            mp_print(stderr, mp_get(message, "options"));
            fprintf(stderr, "\n");
            mp_put_map(&out, 2);
            mp_put_str(&out, "type"); mp_put_str(&out, "ready");
            mp_put_str(&out, "protocol"); mp_put_int(&out, 1);
            mp_send(stdout, &out);
        } else if (strcmp(kind, "act") == 0) {
            const mp_value *legal = mp_get(message, "legal");
            const char *action = choose(mp_get(message, "observation"), legal);
            fprintf(stderr, "decision %lld: %s (of %zu legal)\n",
                    (long long)mp_get(message, "decision")->i, action, legal->len);
            mp_put_map(&out, 2);
            mp_put_str(&out, "type"); mp_put_str(&out, "action");
            mp_put_str(&out, "action"); mp_put_str(&out, action);
            /* To say why, for people (kept in the match record, shown by `arena play` and the
             * replay; at most 256 bytes), send a note with the action: a map of 3, and
             *     mp_put_str(&out, "note"); mp_put_str(&out, "the first legal action"); */
            mp_send(stdout, &out);
        } else if (strcmp(kind, "end") == 0) {
            fprintf(stderr, "{{name}}: the match is over; scores ");
            mp_print(stderr, mp_get(mp_get(message, "result"), "scores"));
            fprintf(stderr, "\n");
            mp_free(message);
            return 0;
        }   /* other message types are ignored (SPEC.md §3) */
        mp_free(message);
    }
    return 0;
}
