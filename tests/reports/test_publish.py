"""What a teacher publishes: an anonymous report (aliases instead of names and folders, the
mapping beside the store) and reference entrants drawn as lines in the leaderboard.

One small class, played once: three students' copies of the greedy, random and talker bots under
telling folder names, manifest names and descriptions (the talker says its name and folder on
stderr and in its notes, and answers its name instead of an action in seat 1), and the bundled
random bot as the reference. Every byte of the site, records included, is searched for what would tell a student.
"""
from __future__ import annotations

import csv
import dataclasses
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli
from reports import render_site
from reports.anonymous import anonymise
from reports.data import EntrantInfo, Standing
from reports.model import SiteModel
from reports.source import load
from tests.reports.browser import Browser
from tests.reports.conftest import ROOT, TEST_BOTS, Site, play
from tests.reports.test_model import data as made_data
from tests.reports.test_site import read_record_script
from tournaments.aliases import SPACE, draw_aliases
from tournaments.formats.sprt import SprtSummary
from tournaments.store import Store

# folder: (manifest name, description, the bot it copies)
STUDENTS = {
    "zorblax-quintana": ("zorblax-quintana", "Quillon Marchbanks plays greedily", "greedy"),
    "vexmoor-tallis": ("mybot", "Ottoline Vexmoor's first bot", "random"),  # entrant vexmoor-tallis.mybot
    "pellucid-oakhart": ("pellucid-oakhart", "Fenwick Oakhart talks a lot", "talker"),
}


@dataclasses.dataclass(frozen=True)
class Classroom:
    site: Site
    folder: Path  # the teacher's folder: the config, students/

    def secrets(self) -> list[str]:
        """Every text that tells a student: names, folders, descriptions and the words in them."""
        found = [str(self.folder), "vexmoor-tallis.mybot"]
        for folder, (name, description, _) in STUDENTS.items():
            found += [folder, name, description, str(self.folder / "students" / folder),
                      *folder.split("-"), *description.replace("'s", "").split()[:2]]
        return sorted(set(found))


@pytest.fixture(scope="session")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Classroom:
    folder = tmp_path_factory.mktemp("class-4c")
    for name, (manifest, description, source) in STUDENTS.items():
        bot = folder / "students" / name
        shutil.copytree(TEST_BOTS / source if source == "talker" else ROOT / "bots" / source, bot)
        (bot / "bot.toml").write_text(f'name = "{manifest}"\ncommand = "python3 main.py"\n'
                                      f'description = "{description}"\n', encoding="utf-8")
    site = play(folder, {
        "name": "Class 4C", "game": "block", "seed": 5, "options": {"single_deal": True},
        "entrants": ["students/*", {"path": str(ROOT / "bots" / "random"), "reference": True}],
        "format": {"players": 2}, "ratings": {"draw_probability": 0.01},
        "report": {"anonymous": True},
    }, "class")
    return Classroom(site, folder)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    b = Browser()
    try:
        yield b
    finally:
        b.close()


def aliases(classroom: Classroom) -> dict[str, str]:
    """name -> alias, from the mapping beside the store."""
    with open(classroom.site.store_dir / "aliases.csv", encoding="utf-8", newline="") as f:
        return {row["name"]: row["alias"] for row in csv.DictReader(f)}


def leaks(site_dir: Path, secrets: list[str]) -> list[tuple[str, str]]:
    """(file, secret) for every secret found in a file's name or bytes, records unpacked."""
    found = []
    for f in sorted(site_dir.rglob("*")):
        if not f.is_file():
            continue
        texts = [str(f.relative_to(site_dir)).lower().encode(), f.read_bytes().lower()]
        if f.parent.name == "records" and f.suffix == ".js":
            texts.append(json.dumps(read_record_script(f)[1], ensure_ascii=False).lower().encode())
        for secret in secrets:
            if any(secret.lower().encode() in text for text in texts):
                found.append((str(f.relative_to(site_dir)), secret))
    return found


def test_no_student_is_named_anywhere_in_the_site(classroom: Classroom) -> None:
    site = classroom.site.site_dir
    secrets = classroom.secrets()
    assert {"zorblax", "Quillon", "vexmoor-tallis.mybot", "mybot", "Fenwick"} <= set(secrets)
    with Store.open(classroom.site.store_dir) as store:
        entrants = store.field.entrants()
        tails = [t for m in store.matches.all() for t in m.stderr_tails if t]
        reasons = [r for m in store.matches.all() for r in m.reasons if r]
    assert any("pellucid-oakhart" in t for t in tails), "the talker's stderr names it in the store"
    assert any("pellucid-oakhart" in r for r in reasons), "its illegal answer is quoted in the store"
    assert len(list((site / "records").glob("*.js"))) == 12
    assert leaks(site, secrets) == []
    mapping = aliases(classroom)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert sorted(mapping) == sorted(e.name for e in entrants if e.name != "random")
    for alias in mapping.values():
        assert alias in index
    assert ">random<" in index  # the reference keeps its name


def test_pages_are_numbered_by_alias_not_by_entrant_id(classroom: Classroom) -> None:
    """Entrant ids follow the sorted folders: the site numbers a bot by its alias instead."""
    with Store.open(classroom.site.store_dir) as store:
        key = store.meta.report_settings().alias_key
    numbers = {a.number for a in draw_aliases(key, [0, 1, 2], references={3}).values()} | {SPACE + 3}
    pages = {int(p.name.split("-")[0]) for p in (classroom.site.site_dir / "bots").glob("*.html")}
    assert pages == numbers
    site = json.loads((classroom.site.site_dir / "site.js").read_text(encoding="utf-8")
                      .split(".site = ", 1)[1].rstrip(";\n"))
    assert {b["id"] for b in site["bots"].values()} == numbers


def test_the_mapping_is_beside_the_store_for_the_teacher(classroom: Classroom) -> None:
    with open(classroom.site.store_dir / "aliases.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["name"] for r in rows] == ["pellucid-oakhart", "vexmoor-tallis.mybot", "zorblax-quintana"]
    assert {Path(r["folder"]).name for r in rows} == set(STUDENTS)
    assert len({r["alias"] for r in rows}) == 3 and all(" " in r["alias"] for r in rows)
    assert not list(classroom.site.site_dir.rglob("aliases*"))


def test_aliases_stay_when_others_join() -> None:
    few = draw_aliases("key", [0, 1, 2], references={1})
    more = draw_aliases("key", range(40), references={1})
    assert set(few) == {0, 2} and all(more[i] == few[i] for i in few)
    assert len({a.name for a in more.values()}) == 39
    assert draw_aliases("other key", [0, 2]) != few


def test_a_named_site_turned_anonymous_keeps_no_name(classroom: Classroom, tmp_path: Path) -> None:
    """Rendered with names, then anonymously into the same folder: the pages and records that
    named the students are gone (a bot page's file name holds its name), and the other way round
    the names come back."""
    out = tmp_path / "out"
    shutil.copytree(classroom.site.store_dir, out, ignore=shutil.ignore_patterns("site", "aliases.csv"))
    with Store.open(out, write=True) as store:
        store.meta.set_report(False, [3])
    render_site(out)
    assert any((out / "site" / "bots").glob("*zorblax*")), "the named site has the students' pages"
    with Store.open(out, write=True) as store:
        store.meta.set_report(True, [3])
    render_site(out, live=True)  # the live report forgets the names at once
    assert leaks(out / "site", classroom.secrets()) == []
    render_site(out)
    assert leaks(out / "site", classroom.secrets()) == []
    with open(out / "aliases.csv", encoding="utf-8", newline="") as f:  # the same aliases
        assert {r["name"]: r["alias"] for r in csv.DictReader(f)} == aliases(classroom)
    with Store.open(out, write=True) as store:
        store.meta.set_report(False, [3])
    render_site(out)  # and back: names again, no alias left behind
    assert leaks(out / "site", list(aliases(classroom).values())) == []
    assert any((out / "site" / "bots").glob("*zorblax*"))


def test_the_live_report_is_anonymous_too(classroom: Classroom, tmp_path: Path) -> None:
    render_site(classroom.site.store_dir, tmp_path / "live", live=True)
    assert leaks(tmp_path / "live", classroom.secrets()) == []
    assert all(alias in (tmp_path / "live" / "index.html").read_text(encoding="utf-8")
               for alias in aliases(classroom).values())


def test_arena_ratings_shows_names_unless_asked_for_aliases(classroom: Classroom) -> None:
    runner = CliRunner()
    named = runner.invoke(cli, ["ratings", str(classroom.site.store_dir)])
    hidden = runner.invoke(cli, ["ratings", str(classroom.site.store_dir), "--anonymous"])
    assert named.exit_code == 0 and hidden.exit_code == 0, named.output + hidden.output
    assert "zorblax-quintana" in named.output
    for name, alias in aliases(classroom).items():
        assert alias in hidden.output and name not in hidden.output
    assert "random" in hidden.output


def test_the_reference_line_in_the_view_model() -> None:
    """ann, cy, bob in rating order; cy is the reference: ann is above it, bob below."""
    d = dataclasses.replace(made_data([((0, 1), (1, 2), (9, 1)), ((1, 2), (2, 1), (1, 9))]),
                            references=frozenset({2}))
    rows = SiteModel(d).leaderboard()
    assert [r.bot.name for r in rows] == ["ann", "cy", "bob"]
    assert [r.reference for r in rows] == [None, "Above cy: 1 of 2 entrants (ann)", None]
    d.standings.insert(0, d.standings.pop(1))  # cy first: nobody above
    d.entrants.append(EntrantInfo(3, "dee"))
    d.standings.append(Standing(3, 10.0, 5.0, 0, 0, 0, 0.0, 0))
    rows = SiteModel(d).leaderboard()
    assert rows[0].reference == "Reference cy: no entrant ranks above it (3 below)"
    assert SiteModel(d).bot_view(2, []).facts[1].value == rows[0].reference


def test_the_leaderboard_draws_the_reference_line(browser: Browser, classroom: Classroom) -> None:
    browser.open(classroom.site.index)
    assert browser.errors() == []
    names = [e.text for e in browser.all(".leaderboard tbody tr[data-entrant] .bot-name")]
    mapping = aliases(classroom)
    assert sorted(names) == sorted([*mapping.values(), "random"])
    line = browser.css(".leaderboard tr.reference-line")
    assert line.is_displayed()
    assert browser.js("return getComputedStyle(arguments[0].querySelector('td')).borderTopStyle",
                      line) == "dashed"
    above = names[:names.index("random")]
    assert above, "the greedy student ranks above the random reference"
    assert line.text == f"Above random: {len(above)} of 3 entrants ({', '.join(above)})"
    before = browser.js("return arguments[0].previousElementSibling", line)
    after = browser.js("return arguments[0].nextElementSibling", line)
    assert before.get_attribute("data-entrant") and above[-1] in before.text  # between the rows
    assert "reference" in after.get_attribute("class") and "random" in after.text
    assert after.value_of_css_property("background-color") != before.value_of_css_property(
        "background-color")
    text = browser.js("return document.body.innerText")
    assert not [s for s in classroom.secrets() if s.lower() in text.lower()]


def test_the_replay_shows_aliases(browser: Browser, classroom: Classroom) -> None:
    """A match of the talker, seated second (its answer is its name): the replay loads its
    rewritten record and shows the aliases, the failure reason under the alias, no stderr."""
    data = load(classroom.site.store_dir).data
    talker = next(e.id for e in data.entrants if e.name == "pellucid-oakhart")
    match = next(m for m in data.matches if m.seats[1] == talker)
    browser.open(classroom.site.site_dir / "replay.html", f"?match={match.id}#end")
    assert browser.errors() == []
    text = browser.js("return document.body.innerText")
    alias = aliases(classroom)["pellucid-oakhart"]
    assert alias in text and "illegal" in text.lower()
    assert not [s for s in classroom.secrets() if s.lower() in text.lower()]


def test_an_anonymous_sprt_names_its_pair_by_alias() -> None:
    """The verdict's box and line name the candidate and the baseline by their aliases."""
    d = dataclasses.replace(made_data([((0, 1), (1, 2), (9, 1))]), summary=SprtSummary(
        "ann", "bob", 0.0, 50.0, 0.05, 0.05, 100, -2.94, 2.94, 0.3, (0, 0, 1, 0, 0), None, None))
    published, rows = anonymise(d, "key")
    alias = {r.entrant.name: r.alias for r in rows}
    box = SiteModel(published).format_box()
    assert box is not None
    text = " ".join([box.line, *(f.value for f in box.facts)])
    assert f"{alias['ann']} (candidate) against {alias['bob']} (baseline)" in text
    assert "ann" not in text and "bob" not in text


def test_a_moving_class_stays_anonymous(tmp_path: Path) -> None:
    """A new version, a withdrawal and a refused submission: the versions, the rows out of the
    standings and the submissions list name no student either."""
    config = {
        "name": "Class 4D", "game": "block", "seed": 6, "options": {"single_deal": True},
        "entrants": ["students/*"], "format": {"players": 2},
        "ratings": {"draw_probability": 0.01}, "report": {"anonymous": True},
    }
    students = tmp_path / "students"
    for folder in ("quimby-arkwright", "delphine-marrowby", "osgood-penhallow"):
        shutil.copytree(ROOT / "bots" / "random", students / folder)
        (students / folder / "bot.toml").write_text(
            f'name = "{folder}"\ncommand = "python3 main.py"\n', encoding="utf-8")
    play(tmp_path, config, "class")
    with open(students / "quimby-arkwright" / "main.py", "a", encoding="utf-8") as f:
        f.write("# version 2\n")
    shutil.rmtree(students / "osgood-penhallow")
    (students / "ysolde-brackwater").mkdir()  # no manifest: refused
    (students / "ysolde-brackwater" / "main.py").write_text("print('hi')\n", encoding="utf-8")
    site = play(tmp_path, config, "class")
    with Store.open(site.store_dir) as store:
        states = {v.state for v in store.field.versions()}
        submissions = store.field.submissions()
    assert {"current", "old", "withdrawn"} <= states
    assert [s.name for s in submissions] == ["ysolde-brackwater"]
    secrets = [str(tmp_path), "quimby", "arkwright", "delphine", "marrowby", "osgood",
               "penhallow", "ysolde", "brackwater"]
    assert leaks(site.site_dir, secrets) == []
    index = (site.site_dir / "index.html").read_text(encoding="utf-8")
    assert "a new submission" in index and "withdrawn" in index
    assert ">v2<" in index.replace(" ", "")  # the version ranked is still shown
