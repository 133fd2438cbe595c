"""Time conditions and orderings by date, grounded and run on a real index (embedded Oxigraph).

The catalog writes dates the way shops and spec sheets do; each question is read by
``find_dates``/``time_superlative``, grounded by ``grounding_dates`` and put together as the
compiler does (``emit.where_clauses`` / ``select_query``), then run.
"""

from types import SimpleNamespace

import pytest

from dualgraph.config import IndexConfig, TkgConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.lexicon.patterns import collect_patterns
from dualgraph.lexicon.vocabulary import QuestionVocabulary, use
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.query.ground.dates import DateGrounder, choose_dates, date_attribute, date_entries, ground_date
from dualgraph.query.read.dates import find_dates, time_superlative
from dualgraph.query.read.model import Intent
from dualgraph.query.sparql.emit import select_query, where_clauses
from dualgraph.query.sparql.read_answer import top_with_ties
from dualgraph.query.sparql.safety import run_select
from dualgraph.stores.oxigraph import OxigraphStore

SKG_ONLY = IndexConfig(runner="inline", progress=False, batch_size=3, tkg=TkgConfig(enabled=False), patterns=False)


def phone(name, *specs):
    return Variant(name, name, ("phones",), (("Battery:Capacity", "5000 mAh"), *specs))


# release (r), announcement (a) and other dates of each product, as the SKG reads them
PAGES = [
    (
        "nova",
        "Nova phones",
        [
            # a: 2022-11-02, r: 2023-03-14
            phone(
                "Nova A1",
                ("Launch:Announced", "2022, November 02"),
                ("Launch:Status", "Available. Released 2023, March 14"),
            ),
            phone("Nova B2", ("General:Release date", "2022-11-02")),  # r: 2022-11-02 (the entry says release)
            # a: Q3 2021 (2021-07-01..09-30), r: October 2021
            phone("Nova C3", ("Launch:Announced", "Q3 2021"), ("Launch:Status", "Released 2021, October")),
        ],
    ),
    (
        "zen",
        "Zen phones",
        [
            phone("Zen D4", ("Launch:Status", "Exp. announcement 2024, Q1")),  # only expected
            phone("Zen E5", ("Launch:Announced", "15/03/2021")),  # only announced: 2021-03-15
            phone("Zen F6", ("General:Year", "2020")),  # a year without a status
            phone("Zen G7"),  # no date at all
        ],
    ),
    (
        "orb",
        "Orb phones",
        [
            # r: 2023 (year precision), a: December 2022
            phone("Orb H8", ("Launch:Status", "Released 2023"), ("Launch:Announced", "2022, December")),
            # r: 2024-01-20; an end-of-support date is no release
            phone("Orb I9", ("Launch:Status", "Released 2024, January 20"), ("Support:End of support date", "2028-01")),
        ],
    ),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("dates")
    write_dataset(root / "ds", PAGES)
    build_index(root / "ds", root / "ix", SKG_ONLY)
    with OxigraphStore(IndexLayout(root / "ix").store, read_only=True) as s:
        yield s


@pytest.fixture(scope="module")
def entries(store):
    return date_entries(store)


def product_iris(store, *names):
    res = store.select("SELECT ?p ?n WHERE { ?p a skgt:Product ; skg:hasName ?n }")
    by_name = {b["n"]["value"]: b["p"]["value"] for b in res["results"]["bindings"]}
    return [by_name[n] for n in names]


def listed(store, entries, question, trace=None):
    """The products a list question's time conditions select, assembled as the compiler does."""
    trace = [] if trace is None else trace
    groundings = [ground_date(c, entries, trace) for c in find_dates(question)]
    assert groundings and all(g.resolved for g in groundings), (question, trace)
    blocks, filters = where_clauses([], [], groundings)
    sparql = select_query(Intent("list"), blocks, filters, ordered=False, tie_broken=False, count_ranges=False)
    return sorted(r["name"]["value"] for r in run_select(store, sparql).rows)


def ordered(store, entries, question, products=()):
    """The winners of a newest/oldest/which-first question (ties kept), assembled as the compiler does
    (with the words of this catalog, as the compiler reads them)."""
    with use(QuestionVocabulary.from_patterns(collect_patterns(store))):
        order = time_superlative(question)
    assert order is not None, question
    att = date_attribute(entries, order.event, [], order)
    assert att.resolved
    blocks, filters = where_clauses(list(products), [], [])
    conds = [ground_date(c, entries, []) for c in find_dates(question)]
    more, more_filters = where_clauses([], [], conds)
    blocks += more + [att.snippet.replace("{s}", "?so").replace("{v}", "?val")]
    kind = "compare" if products else "superlative"
    intent = Intent(kind, "release date", order.direction)
    sparql = select_query(intent, blocks, filters + more_filters, ordered=True, tie_broken=False, count_ranges=False)
    rows = run_select(store, sparql).rows
    return sorted(r["name"]["value"] for r in top_with_ties(rows, 1)), rows


def test_the_catalog_dates_by_entry_and_status(entries):
    got = {(d.entry, d.status): d.products for d in entries}
    assert got[("Status", "released")] == 4 and got[("Announced", "announced")] == 4
    assert got[("Release date", "released")] == 1 and got[("Status", "expected")] == 1
    assert got[("Year", None)] == 1 and got[("End of support date", None)] == 1


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # containment: a year-precision release (H8 "2023") is in 2023 but not in March 2023
        ("Which phones were released in 2023?", ["Nova A1", "Orb H8"]),
        ("phones released in March 2023", ["Nova A1"]),
        ("phones released in Q4 2022", ["Nova B2"]),
        # no release date: E5 (only announced) is never "released"; F6's bare year stands in
        ("phones released in 2021", ["Nova C3"]),
        ("phones released in 2020", ["Zen F6"]),
        ("phones released before 2022", ["Nova C3", "Zen F6"]),
        ("phones released after 2022", ["Nova A1", "Orb H8", "Orb I9"]),
        ("phones released after June 2023", ["Orb I9"]),  # H8's "2023" may be January: not after June
        ("phones released since 2023", ["Nova A1", "Orb H8", "Orb I9"]),
        ("phones released 2022 or earlier", ["Nova B2", "Nova C3", "Zen F6"]),
        ("phones released between 2021 and 2022", ["Nova B2", "Nova C3"]),
        ("phones launched from 2022 to 2023", ["Nova A1", "Nova B2", "Orb H8"]),
        ("phones released after 2020 and before 2023", ["Nova B2", "Nova C3"]),
        # announcements; an expected announcement (D4) is no announcement
        ("phones announced in 2022", ["Nova A1", "Orb H8"]),
        ("phones announced in 2021", ["Nova C3", "Zen E5"]),
        ("phones announced in the first half of 2021", ["Zen E5"]),  # C3's Q3 is not inside H1
        ("phones announced in 2024", []),
        ("phones expected in 2024", ["Zen D4"]),
        # no event named: a release date, else an announcement, else a status-less date
        ("phones from 2021", ["Nova C3", "Zen E5"]),
        ("phones from 2024", ["Orb I9"]),
        ("phones from the 2010s", []),
        ("phones from 2020 or earlier", ["Zen F6"]),
    ],
)
def test_time_conditions(store, entries, question, expected):
    if not expected:
        groundings = [ground_date(c, entries, []) for c in find_dates(question)]
        assert groundings and all(g.resolved for g in groundings)
    assert listed(store, entries, question) == expected


def test_missing_dates_never_satisfy(store, entries):
    everything = listed(store, entries, "phones from 1900 or later")
    assert "Zen G7" not in everything and "Zen D4" not in everything
    assert "Zen G7" not in listed(store, entries, "phones released before 2099")


def test_trace_says_which_dates(store, entries):
    trace = []
    listed(store, entries, "phones from 2021", trace)
    assert "released dates (Launch › Status, General › Release date)" in trace[0]
    assert "announced dates (Launch › Announced)" in trace[0] and "status-less dates (General › Year)" in trace[0]
    assert "End of support" not in trace[0]


@pytest.mark.parametrize(
    ("question", "winners"),
    [
        ("Which is the newest phone?", ["Orb I9"]),
        ("Which phone is the oldest?", ["Zen F6"]),
        ("the most recently announced phone", ["Orb H8"]),
        ("the earliest announced phone", ["Zen F6"]),  # no announcement: its status-less year counts
        ("Which is the newest phone released before 2023?", ["Nova B2"]),
        ("the oldest phone announced in 2022", ["Nova A1"]),
    ],
)
def test_newest_and_oldest(store, entries, question, winners):
    assert ordered(store, entries, question)[0] == winners


def test_which_came_first(store, entries):
    a1, b2, h8 = product_iris(store, "Nova A1", "Nova B2", "Orb H8")
    assert ordered(store, entries, "Which came out first, the Nova A1 or the Nova B2?", [a1, b2])[0] == ["Nova B2"]
    assert ordered(store, entries, "Which was released later, Nova A1 or Nova B2?", [a1, b2])[0] == ["Nova A1"]
    # a year-precision date orders by its first day: "2023" comes before 2023-03-14
    winners, rows = ordered(store, entries, "Which was released earlier, the Nova A1 or the Orb H8?", [a1, h8])
    assert winners == ["Orb H8"] and [r["value"]["value"] for r in rows] == ["20230101", "20230314"]


def test_fallback_when_the_catalog_lacks_the_event(store, entries):
    plan = choose_dates(entries, "discontinued")
    assert plan is not None and plan.confidence == 0.5 and "no discontinued dates" in plan.note
    assert choose_dates([], "released") is None
    g = ground_date(find_dates("phones released in 2023")[0], [], trace := [])
    assert not g.resolved and "no dates" in trace[0]


def test_date_grounder_asks_the_store_once(store):
    g = DateGrounder(SimpleNamespace(store=store))  # the date part reads no pattern index
    c = find_dates("phones released in 2023")[0]
    assert g.date(c, []).resolved and g.date_order("", []).resolved
    assert g.dated_entries is g.dated_entries
