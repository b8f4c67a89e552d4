"""The KG editor's table of one entity's triples, turned into one KB edit.

Kept out of the page so the rule (a changed row removes the loaded triple and adds the new
one; unchanged cells keep their exact node) is tested without a browser and can serve any
front end that edits a table of triples.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.trace import Triple

COLUMNS = ["subject", "relation", "object"]


@dataclass
class TableChanges:
    """The table's edits as one KB edit: what to add (texts the editor parses), what it looks
    like to a reader, what to remove (the loaded triples) and why it cannot be saved yet."""

    add: list[str] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)
    remove: list[Triple] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def table_changes(triples: list[Triple], state: dict | None) -> TableChanges:
    """Turn the data editor's edit state into triples to add and remove.

    A changed row removes the loaded triple and adds the new one; cells left as they were keep
    their exact node (by id, so a label shared by two entities cannot pick the wrong one)."""
    out = TableChanges()
    state = state or {}
    deleted = {int(i) for i in state.get("deleted_rows") or []}
    for pos, change in sorted((int(k), v) for k, v in (state.get("edited_rows") or {}).items()):
        if pos in deleted or not 0 <= pos < len(triples):
            continue
        old = triples[pos]
        cells, shown, problem = [], [], None
        for col, old_id, old_label in zip(
            COLUMNS, (old.s, old.p, old.o), (old.s_label, old.p_label, old.o_label), strict=True
        ):
            new = str(change.get(col, old_label) or "").strip()
            if not new:
                problem = f"row {pos + 1}: the {col} is empty"
                break
            keep = new == old_label and "|" not in old_id
            cells.append(old_id if keep else new)
            shown.append(new)
        if problem:
            out.problems.append(problem)
        elif shown != [old.s_label, old.p_label, old.o_label]:
            out.remove.append(old)
            out.add.append("|".join(cells))
            out.shown.append("|".join(shown))
    out.remove += [triples[pos] for pos in sorted(deleted) if 0 <= pos < len(triples)]
    for i, row in enumerate(state.get("added_rows") or [], start=1):
        values = [str(row.get(c) or "").strip() for c in COLUMNS]
        if not any(values):
            continue
        if not all(values):
            out.problems.append(f"new row {i}: fill in subject, relation and object")
            continue
        out.add.append("|".join(values))
        out.shown.append("|".join(values))
    return out
