"""One readable line per event of a Thousand match (for ``arena play``)."""
from __future__ import annotations

from typing import Any


def describe(event: dict[str, Any], names: list[str]) -> str | None:
    kind = event["type"]
    if kind == "dealer":
        return f"{names[event['seat']]} deals first"
    if kind == "deal":
        head = f"deal {event['deal']}" + (f" (redeal {event['redeal']})" if event["redeal"] else "")
        head += f": {names[event['dealer']]} deals" + (" (golden round)" if event["golden"] else "")
        lines = [head]
        lines += [f"  {names[s]}: {' '.join(h)}" for s, h in enumerate(event["hands"]) if h]
        lines += [f"  prikup: {' '.join(p)}" for p in event["prikups"]]
        return "\n".join(lines)
    if kind == "action":
        return f"  {names[event['seat']]}: {event['action']}"
    if kind == "contract":
        extra = {"forced_100": " (forced 100)", "golden_120": " (golden round)",
                 "barrel": " (barrel, no auction)"}.get(event["how"], "")
        return (f"  {names[event['declarer']]} declares {event['contract']}{extra}"
                + (" dark" if event["dark"] else ""))
    if kind == "prikup":
        return (f"  prikup {' '.join(event['cards'])} "
                + ("shown" if event["shown"] else "not shown"))
    if kind == "marriage":
        return f"  {names[event['seat']]} declares {event['kind']} +{event['points']}, trump {event['trump']}"
    if kind == "trick":
        return (f"  trick {event['trick']}: {' '.join(event['cards'])} -> "
                f"{names[event['winner']]} (+{event['points']})")
    if kind == "last_prikup":
        return f"  {names[event['seat']]} takes the other prikup {' '.join(event['cards'])} (+{event['points']})"
    if kind == "redeal":
        who = names[event["seat"]] if event["seat"] is not None else "the prikup"
        return f"  redeal ({event['reason']}: {who})"
    if kind == "deal_score":
        parts = []
        for row in event["seats"]:
            mark = " bolt" if row["bolt"] else ""
            parts.append(f"{names[row['seat']]} {row['role']} {row['points']}→{row['delta']:+d}{mark}")
        return f"  deal {event['deal']} {event['outcome']} {event['contract']}: " + "; ".join(parts)
    if kind == "bolt_penalty":
        return f"  {names[event['seat']]}: three bolts {event['amount']} → {event['total']}"
    if kind == "barrel_mount":
        return f"  {names[event['seat']]} mounts the barrel ({event['from']} → {event['total']})"
    if kind == "barrel_attempt":
        return f"  {names[event['seat']]}: barrel attempt {event['attempt']}"
    if kind == "barrel_fall":
        return (f"  {names[event['seat']]} falls off the barrel ({event['reason']}, fall "
                f"{event['fall']}) → {event['total']}")
    if kind == "dump_truck":
        return f"  {names[event['seat']]}: dump truck {event['from']} → 0"
    if kind == "totals":
        return f"  totals {event['totals']}"
    if kind == "capped":
        return f"match capped after {event['deals']} deals"
    if kind == "match_end":
        return f"match over: scores {event['scores']}, ranks {event['ranks']}"
    return None
