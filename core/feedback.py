"""The outer feedback loop: answers are rated, fixes become KG edits, affected questions are
asked again (seed §A: feedback updates the knowledge environment; KG edits keep it exact and
inspectable). One place for the CLI and the pages to go through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.kg.edits import Edit, EditError
from core.runs import Feedback, Proposal, StoredRun
from core.trace import Trace

if TYPE_CHECKING:  # the engine hands this loop out (Engine.feedback)
    from core.engine import Engine


@dataclass
class Reask:
    """A stored question asked again after an edit: what it answered then and now."""

    run: StoredRun
    before: list[str]
    after: Trace

    @property
    def changed(self) -> bool:
        return self.before[:1] != self.after.answer_labels[:1] or set(self.before) != set(
            self.after.answer_labels
        )


@dataclass
class Rated:
    """What `FeedbackLoop.rate` stored, and why it was not yet learned from (None: it was)."""

    feedback: Feedback
    proposal: Proposal | None
    not_learned: str | None = None


class FeedbackLoop:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.runs = engine.runs

    def record(self, trace: Trace, source: str = "ask") -> int:
        """Keep a finished run so it can be rated and re-asked."""
        return self.runs.save(trace, source=source)

    def rate(self, run_id: int, **feedback) -> Rated:
        """Store feedback (a rating, a comment, a fix it proposes) for run `run_id`; a rating
        then teaches the run's KB (a rated run becomes a chosen or rejected trajectory), the
        same for the CLI and the Ask page. Refused feedback raises (FeedbackError, StoreBusy)
        with nothing written; a failure to learn is reported, never loses the feedback."""
        saved, proposal = self.runs.add_feedback(run_id, **feedback)
        not_learned = None
        if saved.rating:
            try:
                self.learn_ratings(self.runs.get(run_id).kb)
            except ValueError as exc:  # StoreBusy, a KB deleted meanwhile
                not_learned = str(exc)
        return Rated(saved, proposal, not_learned)

    def learn_ratings(self, kb: str) -> int:
        """Turn the KB's rated runs into trajectories (core.learn.remember_rated)."""
        from core.learn import remember_rated

        return remember_rated(self.engine.workspace.root, self.engine.kg(kb))

    def accept(
        self,
        proposal_id: int,
        *,
        who: str = "",
        base_version: int | None = None,
        allow_new_relation: bool = False,
    ) -> Edit:
        """Turn a fix proposal into one KG edit (with its provenance) and close the proposal."""
        proposal = self.runs.proposal(proposal_id)
        if proposal.status != "pending":
            raise EditError(f"proposal #{proposal_id} is already {proposal.status}")
        editor = self.engine.editor(proposal.kb)
        done = [
            e
            for e in editor.history()
            if e.kind == "edit"
            and e.feedback_id is not None
            and e.feedback_id == proposal.feedback_id
        ]
        if done:  # the edit was made but closing the proposal failed (e.g. store busy): finish
            self.runs.decide(proposal_id, accepted=True, edit_id=done[-1].id, who=who)
            return done[-1]
        edit = editor.edit(
            add=proposal.add,
            remove=proposal.remove,
            why=proposal.why or "fix from feedback",
            who=who,
            feedback_id=proposal.feedback_id,
            base_version=base_version,
            allow_new_relation=allow_new_relation,
        )
        self.runs.decide(proposal_id, accepted=True, edit_id=edit.id, who=who)
        return edit

    def reject(self, proposal_id: int, *, who: str = "") -> Proposal:
        self.runs.proposal(proposal_id)  # an unknown id is refused before anything is written
        return self.runs.decide(proposal_id, accepted=False, who=who)

    def affected(self, edit: Edit) -> list[StoredRun]:
        """Stored questions whose traces used a changed triple or touched a changed entity."""
        changed = [*edit.added, *edit.removed]
        nodes = {n for t in changed for n in (t.s, t.o) if not n.startswith('"')}
        return self.runs.runs_using(edit.kb, triples=changed, nodes=nodes)

    def reask(self, edit: Edit, runs: list[StoredRun] | None = None) -> list[Reask]:
        """Ask the affected questions again on the edited KG; keep the new runs too."""
        results = []
        for run in self.affected(edit) if runs is None else runs:
            trace = self.engine.ask(run.question, kb=run.kb, paradigm=run.paradigm)
            self.record(trace, source="reask")
            results.append(Reask(run, run.answers, trace))
        return results
