"""What a user interface may use of core: the one module the pages import.

The pages draw; everything else they reach through the `Engine` (and the objects it hands
out: runs, feedback, knowledge, evaluations, sources, settings, editors) and through the
names below — the values those objects take and return, and the helpers that turn them into
something to show. `tests/test_architecture.py` checks that `pages/` imports nothing else of
core, so a module inside core can move or split without a page changing, and a newcomer sees
in one screen what the UI depends on (the same habit as smolagents' and datasette's
top-level names). The package's own `core/__init__.py` stays empty of imports so the CLI and
the question path load only what they use.
"""

from __future__ import annotations

from core import uploads  # the Data page's imports, listings and deletions
from core.app_settings import (
    DEADLINE_RANGE,
    AppSettings,
    apply_secrets,
    key_status,
    test_connection,
)
from core.compare import Comparison, answer_text, compare_stream
from core.engine import Engine
from core.evaluate import LabelledQuestion, parse_question_file, sample_questions
from core.evaluations import (
    Evaluation,
    EvaluationStore,
    StoredRow,
    compare_rows,
    compare_summaries,
    group_column,
    hits_by_group,
    result_table,
    run_evaluation,
    settings_record,
    summaries,
    summaries_json,
    table_csv,
)
from core.examples import Examples, examples_for
from core.feedback import FeedbackLoop, Reask
from core.graph_view import neighbourhood_view
from core.kg.edits import Edit, EditConflict, KBEditor
from core.kg.importer import KBFileError
from core.kg.lookup import NAMED_ALIKE, find_entities
from core.kg.store import KnowledgeGraph
from core.kg.table_edit import COLUMNS as TRIPLE_COLUMNS
from core.kg.table_edit import table_changes
from core.learn import TrajectoryDetails, explain, learn
from core.llm.client import warm_up
from core.llm.local import status as local_model_status
from core.loop import LoopSettings
from core.metrics import tied_at_top
from core.paradigms import describe as describe_paradigm
from core.paradigms import names as paradigm_names
from core.report import (
    graph_html,
    knowledge_figure,
    report_filename,
    report_html,
    reward_figure,
    step_topics,
    topics_of,
    totals,
    trace_graph,
)
from core.settings_spec import BY_NAME as SETTING_BY_NAME
from core.settings_spec import SETTINGS, setting
from core.support import BADGES, LOW, NO_ANSWER, UNVERIFIED, VERIFIED, last_judged
from core.trace import Answer, Step, Support, Trace, Triple
from core.uploads import MAX_UPLOAD_MB, Upload
from core.wkm.actions import label as action_label
from core.wkm.actions import path_text
from core.wkm.store import KnowledgeStore
from core.workspace import DEFAULT_KB, Workspace, default_home

__all__ = [
    # the engine and its workspace
    "Engine", "Workspace", "DEFAULT_KB", "default_home", "KnowledgeGraph", "LoopSettings",
    "paradigm_names", "describe_paradigm", "warm_up", "local_model_status",
    # a run and how it is drawn
    "Trace", "Step", "Answer", "Support", "Triple", "answer_text", "tied_at_top", "graph_html",
    "trace_graph", "neighbourhood_view", "knowledge_figure", "reward_figure", "step_topics",
    "totals", "topics_of", "report_html", "report_filename", "BADGES", "LOW", "NO_ANSWER",
    "UNVERIFIED", "VERIFIED", "last_judged",
    # comparing paradigms
    "Comparison", "compare_stream",
    # the outer loop: feedback, KB edits, learned knowledge
    "FeedbackLoop", "Reask", "KBEditor", "Edit", "EditConflict", "TRIPLE_COLUMNS",
    "table_changes", "find_entities", "NAMED_ALIKE", "KnowledgeStore", "TrajectoryDetails",
    "explain", "learn", "action_label", "path_text",
    # evaluation
    "LabelledQuestion", "parse_question_file", "sample_questions", "Evaluation",
    "EvaluationStore", "StoredRow", "compare_rows", "compare_summaries", "group_column",
    "hits_by_group", "result_table", "run_evaluation", "settings_record", "summaries",
    "summaries_json", "table_csv", "Examples", "examples_for",
    # data and settings
    "uploads", "Upload", "MAX_UPLOAD_MB", "KBFileError", "AppSettings", "DEADLINE_RANGE",
    "apply_secrets", "key_status", "test_connection", "SETTINGS", "SETTING_BY_NAME", "setting",
]  # fmt: skip
