"""Budgets enforced, not hoped for: runaway SPARQL queries and questions are stopped by killing the
worker process that runs them, and their CPU and memory come back.

The stores are generated here (a few hundred triples, so a cartesian product of three or four
patterns never ends); the questions go to a stand-in engine (``tests/fixtures/budget/stand_in.py``)
that allocates or sleeps on cue, so a bulk run's over-budget path runs in seconds. The real
engine in a worker is exercised by the front-door tests (``test_front_door.py``), which compare its
answers with an engine opened in-process.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from dualgraph import DualGraph
from dualgraph.budget import DeadlineExceeded, MemoryExceeded, WorkBudget
from dualgraph.budget.engine import ABANDONED, GONE_TOGETHER_S, IsolatedEngine
from dualgraph.budget.worker import private_memory
from dualgraph.cli import SPARQL_OVER_MEMORY, SPARQL_TIMED_OUT, main
from dualgraph.stores.base import QueryTimeout
from dualgraph.stores.oxigraph import OxigraphStore

STAND_IN = Path(__file__).resolve().parents[1] / "fixtures" / "budget"
TICK = os.sysconf("SC_CLK_TCK")

# blocking (no row until done) and endless on a few hundred triples: CPU, little memory
COUNT_4 = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
# sorts a cartesian product of three patterns: memory grows until the sort is done (never, here)
SORTED_3 = "SELECT * WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f } ORDER BY ?b ?d ?f LIMIT 5"


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    """An index folder holding only a generated store: 150 products with a name each (its
    3-way product is 3.4M rows, ~1 GB to sort: bounded should a budget fail)."""
    ix = tmp_path_factory.mktemp("budget") / "ix"
    with OxigraphStore(ix / "skg" / "oxigraph") as store:
        rows = " ".join(f'<urn:x:p{i}> <urn:x:name> "product {i}" .' for i in range(150))
        store.update(f"INSERT DATA {{ GRAPH <urn:x:g> {{ {rows} }} }}")
    return ix


def children() -> list[int]:
    """Budgeted workers whose parent is this process (other children, a session's servers, aside)."""
    me, out = os.getpid(), []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == me and b"dualgraph.budget.child" in command:
                out.append(int(entry))
    return out


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its new parent to reap it has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def busy_over(seconds: float) -> float:
    """CPU seconds this process and its workers use over the next ``seconds``."""
    pids = [os.getpid(), *children()]
    before = {p: cpu_seconds(p) for p in pids}
    time.sleep(seconds)
    return sum(cpu_seconds(p) - before[p] for p in pids)


def test_a_runaway_query_is_stopped_at_its_deadline_and_its_cpu_comes_back(index):
    with DualGraph(index) as graph:
        assert graph.sparql("ASK { ?s ?p ?o }")["boolean"] is True
        worker = graph._queries
        assert worker is not None and worker.pid in children()
        pid = worker.pid
        t0 = time.monotonic()
        with pytest.raises(QueryTimeout, match="timed out"):
            graph.sparql(COUNT_4, timeout=1.0)
        took = time.monotonic() - t0
        assert took < 1.0 + 0.5 + 2.0, took  # the timeout, the grace, a loaded machine's slack
        assert not alive(pid)  # the worker that ran it is gone (killed and reaped)
        assert busy_over(1.0) < 0.3  # nothing of ours keeps computing
        # the next query gets a fresh worker and the same store
        rows = graph.sparql("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")["results"]["bindings"]
        assert rows[0]["n"]["value"] == "150" and graph._queries.pid != pid


def test_a_query_past_its_memory_budget_is_stopped_and_the_memory_comes_back(index):
    from dualgraph.answer.engine import AskConfig

    config = AskConfig(budget=WorkBudget(memory_mb=128))
    mine = private_memory(os.getpid())
    with DualGraph(index, config=config) as graph:
        t0 = time.monotonic()
        with pytest.raises(MemoryExceeded, match="memory budget of 128 MB") as caught:
            graph.sparql(SORTED_3, timeout=60)
        assert time.monotonic() - t0 < 30  # the budget, long before the timeout
        assert caught.value.budget == "memory" and caught.value.used_mb >= 128
        assert children() == []  # the worker is gone; the next query starts another
        assert graph.sparql("ASK { ?s ?p ?o }")["boolean"] is True
    assert private_memory(os.getpid()) - mine < 64 << 20  # the sort's memory was never ours


def test_the_sparql_command_says_which_budget_stopped_the_query(index, capsys):
    t0 = time.monotonic()
    assert main(["sparql", "--index", str(index), "--timeout", "1", COUNT_4]) == SPARQL_TIMED_OUT
    assert time.monotonic() - t0 < 1.0 + 0.5 + 4.0  # a worker's start, the timeout, its grace
    assert "timed out" in capsys.readouterr().err
    code = main(["sparql", "--index", str(index), "--timeout", "60", "--memory-mb", "64", SORTED_3])
    err = capsys.readouterr().err
    assert code == SPARQL_OVER_MEMORY, err
    assert "memory budget of 64 MB" in err and "--memory-mb 64" in err and "Traceback" not in err
    assert children() == []


# -- questions ------------------------------------------------------------------------------------------


@pytest.fixture
def stand_in(monkeypatch, tmp_path):
    """The stand-in engine's opener (its module importable here and in the worker) and its log."""
    monkeypatch.syspath_prepend(str(STAND_IN))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(STAND_IN), os.environ.get("PYTHONPATH")) if p))
    from stand_in import StandInOpener

    log = tmp_path / "worker.log"
    return StandInOpener(log), log


def spec(tmp_path: Path, **budget):
    from dualgraph.answer.engine import AskConfig, EngineSpec

    return EngineSpec(index_dir=tmp_path, config=AskConfig(strategy="skg", budget=WorkBudget(**budget)))


def asked(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def test_a_bulk_run_records_the_question_past_its_memory_budget_and_goes_on(stand_in, tmp_path):
    from dualgraph.pipeline.bulk_answer import BulkAnswerConfig, bulk_answer

    opener, log = stand_in
    questions = tmp_path / "questions.json"
    texts = {"a": "first question", "b": "the hog question", "c": "third question"}
    questions.write_text(json.dumps({k: {"question": v} for k, v in texts.items()}), encoding="utf-8")
    out = tmp_path / "answers.jsonl"
    recipe = spec(tmp_path, memory_mb=64, deadline_s=20)
    engines: list[IsolatedEngine] = []

    def factory() -> IsolatedEngine:
        engines.append(IsolatedEngine(recipe, opener=opener, respawn="eager").open())
        return engines[-1]

    config = BulkAnswerConfig(runner="inline", progress=False, batch_size=8)
    t0 = time.monotonic()
    report = bulk_answer(questions, out, engine_factory=factory, strategy="skg", config=config)
    assert time.monotonic() - t0 < 20  # two budgets' worth of memory at 16 MB a step, and worker starts
    assert (report.answered, report.errors, report.over_budget) == (2, 1, 1)
    records = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert [records[k]["answer"] for k in ("a", "c")] == ["FIRST QUESTION", "THIRD QUESTION"]
    hog = records["b"]
    assert hog["over_budget"] == "memory" and hog["answer"] == ""
    assert hog["error"].startswith("over budget (memory): the question used more than its memory budget of 64 MB")
    assert [(c["name"], c["limit"], c["unit"]) for c in hog["caps"]] == [("memory_mb", 64, "MB")]
    # the batch of three went past the budget first; then each question alone, each in its own budget
    assert engines[0].worker.kills == 2 and asked(log).count("ask b") == 2
    assert children() == []  # the run closed its worker

    # a resume keeps the over-budget record: no engine opens, the hog is not asked again
    again = bulk_answer(questions, out, engine_factory=factory, strategy="skg", config=config)
    assert (again.skipped_resumed, again.kept_over_budget, again.retried_errors) == (3, 1, 0)
    assert len(engines) == 1 and asked(log).count("ask b") == 2
    # unless asked to: then it runs again (into the same budget)
    retry = config.model_copy(update={"retry_over_budget": True})
    third = bulk_answer(questions, out, engine_factory=factory, strategy="skg", config=retry)
    assert (third.retried_errors, third.over_budget, third.skipped_resumed) == (1, 1, 2)
    assert asked(log).count("ask b") == 3 and children() == []


def test_a_question_past_its_deadline_or_abandoned_is_stopped_and_the_rest_answered(stand_in, tmp_path):
    opener, log = stand_in
    with IsolatedEngine(spec(tmp_path, deadline_s=1.0), opener=opener).open() as engine:
        t0 = time.monotonic()
        late = engine.answer("a slow question", qid="s")
        assert late.over_budget == "deadline" and "timed out at its deadline of 1 s" in (late.error or "")
        assert [(c.name, c.limit) for c in late.caps] == [("deadline_s", 1.0)]
        assert 1.0 <= time.monotonic() - t0 < 4.0 and children() == []  # lazy: no worker until the next
        assert engine.answer("quick one").answer == "QUICK ONE"
        # a batch whose askers have all gone is stopped at once, and its questions are not run alone
        gone = [threading.Event(), threading.Event()]
        threading.Timer(0.3, lambda: [g.set() for g in gone]).start()
        t0 = time.monotonic()
        records = engine.answer_batch([("x", "slow x"), ("y", "plain y")], gone=gone)
        assert time.monotonic() - t0 < 0.9  # well before the deadline
        assert [r.error.split(":")[0] for r in records if r.error] == ["abandoned", "abandoned"]
        assert "ask y" not in asked(log)
    assert children() == []


def test_a_question_whose_asker_has_gone_is_stopped_while_its_batch_is_still_awaited(stand_in, tmp_path):
    """A 504 means the work for it has ended, though other requests still wait on the same engine
    call: the call is stopped (its worker killed) within GONE_TOGETHER_S of the flag, the gone
    question gets the abandoned record, and the one still awaited is answered by a fresh worker."""
    opener, log = stand_in
    with IsolatedEngine(spec(tmp_path, deadline_s=15.0), opener=opener).open() as engine:
        first = engine.worker.pid
        assert first is not None
        gone = [threading.Event(), threading.Event()]
        ended: list[float] = []

        def watch() -> None:  # when the worker running the slow question goes (or gives up after 20 s)
            end = time.monotonic() + 20
            while alive(first) and time.monotonic() < end:
                time.sleep(0.01)
            ended.append(time.monotonic())

        watcher = threading.Thread(target=watch)
        watcher.start()
        threading.Timer(0.5, gone[0].set).start()
        t0 = time.monotonic()
        records = engine.answer_batch([("x", "slow x"), ("y", "plain y")], gone=gone)
        took = time.monotonic() - t0
        watcher.join()
        # stopped within the wait for others to go too, plus a check and the kill; the old code ran
        # the slow question on until the deadline (15 s), the one still awaited waiting behind it
        assert ended[0] - t0 - 0.5 < GONE_TOGETHER_S + 1.0, ended[0] - t0
        assert took < 5.0, took
        assert records[0].error == ABANDONED and records[1].answer == "PLAIN Y" and records[1].error is None
        assert engine.worker.kills == 1 and asked(log) == ["open", "ask x", "open", "ask y"]

        # a question whose asker went before its batch started is never started; the rest are answered
        gone = [threading.Event(), threading.Event()]
        gone[0].set()
        records = engine.answer_batch([("s", "slow s"), ("z", "plain z")], gone=gone)
        assert records[0].error == ABANDONED and records[1].answer == "PLAIN Z"
        assert "ask s" not in asked(log) and engine.worker.kills == 1  # nothing stopped: no second worker
    assert children() == []


def test_a_worker_that_keeps_what_its_questions_took_is_replaced(stand_in, tmp_path):
    """Each call within its budget, but the memory kept between calls adds up: the worker goes
    once it holds more than one budget over what it held when it opened."""
    opener, log = stand_in
    with IsolatedEngine(spec(tmp_path, memory_mb=64), opener=opener).open() as engine:
        first = engine.worker.pid
        assert engine.answer("keep this").answer == "KEEP THIS" and engine.worker.pid == first  # 40 MB held
        assert engine.answer("keep that").answer == "KEEP THAT"  # 80 MB held: over 64, replaced
        assert engine.worker.kills == 1 and not alive(first)
        assert engine.answer("fresh").answer == "FRESH" and asked(log).count("open") == 2


RAY_CHILD = r"""
import json, sys
from pathlib import Path
from stand_in import StandInEngines
from dualgraph.answer.engine import AskConfig, EngineSpec
from dualgraph.budget import WorkBudget
from dualgraph.pipeline.bulk_answer import BulkAnswerConfig, bulk_answer
root = Path(sys.argv[1])
texts = {f"q{i}": ("the hog question" if i == 4 else f"question {i}") for i in range(8)}
(root / "questions.json").write_text(json.dumps({k: {"question": v} for k, v in texts.items()}))
spec = EngineSpec(index_dir=root, config=AskConfig(strategy="skg", budget=WorkBudget(memory_mb=64, deadline_s=20)))
config = BulkAnswerConfig(runner="ray", concurrency=1, batch_size=4, progress=False)
report = bulk_answer(root / "questions.json", root / "answers.jsonl", engine_factory=StandInEngines(spec, root / "log"),
                     strategy="skg", config=config)
print(report.model_dump_json())
"""


@pytest.mark.ray
def test_a_bulk_run_on_ray_actors_stops_the_question_past_its_budget(tmp_path):
    """The actors each run their engine in a worker of their own; a fresh local Ray in a child
    process, whose workers import the stand-in from PYTHONPATH as the budgeted workers do."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS",)}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), str(STAND_IN), env.get("PYTHONPATH")) if p)
    done = subprocess.run(
        [sys.executable, "-c", RAY_CHILD, str(tmp_path)], cwd=root, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert (report["answered"], report["errors"], report["over_budget"], report["runner"]) == (7, 1, 1, "ray")
    records = {r["id"]: r for r in map(json.loads, (tmp_path / "answers.jsonl").read_text().splitlines())}
    assert records["q4"]["over_budget"] == "memory" and records["q0"]["answer"] == "QUESTION 0"
    assert asked(tmp_path / "log").count("open") >= 2  # the worker killed past the budget was replaced


def test_the_worker_ends_when_its_parent_does(stand_in, tmp_path):
    """A parent killed outright (say, by the OOM killer) leaves no worker behind."""
    code = (
        "import sys, time\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from stand_in import StandInOpener\n"
        "from dualgraph.budget.worker import BudgetedWorker\n"
        "w = BudgetedWorker(StandInOpener(sys.argv[2]))\n"
        "w.wait_ready()\n"
        "print(w.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    import subprocess

    parent = subprocess.Popen(
        [sys.executable, "-c", code, str(STAND_IN), str(tmp_path / "log")], stdout=subprocess.PIPE, text=True
    )
    try:
        pid = int(parent.stdout.readline())
        assert alive(pid)
        parent.kill()
        parent.wait()
        end = time.monotonic() + 5
        while alive(pid) and time.monotonic() < end:
            time.sleep(0.1)
        assert not alive(pid)
    finally:
        parent.kill()
        parent.wait()


def test_over_budget_errors_cross_the_pipe_intact():
    import pickle

    for error in (DeadlineExceeded("the query", 5.0), MemoryExceeded("the question", 1024, used_mb=1100)):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error) and back.budget == error.budget
