"""Chain-of-Knowledge (paradigm `cok`, seed §B): preparation with a consensus gate, dynamic
knowledge adapting rationale by rationale over heterogeneous sources, consolidation.

1. Preparation: k sampled chains of thought; if the vote share reaches the gate, answer at
   once (no retrieval) and say so.
2. Adapting: the question is read as rationales — the head clause ("which movies starring
   X") answered by the KG (the rule planner's SPARQL), and the predicate clause ("were
   released after 2008", "is the oldest", "are based on a novel") answered by the table whose
   documented columns it names (SQL filled from closed options: column, comparison, value —
   the LLM chooses, the rules' reading of the words is its prior) or else by the documents
   (BM25 passages that say so). Progressive (default): each rationale is written and queried
   from the corrected ones before it — the SQL filters the KG's candidates. "all at once":
   every rationale is queried from the question alone and the results are intersected.
3. Consolidation: the candidates every corrected rationale supports, with their evidence
   (KG paths, table rows, passages).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from core.agents.llm_agents import CoTAgent, decide, rule_prior
from core.agents.querygen import generate_query
from core.agents.rules import RuleAgent, answer_candidates
from core.analysis import RELATIVE_PRONOUNS, QuestionAnalysis, analyse
from core.constraints import _AFTER_VALUE, _BEFORE_VALUE, SUPERLATIVES, Comparison
from core.judges import node_label
from core.kg.store import KnowledgeGraph
from core.llm.client import LLM, LLMFault
from core.loop import Judgement, LoopSettings, State
from core.sources import list_collections, list_tables, run_sql
from core.sources.tables import TableInfo, check_sql, column_ranges, describe
from core.text import STOPWORDS, normalize
from core.trace import Action, Answer, Step

OP_TEXT = {
    ">": "greater than", ">=": "at least", "<": "less than", "<=": "at most", "=": "equal to",
    "between": "between", "max": "the largest", "min": "the smallest",
}  # fmt: skip
TABLE_MIN = 0.45  # a column that means the compared attribute this well answers it
_AUX = {"is", "are", "was", "were", "has", "have", "had"}
MAX_IN_LIST = 500
MAX_ANSWER_OPTIONS = 16  # candidates the answerer ranks (the rest follow them)


@dataclass
class CoKProgress:
    """Where a Chain-of-Knowledge run stands, kept on the state (`State.memo`) so that a
    copied state carries it. Written by `CoKAgent`; `CoKJudge`, the paradigm's own judge,
    reads how many rationales are done. Nothing else reads it."""

    stage: str = "prepare"  # prepare → kg → filters → done; or answered (consensus)
    head: str = ""  # the clause the KG answers ("which movies starring X")
    # what the rule planner reads: the head clause, or the whole question when the predicate
    # names a node of the KG ("… have *French* dialogue", "… are *thrillers*"): the name
    # constrains the answers
    kg_question: str = ""
    predicate: str = ""  # the clause a table, the KG's literals or the documents check
    # one per rationale, in order: {source, clause, before, after}; the same dicts are shown
    # in the steps' details, so closing a rationale (`after`) shows in its step too
    rationales: list[dict] = field(default_factory=list)
    filters: list[tuple[str, int | None]] = field(default_factory=list)  # rationales to come
    analysis: QuestionAnalysis | None = None  # of the whole question (where comparisons stand)
    comparisons: list[Comparison] = field(default_factory=list)
    sources: dict = field(default_factory=dict)  # the source scores the trace shows
    planned: int = 1  # rationales planned: the KG's and one per filter
    kg_written: bool = False  # a written SPARQL query answered the head clause in one step


def progress_of(state: State) -> CoKProgress | None:
    """The run's Chain-of-Knowledge progress (None before the first step)."""
    return state.memo if isinstance(state.memo, CoKProgress) else None


class CoKAgent:
    name = "cok"

    def __init__(self, kg: KnowledgeGraph, llm: LLM, settings: LoopSettings, home: Path):
        self.kg, self.llm, self.settings, self.home = kg, llm, settings, home
        self.prep = CoTAgent(llm, samples=max(1, settings.samples))
        # the KG rationale plans relation paths and entity constraints; each comparison of the
        # question becomes its own rationale, answered by a table column or the KG's literals
        self.rules = RuleAgent(kg, filters=False)

    # -- Reason -----------------------------------------------------------------------------
    def reason(self, state: State, memory: list[Step]) -> Action | None:
        cok = progress_of(state)
        if cok is None:
            state.memo = CoKProgress()
            action = self.prep.reason(state, [])
            action.description = "preparation: " + action.description
            action.params["max_tokens"] = 48  # a short rationale and its answer
            return action
        if cok.stage == "prepare":
            return self._after_preparation(state)
        if cok.stage == "kg":
            action = self._kg_step(state)
            if action is not None:
                return action
            self._close_rationale(state, f"{len(state.frontier)} candidate(s) from the KG")
            cok.stage = "filters"
        if cok.stage == "filters":
            return self._next_filter(state)
        return None

    @staticmethod
    def _progress(state: State) -> CoKProgress:
        """The progress `reason` started on the first step."""
        cok = progress_of(state)
        if cok is None:
            raise RuntimeError("Chain-of-Knowledge progress is read before its first step")
        return cok

    def _after_preparation(self, state: State) -> Action | None:
        cok = self._progress(state)
        total = sum(state.support.values())
        share = max(state.support.values()) / total if total else 0.0
        gate = self.settings.consensus
        if total > 1 and share >= gate:
            cok.stage = "answered"
            state.stop_reason = (
                f"consensus {share:.2f} ≥ {gate}: answered from the samples, no retrieval"
            )
            return None
        qa = analyse(state.question, self.kg)
        head, predicate = split_question(state.question, self.kg, qa)
        cok.head, cok.predicate, cok.rationales = head, predicate, []
        names_a_node = predicate and any(
            not m.text.strip().isdigit() for m in analyse(predicate, self.kg).entities
        )  # a name or a class word ("thrillers"); a bare year is a comparison's value
        cok.kg_question = state.question if names_a_node else head
        cok.analysis = qa  # of the whole question: where its comparisons stand
        cok.comparisons = list(qa.comparisons)
        cok.sources = self._select_sources(head, predicate, qa)
        cok.filters = [("compare", i) for i in range(len(qa.comparisons))]
        if cok.sources["documents"]["chosen"]:
            cok.filters.append(("documents", None))
        cok.planned = 1 + len(cok.filters)
        cok.stage = "kg"
        state.frontier, state.support = {}, {}
        self._open_rationale(state, "kg", cok.kg_question)
        action = self._kg_step(state)
        if action is None:
            state.stop_reason = state.stop_reason or "the KG part found no plan"
            cok.stage = "done"
            return None
        action.details["sources"] = cok.sources
        action.details["consensus"] = share
        return action

    # sources -----------------------------------------------------------------------------
    def _select_sources(self, head: str, predicate: str, qa) -> dict:
        """A score per source, shown in the trace: the KG by how well the head links; per
        comparison of the question, the table column whose name and documentation mean the
        compared attribute best (the KG's literals otherwise); the documents by the
        predicate's words left for text to confirm."""
        head_qa = analyse(head, self.kg)
        link = max((m.link_score for m in head_qa.entities), default=0.0)
        out = {"kg": {"score": round(min(1.0, link / 2), 3), "chosen": bool(head_qa.entities)}}
        compare = []
        for c in qa.comparisons:
            best = best_column(comparison_words(qa, c), c, self.home)
            chosen = bool(best and best["score"] >= TABLE_MIN)
            compare.append({"comparison": c.text(), "source": "table" if chosen else "kg",
                            **(best or {"score": 0.0})})  # fmt: skip
        out["table"] = {"score": max((c["score"] for c in compare), default=0.0),
                        "chosen": any(c["source"] == "table" for c in compare),
                        "comparisons": compare}  # fmt: skip
        words = [] if qa.comparisons else claim_words(predicate)
        has_docs = bool(list_collections(self.home))
        docs_score = 0.8 if (words and has_docs) else 0.0
        out["documents"] = {"score": docs_score, "chosen": docs_score >= 0.5, "words": words}
        out["llm"] = {"score": 0.3, "chosen": False, "note": "unverified: used only if all fail"}
        return out

    # rationales ----------------------------------------------------------------------------
    def _open_rationale(self, state: State, source: str, clause: str) -> None:
        """The rationale as the LLM would state it — progressive: from the corrected ones."""
        cok = self._progress(state)
        known = [r["after"] for r in cok.rationales] if self.settings.progressive else []
        prompt = (
            f"Question: {state.question}\nKnown: {'; '.join(known) or 'nothing yet'}\n"
            f"Step: {clause} →"
        )
        try:
            text = self.llm.complete(
                prompt, purpose="rationale", ledger=state.llm_calls, max_tokens=24, stop=["\n\n"]
            ).text
            before = next((line.strip() for line in text.splitlines() if line.strip()), "")
        except LLMFault as fault:
            before = f"(no rationale: {fault})"
        cok.rationales.append(
            {"source": source, "clause": clause, "before": before, "after": None}
        )

    def _close_rationale(self, state: State, after: str) -> None:
        rationale = self._progress(state).rationales[-1]
        rationale["after"] = f"{rationale['clause']} → {after}"

    def _kg_step(self, state: State) -> Action | None:
        """The head clause: a capable model writes SPARQL (validated, repaired); otherwise,
        or when that fails, the rule agent's planner writes it hop by hop."""
        cok = self._progress(state)
        if cok.kg_written:
            return None  # the written query answered the head clause in one step
        if not self.rules.started(state) and not self.llm.is_local:
            action = self._written_sparql(state)
            if action is not None:
                return action
        action = self.rules.reason(state, [], question=cok.kg_question)
        if action is not None:
            action.details["rationale"] = cok.rationales[-1]
        return action

    def _written_sparql(self, state: State) -> Action | None:
        cok = self._progress(state)
        qa = analyse(cok.head, self.kg)
        entities = [f"{m.text} = {m.ids[0]}" for m in qa.entities[:3] if m.ids]
        relations = [f"{r.label} = {r.id}" for r in self.kg.relations[:80]]
        task = (
            "Knowledge graph relations (label = IRI):\n"
            + "\n".join(relations)
            + "\nEntities (name = IRI):\n"
            + "\n".join(entities)
            + f"\nFind: {cok.head}\nSelect the answer entities as the first column."
        )

        def validate(query: str) -> None:
            if not self.kg.sparql(query, max_rows=1).rows:
                raise ValueError("the query is valid but returns nothing")

        written = generate_query(self.llm, "sparql", task, validate, state.llm_calls)
        if written.query is None:
            return None
        cok.kg_written = True
        return Action(
            kind="sparql",
            description=f"KG: {cok.head} (SPARQL by {self.llm.model})",
            query=written.query,
            language="sparql",
            source=f"kg:{self.kg.name}",
            details={"attempts": written.attempts},
        )

    def _written_sql(self, state: State, table: str) -> Action | None:
        """A capable model writes the table query (checked by the guard, run once, repaired
        from the error); None to fall back to the template."""
        cok = self._progress(state)
        info = describe(table, self.home)
        columns = "\n".join(f"- {c} {t}: {info.comments.get(c, '')}" for c, t in info.columns)
        labels = list(dict.fromkeys(state.labels.values()))[:MAX_IN_LIST]
        task = (
            f"DuckDB table {table} with columns:\n{columns}\nCandidates (names): "
            + "; ".join(labels[:100])
            + f"\nKeep the candidates that {cok.predicate}."
            + "\nSelect the candidate name column first."
        )

        def validate(query: str) -> None:
            check_sql(query, {t.name for t in list_tables(self.home)})
            run_sql(query, self.home, max_rows=1)

        written = generate_query(self.llm, "sql", task, validate, state.llm_calls)
        if written.query is None:
            return None
        return Action(
            kind="sql",
            description=f"table {table}: SQL by {self.llm.model}",
            query=written.query,
            language="sql",
            source=f"table:{table}",
            params={"table": table},
            details={"attempts": written.attempts},
        )

    def _next_filter(self, state: State) -> Action | None:
        cok = self._progress(state)
        if cok.filters and len(cok.rationales) > 1:
            last = state.last_step
            self._close_rationale(state, last.action.details.get("note", "") if last else "")
        if not cok.filters:
            cok.stage = "done"
            return None
        kind, index = cok.filters.pop(0)
        state.labels = {n: node_label(self.kg, n) for n in state.frontier}
        if kind == "documents":
            self._open_rationale(state, kind, cok.predicate)
            action = self._docs_action(state)
        else:
            comparison = cok.comparisons[index]
            choice = cok.sources["table"]["comparisons"][index]
            self._open_rationale(state, choice["source"], comparison.text())
            action = (
                self._table_action(state, comparison, choice)
                if choice["source"] == "table"
                else self._kg_filter(state, comparison)
            )
            if action is None:  # no attribute of the candidates to compare: say so, go on
                self._close_rationale(state, "no attribute to compare; not applied")
                return self._next_filter(state)
        if action is not None:
            action.details["rationale"] = cok.rationales[-1]
        return action

    def _kg_filter(self, state: State, comparison: Comparison) -> Action | None:
        """The comparison over the KG's literal values of the candidates (a FILTER)."""
        attribute = self.rules.attribute_for(state, comparison)
        if attribute is None:
            return None
        return Action(
            kind="filter",
            description=f"KG: keep candidates whose {self.kg.label(attribute)} is "
            f"{comparison.text()}",
            query=self.rules.filtered_sparql(state, attribute, comparison),
            language="sparql",
            source=f"kg:{self.kg.name}",
            params={"from": list(state.frontier), "relation": attribute,
                    "comparison": asdict(comparison)},  # fmt: skip
        )

    def _table_action(self, state: State, comparison: Comparison, choice: dict) -> Action | None:
        s = self.settings
        table = choice["table"]
        if not self.llm.is_local and s.progressive:
            action = self._written_sql(state, table)
            if action is not None:
                return action
        columns = comparable_columns(describe(table, self.home), comparison, self.home)
        # the whole question's reading: `state.reading` holds the head clause's by now
        words = comparison_words(self._progress(state).analysis, comparison)
        scores = column_scores(words, comparison, columns)
        prior = rule_prior([8 * x for x in scores])
        names = [c for c, _ in columns]
        q = f"Question: {state.question}\nThe column to compare is:"
        col_i, col_choice, fault = decide(
            self.llm, q, names, "choose column", state, prior, s.prior
        )
        ops = list(OP_TEXT)
        op_prior = rule_prior([4.0 * (o == comparison.op) for o in ops])
        q = f"Question: {state.question}\nThe {names[col_i]} must be:"
        op_i, op_choice, fault2 = decide(
            self.llm, q, [OP_TEXT[o] for o in ops], "choose comparison", state, op_prior, s.prior
        )
        op, column = ops[op_i], names[col_i]
        if op not in ("max", "min") and not comparison.values:
            op = comparison.op if comparison.op in ("max", "min") else "max"
        values = comparison.values if op not in ("max", "min") else ()
        if op == "between" and len(values) < 2:
            op = comparison.op
        labels = state.labels
        restrict = list(dict.fromkeys(labels.values()))[:MAX_IN_LIST] if s.progressive else None
        sql = fill_sql(table, key_column(table, list(labels.values()), self.home), column, op,
                       values, restrict)  # fmt: skip
        shown = " and ".join(_num(v) for v in values)
        return Action(
            kind="sql",
            description=f"table {table}: {column} {OP_TEXT[op]}"
            + (f" {shown}" if shown else "")
            + (f" among the {len(restrict)} candidates" if restrict else " (whole table)"),
            query=sql,
            language="sql",
            source=f"table:{table}",
            params={"table": table, "key_column": sql_key(sql)},
            details={
                "column_choice": _record(names, col_choice, col_i, prior, fault),
                "comparison_choice": _record(
                    [OP_TEXT[o] for o in ops], op_choice, op_i, op_prior, fault2
                ),
            },
        )

    def _docs_action(self, state: State) -> Action | None:
        cok = self._progress(state)
        words = cok.sources["documents"]["words"]
        mode = "per-candidate" if self.settings.progressive else "global"
        return Action(
            kind="search",
            description=f"documents: which candidates have a passage saying '{' '.join(words)}'",
            query=" ".join(words) if mode == "global" else f"<candidate name> {' '.join(words)}",
            language="text",
            source="docs",
            params={"words": words, "mode": mode},
        )

    # -- Summarize --------------------------------------------------------------------------
    def summarize(self, state: State, memory: list[Step]) -> tuple[list[Answer], int]:
        cok = progress_of(state)
        if cok is not None and cok.stage == "answered":
            return self.prep.summarize(state, memory)
        open_rationale = cok is not None and cok.rationales and cok.rationales[-1]["after"] is None
        if open_rationale and state.last_step:
            note = state.last_step.action.details.get("note", "")
            self._close_rationale(state, note or f"{len(state.frontier)} candidate(s)")
        topics = {i for m in state.reading.used for i in m.ids}
        candidates = answer_candidates(list(state.frontier), topics, state.reading.analysis)
        if not candidates:
            return [], 0
        evidence = {}
        for step in memory:
            for p in step.passages:
                evidence.setdefault(p.id, p)
        ordered = sorted(
            candidates, key=lambda n: (-state.support.get(n, 1), node_label(self.kg, n))
        )
        probs = self._answerer(state, memory, ordered)
        top = max(probs.values())
        answers = []
        for node in sorted(ordered, key=lambda n: -probs[n]):
            label = node_label(self.kg, node)
            passages = [
                p
                for p in evidence.values()
                if p.verified and normalize(label) in normalize(p.id + " " + p.text[:200])
            ]
            answers.append(
                Answer(
                    node,
                    label,
                    round(probs[node] / top, 4),
                    evidence=state.frontier[node],
                    passages=passages[:3],
                )
            )
        return answers, len(answers)

    def _answerer(self, state: State, memory: list[Step], ordered: list[str]) -> dict:
        """Consolidation as the seed does it: the answerer reads the queries, the table they
        returned and the passages, and ranks the candidates every rationale supports."""
        probs = {n: 1.0 for n in ordered}
        shown = ordered[:MAX_ANSWER_OPTIONS]
        if len(shown) < 2:
            return probs
        lines = []
        for step in memory:
            if step.action.language == "sql":
                rows = [p.text for p in step.passages][:20]
                lines += [f"SQL: {step.action.query}", "Result:", *rows]
            elif step.action.kind == "search":
                lines += [f"Passage: {p.text[:300]}" for p in step.passages[:3]]
        prompt = "\n".join(lines) + f"\n\nQuestion: {state.question}\nAnswer:"
        labels = [node_label(self.kg, n) for n in shown]
        _, choice, _fault = decide(
            self.llm, prompt, labels, "answer from SQL, table, passages", state
        )
        if choice is not None:
            probs.update({n: p for n, p in zip(shown, choice.probs, strict=True)})
            for n in ordered[MAX_ANSWER_OPTIONS:]:
                probs[n] = min(choice.probs) / 2
        return probs


class CoKJudge:
    """reward = share of the planned rationales corrected with evidence so far."""

    name = "cok"

    def score(self, state: State, memory: list[Step]) -> Judgement:
        cok = progress_of(state)
        if cok is None or cok.stage == "prepare":
            votes = sum(state.support.values())
            share = max(state.support.values()) / votes if votes else 0.0
            return Judgement(0.0, f"preparation: {share:.0%} of the samples agree")
        planned = cok.planned
        done = sum(1 for r in cok.rationales if r["after"] is not None)
        plan_done = cok.kg_written or state.reading.pending == 0
        current = 1 if cok.stage != "kg" or plan_done else 0
        corrected = min(planned, done + current)
        if not state.frontier:
            return Judgement(0.0, "no candidate left")
        return Judgement(
            round(corrected / planned, 4),
            f"{corrected} of {planned} rationale(s) corrected with evidence",
        )


# -- reading the question (English only; the KB's words come from its own docs) -------------
def split_question(question: str, kg: KnowledgeGraph, qa: QuestionAnalysis | None = None
                   ) -> tuple[str, str]:  # fmt: skip
    """Head clause (what to find) and predicate clause (what must hold of it): split at the
    first auxiliary verb after the first named entity ("… starring X | were released …"); a
    relative pronoun before it joins the two and belongs to neither ("… featuring X | that |
    are older than 2008").
    `qa`: the question's analysis, when the caller has it already."""
    clean = question.replace("[", " ").replace("]", " ")
    words = clean.split()
    qa = qa or analyse(question, kg)
    after = max((m.end for m in qa.entities[:1]), default=0)
    for i in range(after, len(words)):
        if normalize(words[i]) in _AUX:
            cut = i - 1 if i - 1 >= after and normalize(words[i - 1]) in RELATIVE_PRONOUNS else i
            return " ".join(words[:cut]), " ".join(words[i:])
    return " ".join(words), ""


def claim_words(predicate: str) -> list[str]:
    """Content words of a predicate that a column or a text must account for ("released",
    "based novel"): not function words, comparison words or numbers."""
    cues = {w for phrase, _ in (*_BEFORE_VALUE, *_AFTER_VALUE) for w in phrase.split()}
    cues |= set(SUPERLATIVES)
    words = [normalize(w.strip("?.,!")) for w in predicate.split()]
    return [
        w
        for w in words
        if w and w not in STOPWORDS and w not in _AUX and w not in cues and not w.isdigit()
    ]


def comparison_words(qa, comparison: Comparison) -> list[str]:
    """The words that say what is compared: the superlative itself ("latest") and the
    relation words (outside names) around the comparison ("came out before 2005")."""
    words = [comparison.cue] if comparison.op in ("max", "min") else []
    words += [
        qa.words[t]
        for t in qa.word_tokens
        if comparison.start - 4 <= t < comparison.end + 3
    ]
    return words or [comparison.cue or "value"]


def column_scores(words: list[str], comparison: Comparison, columns) -> list[float]:
    """How well each (name, documentation) column means the compared attribute: the best
    cosine (text model) of a compared word with the column's name or documentation, and for
    a comparison about time, with the idea of a year."""
    from core.textmodel import text_model

    model = text_model()
    if not columns:
        return []
    vecs = model.embed_words(words)
    out = []
    for name, doc in columns:
        texts = [name.replace("_", " ")] + [p.strip() for p in re.split(r"[;,]", doc) if p.strip()]
        sims = vecs @ model.embed_many(texts).T
        score = float(sims.max()) if sims.size else 0.0
        if comparison.temporal:
            score = max(score, float(model.embed(texts[0]) @ model.embed("year")))
        out.append(score)
    return out


def best_column(words: list[str], comparison: Comparison, home) -> dict | None:
    """The documented numeric column that means the compared attribute best, over all tables."""
    best = None
    for table in list_tables(home):
        columns = comparable_columns(table, comparison, home)
        for (column, _), score in zip(columns, column_scores(words, comparison, columns),
                                      strict=True):  # fmt: skip
            if best is None or score > best["score"]:
                best = {"table": table.name, "column": column, "score": round(score, 3)}
    return best


def numeric_columns(info: TableInfo) -> list[tuple[str, str]]:
    """(name, documentation) of a table's numeric columns."""
    numeric = ("INT", "BIGINT", "DOUBLE", "FLOAT", "DECIMAL", "HUGEINT", "SMALLINT", "REAL")
    return [(c, info.comments.get(c, "")) for c, t in info.columns if t.upper().startswith(numeric)]


def comparable_columns(info: TableInfo, comparison: Comparison, home) -> list[tuple[str, str]]:
    """The numeric columns whose values could meet the comparison — a count of writers (1 to
    12) is never "in 2012", a year never "at least 3" — judged by the column's own range
    widened by its span (so "after 2030" still reads a year column). All numeric columns
    when none fits, and for a superlative (any column has a largest value)."""
    columns = numeric_columns(info)
    if comparison.op in ("max", "min") or not comparison.values:
        return columns
    ranges = column_ranges(info.name, [c for c, _ in columns], home)

    def fits(column: str) -> bool:
        if column not in ranges:
            return False
        lo, hi = ranges[column]
        span = max(hi - lo, 1.0)
        return all(lo - span <= v <= hi + span for v in comparison.values)

    return [c for c in columns if fits(c[0])] or columns


def key_column(table: str, labels: list[str], home) -> str:
    """The text column that holds the candidates' names (most of them found)."""
    info = describe(table, home)
    texts = [c for c, t in info.columns if t.upper().startswith("VARCHAR")]
    if not texts:
        raise ValueError(f"table {table} has no text column to match the candidates")
    sample = ", ".join(_lit(lbl) for lbl in labels[:50]) or "''"
    best, best_n = texts[0], -1
    for column in texts:
        n = run_sql(f'SELECT count(*) FROM "{table}" WHERE "{column}" IN ({sample})', home).rows[0][
            0
        ]
        if n > best_n:
            best, best_n = column, n
    return best


def fill_sql(table: str, key: str, column: str, op: str, values, restrict) -> str:
    where = f'"{key}" IN ({", ".join(_lit(x) for x in restrict)})' if restrict else "TRUE"
    head = f'SELECT "{key}", "{column}" FROM "{table}"\nWHERE {where} AND '
    if op == "between":
        return head + f'"{column}" BETWEEN {_num(values[0])} AND {_num(values[1])}'
    if op in ("max", "min"):
        return head + (f'"{column}" = (SELECT {op}("{column}") FROM "{table}" WHERE {where})')
    return head + f'"{column}" {op} {_num(values[0])}'


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def sql_key(sql: str) -> str:
    found = re.match(r'SELECT "([^"]+)"', sql)
    return found.group(1) if found else ""


def _lit(text: str) -> str:
    return "'" + str(text).replace("'", "''") + "'"


def _record(options, choice, best, prior, fault) -> dict:
    return {
        "options": [
            {
                "option": o,
                "p_llm": round(choice.probs[i], 4) if choice else None,
                "p_rules": round(prior[i], 4),
            }
            for i, o in enumerate(options)
        ],
        "chosen": options[best],
        "method": choice.method if choice else "rules (fallback)",
        "fault": fault,
    }
