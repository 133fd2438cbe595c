"""The index's derived views as a declared plan (dualgraph.pipeline.views): order, staleness, reports."""

from __future__ import annotations

from dualgraph.config import IndexConfig
from dualgraph.pipeline.state import IndexState
from dualgraph.pipeline.views import PLAN, Build, View, describe, walk


def test_the_plan_reads_only_what_comes_before_it_and_the_state_tracks_every_view():
    seen = {"documents"}
    for view in PLAN:
        assert set(view.reads) <= seen, f"{view.name} reads a view built after it"
        seen.add(view.name)
    assert tuple(v.name for v in PLAN) == IndexState.DERIVED
    assert [r["view"] for r in describe()] == ["documents", *IndexState.DERIVED]


def _build(state: IndexState, config: IndexConfig | None = None) -> Build:
    return Build(
        layout=None,
        store=None,
        state=state,
        config=config or IndexConfig(),
        rules=[],
        market="default",
        known={},
        rows=[],
        focus=set(),
        rules_by_focus=False,
        specs=None,
        models=None,
    )


def _plan(built: list[str]) -> tuple[View, ...]:
    def make(name: str):
        return lambda b: built.append(name) or {name: f"{name} built"}

    return (
        View("rules", ("documents",), (), "", make("rules"), reports=("rules",)),
        View("tkg", ("documents",), (), "", make("tkg"), enabled=lambda c: c.tkg.enabled, reports=("tkg",)),
        View("patterns", ("documents", "rules"), (), "", make("patterns"), reports=("patterns",)),
        View("lexicon", ("tkg", "patterns"), (), "", make("lexicon"), reports=("prose_lexicon",)),
    )


def test_a_view_is_built_when_stale_or_when_a_view_it_reads_was_rebuilt(tmp_path):
    state = IndexState.open(tmp_path / "state.json")
    state.set_stale(False, views=IndexState.VIEWS)
    built: list[str] = []
    out = walk(_build(state), plan=_plan(built))
    assert built == [] and out["rules"] == out["prose_lexicon"] == "unchanged"
    assert out["views"]["tkg"] == {"built": False, "why": "up to date"}

    state.set_stale(True, views=("rules",))  # as a changed rule file leaves it
    out = walk(_build(state), plan=_plan(built))
    # the patterns read the rules, the lexicon reads the patterns; the text graph reads neither
    assert built == ["rules", "patterns", "lexicon"]
    assert out["patterns"] == "patterns built" and out["tkg"] == "unchanged"
    assert out["views"]["rules"]["built"] and out["views"]["rules"]["seconds"] >= 0
    assert not any(IndexState.open(tmp_path / "state.json").stale[v] for v in IndexState.DERIVED)


def test_a_view_left_stale_by_a_stopped_run_is_built_by_the_next_one(tmp_path):
    state = IndexState.open(tmp_path / "state.json")
    state.set_stale(False, views=IndexState.VIEWS)
    state.set_stale(True, views=("lexicon",))  # the run stopped after the patterns, before the lexicon
    reopened = IndexState.open(tmp_path / "state.json")  # what the next run reads from the journal
    built: list[str] = []
    walk(_build(reopened), plan=_plan(built))
    assert built == ["lexicon"]


def test_a_disabled_view_is_reported_so_and_what_reads_it_still_follows_the_rest(tmp_path):
    state = IndexState.open(tmp_path / "state.json")
    built: list[str] = []
    config = IndexConfig().model_copy(update={"tkg": IndexConfig().tkg.model_copy(update={"enabled": False})})
    out = walk(_build(state, config), plan=_plan(built))
    assert built == ["rules", "patterns", "lexicon"] and out["tkg"] == "disabled"
    assert out["views"]["tkg"] == {"built": False, "why": "disabled"}


def test_the_plan_command_prints_the_plan(capsys):
    from dualgraph.cli import main

    assert main(["plan"]) == 0
    text = capsys.readouterr().out
    for view in ("documents", *IndexState.DERIVED):
        assert f"\n{view}: " in "\n" + text
    assert "reads   tkg, patterns" in text
