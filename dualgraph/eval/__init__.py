"""Evaluation: score answers files against SpecsQA gold, compare runs, report, and judge with an LLM.

* :mod:`~dualgraph.eval.inputs`: read questions and answer records (bad lines fail loudly).
* :mod:`~dualgraph.eval.metrics`: list P/R/F1 and value accuracy, as the dev sets' reference scorer.
* :mod:`~dualgraph.eval.evaluate`: :func:`evaluate` / :func:`evaluate_many` -> results with breakdowns.
* :mod:`~dualgraph.eval.report`, :mod:`~dualgraph.eval.plots`: Markdown report, PNG plots, JSON.
* :mod:`~dualgraph.eval.judge`: LLM factual correctness and pairwise judging.
* :mod:`~dualgraph.eval.cli`: the ``dualgraph eval`` subcommand.

Plotting and judging are imported on use, so scoring needs neither matplotlib nor an LLM.
"""

from dualgraph.eval.evaluate import evaluate, evaluate_many
from dualgraph.eval.inputs import EvalInputError, Question, load_answers, load_questions
from dualgraph.eval.results import Comparison, EvalResult, GroupScore, QuestionRow
from dualgraph.eval.tables import format_table

__all__ = [
    "Comparison",
    "EvalInputError",
    "EvalResult",
    "GroupScore",
    "Question",
    "QuestionRow",
    "evaluate",
    "evaluate_many",
    "format_table",
    "load_answers",
    "load_questions",
]
