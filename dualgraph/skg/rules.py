"""Derivation rules as data: load ``rules.yaml`` and apply it to a fixpoint on any store.

A rule is a SPARQL ``where`` body and an ``insert`` triple template; ``apply_rules``
runs every enabled rule through :meth:`SparqlStore.insert_where` round after round until
no rule adds a quad. After the first round of a stratum, a rule runs again only if a
rule that added facts in the previous round writes a term (predicate or class) that
it reads, so a large catalog does not pay for every rule in every round. Rules are grouped in strata: a stratum runs to its fixpoint before
the next starts, so aggregates and "every variant" tests (``NOT EXISTS``) of a later
stratum see every fact they count. Derived facts live in one graph that is dropped
first, so they are a pure function of the document graphs.

>>> from dualgraph.stores.oxigraph import OxigraphStore
>>> report = apply_rules(OxigraphStore.in_memory(), load_rules())
>>> report.total_added, report.rounds > 0   # an empty store: nothing to derive
(0, True)
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from dualgraph.skg import ontology as O
from dualgraph.stores.base import SparqlStore, StoreError

DEFAULT_RULES = Path(__file__).with_name("rules.yaml")
_DEF_REF = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}")
_TERM = re.compile(r"\b(?:skg|skgt|rdf|rdfs|xsd):[\w.-]*\w|<[^<>\s]+>")
# SELECT projections and GROUP BY lists hold variables side by side without being triples.
_PROJECTION = re.compile(r"\bSELECT\b[^{]*|\bGROUP\s+BY\b[^}]*", re.IGNORECASE)
# A variable predicate or class (?s ?p ?o, ?x a ?t) could read anything.
_OPEN_PATTERN = re.compile(r"\?\w+\s+\?\w+\s+[?<\w\"]|\ba\s+\?|rdf:type\s+\?")


class RuleError(ValueError):
    """A rules file is malformed, or one of its rules is (the message names the rule id)."""


class FixpointError(RuntimeError):
    """Rules kept adding facts for ``max_rounds`` rounds (a rule mints new terms each run)."""


class Rule(BaseModel):
    """One derivation rule: insert ``insert`` for every solution of ``where``.

    >>> r = Rule(id="cat", description="x", where="?p skg:variantOf ?r . ?r skg:belongs ?c", insert="?p skg:belongs ?c")
    >>> print(r.construct_query())
    CONSTRUCT {
    ?p skg:belongs ?c
    }
    WHERE {
    ?p skg:variantOf ?r . ?r skg:belongs ?c
    }
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[A-Za-z0-9][\w.-]*$")
    description: str
    where: str
    insert: str
    enabled: bool = True
    stratum: int = Field(default=0, ge=0)

    @field_validator("where", "insert")
    @classmethod
    def _not_blank(cls, text: str) -> str:
        if not text.strip():
            raise ValueError("must not be empty")
        return text

    @property
    def reads(self) -> frozenset[str] | None:
        """Terms the ``where`` body mentions; None when it may read any predicate or class."""
        body = _PROJECTION.sub(" ", self.where)
        if _OPEN_PATTERN.search(body):
            return None
        return frozenset(_TERM.findall(body))

    @property
    def writes(self) -> frozenset[str]:
        """Terms the ``insert`` template mentions."""
        return frozenset(_TERM.findall(self.insert))

    def construct_query(self) -> str:
        """The rule as a read-only CONSTRUCT query (what ``insert_where`` runs)."""
        return f"CONSTRUCT {{\n{self.insert.strip()}\n}}\nWHERE {{\n{self.where.strip()}\n}}"


@dataclass
class RulesReport:
    """What one :func:`apply_rules` run did."""

    graph: str
    rounds: int = 0
    """Rounds over all strata, each stratum's last (empty) round included."""
    runs: int = 0
    """Rule executions (a rule whose inputs did not change in a round is not run)."""
    added: dict[str, int] = field(default_factory=dict)
    """New quads per rule id."""
    seconds: dict[str, float] = field(default_factory=dict)
    """Time spent per rule id."""
    elapsed_s: float = 0.0

    @property
    def total_added(self) -> int:
        return sum(self.added.values())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (for index manifests and logs)."""
        return {
            "graph": self.graph,
            "rounds": self.rounds,
            "runs": self.runs,
            "total_added": self.total_added,
            "added": dict(self.added),
            "seconds": {k: round(v, 4) for k, v in self.seconds.items()},
            "elapsed_s": round(self.elapsed_s, 4),
        }


def load_rules(path: str | Path | None = None) -> list[Rule]:
    """Read and validate a rules file (default: the packaged ``rules.yaml``).

    The file holds ``rules`` (a list) and optional ``defs`` (name to text, spliced into
    rules wherever ``{{name}}`` appears). Every rule, enabled or not, must have a unique
    id, a non-empty body and template, no blank nodes in its template, and parse.

    >>> [r.id for r in load_rules()][:3]
    ['yes-feature', 'no-feature', 'price']
    """
    path = Path(path) if path is not None else DEFAULT_RULES
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise RuleError(f"cannot read rules file {path}: {e}") from e
    if isinstance(doc, list):
        doc = {"rules": doc}
    if not isinstance(doc, dict) or not isinstance(doc.get("rules"), list):
        raise RuleError(f"{path}: expected a mapping with a `rules` list")
    defs = doc.get("defs") or {}
    if not isinstance(defs, dict) or not all(isinstance(v, str) for v in defs.values()):
        raise RuleError(f"{path}: `defs` must map names to strings")

    # Imported here: the rules model itself does not need an embedded store.
    from dualgraph.stores.oxigraph import OxigraphStore

    checker = OxigraphStore.in_memory()  # empty: a rule answers at once, if it parses
    rules: list[Rule] = []
    seen: set[str] = set()
    for i, raw in enumerate(doc["rules"]):
        rid = raw.get("id", f"#{i + 1}") if isinstance(raw, dict) else f"#{i + 1}"
        where = f"{path}: rule {rid!r}"
        if not isinstance(raw, dict):
            raise RuleError(f"{where}: expected a mapping, got {type(raw).__name__}")
        if "id" in raw and not isinstance(raw["id"], str):
            # YAML reads bare on/off/yes/no/1.0 as booleans and numbers.
            raise RuleError(f"{where}: the id must be a string; quote it in YAML")
        try:
            raw = {k: _expand(v, defs) if k in ("where", "insert") else v for k, v in raw.items()}
            rule = Rule.model_validate(raw)
        except KeyError as e:
            raise RuleError(f"{where}: unknown def {{{{{e.args[0]}}}}}") from e
        except ValidationError as e:
            problems = "; ".join(f"{'.'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors())
            raise RuleError(f"{where}: {problems}") from e
        if rule.id in seen:
            raise RuleError(f"{where}: duplicate rule id")
        seen.add(rule.id)
        _check_parses(rule, where, checker)
        rules.append(rule)
    facts = doc.get("facts")
    if facts is not None:
        if not isinstance(facts, str) or "facts" in seen:
            raise RuleError(f"{path}: `facts` must be a block of triples (and no rule may be called 'facts')")
        rule = Rule(id="facts", description="Constant triples declared in the rules file.", where="{}", insert=facts)
        _check_parses(rule, f"{path}: facts", checker)
        rules.insert(0, rule)
    return rules


def apply_rules(
    store: SparqlStore,
    rules: Sequence[Rule] | None = None,
    *,
    graph: str = O.DERIVED_GRAPH,
    max_rounds: int = 20,
    progress: bool = False,
) -> RulesReport:
    """Recompute ``graph`` from scratch by applying ``rules`` to a fixpoint.

    Raises :class:`FixpointError` when a stratum still adds facts after ``max_rounds``
    rounds, and :class:`~dualgraph.stores.base.StoreError` when a rule fails to run
    (the message names the rule).

    >>> from dualgraph.stores.oxigraph import OxigraphStore
    >>> rule = Rule(id="r", description="", where="BIND(1 AS ?one)", insert="skg:a skg:p ?one")
    >>> apply_rules(OxigraphStore.in_memory(), [rule]).added
    {'r': 1}
    """
    if rules is None:
        rules = load_rules()
    if not store.capabilities.update:
        raise StoreError("cannot apply rules: the store is read-only")
    started = time.perf_counter()
    report = RulesReport(graph=graph)
    active = [r for r in rules if r.enabled]
    ids = [r.id for r in active]
    if len(ids) != len(set(ids)):
        raise RuleError(f"duplicate rule ids: {sorted({i for i in ids if ids.count(i) > 1})}")
    for r in active:
        report.added[r.id] = 0
        report.seconds[r.id] = 0.0
    store.drop_graph(graph)
    from tqdm import tqdm

    bar = tqdm(desc="rules", unit="run", disable=not progress)
    for stratum in sorted({r.stratum for r in active}):
        layer = [r for r in active if r.stratum == stratum]
        todo = layer
        for _ in range(max_rounds):
            report.rounds += 1
            changed: set[str] = set()
            for r in todo:
                bar.set_postfix_str(f"round {report.rounds} {r.id}", refresh=False)
                if _run(store, r, graph, report):
                    changed |= r.writes
                bar.update()
            todo = [r for r in layer if r.reads is None or r.reads & changed]
            if not changed or not todo:
                break
        else:
            raise FixpointError(
                f"stratum {stratum} ({', '.join(r.id for r in layer)}) still adds facts after {max_rounds} rounds"
            )
    bar.close()
    report.elapsed_s = time.perf_counter() - started
    return report


def _run(store: SparqlStore, rule: Rule, graph: str, report: RulesReport) -> int:
    t0 = time.perf_counter()
    try:
        n = store.insert_where(rule.insert, rule.where, graph=graph)
    except StoreError as e:
        raise StoreError(f"rule {rule.id!r} failed: {e}") from e
    report.added[rule.id] += n
    report.runs += 1
    report.seconds[rule.id] += time.perf_counter() - t0
    return n


@cache
def def_regex(name: str, path: str | None = None) -> re.Pattern[str]:
    """A ``defs`` entry of a rules file (default: the packaged one) as a Python regex, so code that
    reads values outside SPARQL says "yes" and "no" exactly as the rules do.

    >>> bool(def_regex("negative").match("Not supported")), bool(def_regex("negative").match("N/A"))
    (True, False)
    """
    doc = yaml.safe_load(Path(path or DEFAULT_RULES).read_text(encoding="utf-8"))
    # written for a SPARQL "..." string, where "\\s" is the regex \s
    return re.compile(doc["defs"][name].replace("\\\\", "\\"), re.IGNORECASE)


def _expand(text: Any, defs: dict[str, str]) -> Any:
    if not isinstance(text, str):
        return text  # pydantic reports the type error
    return _DEF_REF.sub(lambda m: defs[m.group(1)], text)


def _check_parses(rule: Rule, where: str, checker: SparqlStore) -> None:
    from dualgraph.stores.guard import sparql_words

    words = sparql_words(rule.insert)
    if "[" in words or "_:" in words:
        raise RuleError(f"{where}: blank nodes in `insert` would be new on every run (no fixpoint); mint an IRI")
    try:
        checker.construct(rule.construct_query())
    except StoreError as e:
        raise RuleError(f"{where}: {e}") from e
