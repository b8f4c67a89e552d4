"""How much of a question a relation path explains (`explain_paths`, vectorised over all the
plans of a question; `explain` for one path).

A word of the question is explained by a hop whose relation it names or whose reach it
describes, relative to the best explanation any relation of the KB offers it; a hop is
explained when some word names it well enough. The planner ranks paths by these fits and the
rule judge rewards by them, so both read the question the same way (core.analysis reads the
question; core.chain reads its hop structure).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.analysis import (
    ARTICLES,
    HAS_SHARE,
    HOP_EXPLAINED,
    HOP_NAMED_WORD,
    NAMED_CLEAR,
    NAMED_WEAK,
    ORDER_PULL,
    PLACE_NAMES,
    REACH_WEIGHT,
    SENSE_SCORE,
    SWAP_COST,
    TAU,
    TAU_SOFT,
    WH_WORDS,
    EntityMention,
    QuestionAnalysis,
    complement_names,
    do_question,
    literal_kinds,
    reaches_subjects,
    role_codes,
    verb_form,
    whole_names,
)
from core.chain import (
    chain_length,
    chain_tokens,
    order_ranks,
    possessive_parts,
    role_verbs,
    stranded_hop,
    subject_clause,
)
from core.kg.semantics import RelationSemantics, semantics_for
from core.kg.store import KnowledgeGraph
from core.text import STOPWORDS, word_forms


# -- how much of the question a path explains ----------------------------------------------
@dataclass(frozen=True)
class Explanation:
    coverage: float  # need-weighted share of the relation words the path explains
    hop_support: tuple[float, ...]  # per hop: how well the best word names it
    unexplained: int  # hops no word names (and no shape explains)
    shares: int  # hops that walk straight back over the relation just taken
    inversions: int  # pairs of hops whose words come in the opposite order
    unexplained_words: tuple[str, ...]  # words that need explaining and are not
    # relation phrases with no hop of their own: places of the question naming a relation
    # beyond the hops that took one, or parts of a possessive chain beyond the hops
    merged: int = 0
    hop_words: tuple[int, ...] = ()  # per hop: the token of the word that names it (-1: none)


@dataclass
class PathFits:
    """`explain` for many paths at once (one row per path): what the planner scores."""

    coverage: np.ndarray  # (n,)
    support: np.ndarray  # (n, K) per hop; 0 on padding
    unexplained: np.ndarray  # (n,)
    shares: np.ndarray  # (n,)
    inversions: np.ndarray  # (n,)
    left_mask: np.ndarray  # (words, n): words that need explaining and are not
    row_words: list[str]
    bare_shares: np.ndarray | None = None  # (n,) shape-explained hops without a cue word
    coverage_soft: np.ndarray | None = None  # (n,) coverage with a gentler fade (TAU_SOFT)
    merged: np.ndarray | None = None  # (n,) word pairs at two places one hop explains alone
    coverage_lex: np.ndarray | None = None  # (n,) coverage by word forms alone
    unnamed_lex: np.ndarray | None = None  # (n,) hops no word names by its form
    n_hops: np.ndarray | None = None  # (n,)
    echoes: np.ndarray | None = None  # (n,) uncued walks back over the word's own relation
    cued: np.ndarray | None = None  # (n,) walks back a cue asks for, named or not
    short: np.ndarray | None = None  # (n,) hops fewer than the grammar's parts (chain_length)
    word_at: np.ndarray | None = None  # (n, K) token of each hop's word; -1: no word names it
    chain_inversions: np.ndarray | None = None  # (n,) inversions within a possessive chain
    # (n,) bool: the type noun asked about names what the last hop reaches on this path
    # (`kind_on_path`; read where the topic `anchor` is given)
    on_kind: np.ndarray | None = None

    def explanation(self, i: int) -> Explanation:
        """Path i's explanation (what the judge reads and says)."""
        return Explanation(
            round(float(self.coverage[i]), 4),
            tuple(round(float(x), 4) for x in self.support[i][: int(self.n_hops[i])]),
            int(self.unexplained[i]),
            int(self.shares[i]),
            int(self.inversions[i]),
            tuple(w for w, m in zip(self.row_words, self.left_mask[:, i], strict=True) if m),
            max(int(self.merged[i]) if self.merged is not None else 0,
                int(self.short[i]) if self.short is not None else 0),
            tuple(int(t) for t in self.word_at[i][: int(self.n_hops[i])])
            if self.word_at is not None else (),
        )


ECHO_KIND_LEAD = 0.15  # see explain_paths: a walk back that reaches the kind asked for
ECHO_KIND_SLACK = 0.05  # ... within this of the kind the noun asked about reads most like


def arrival_kinds(sem: RelationSemantics, codes: np.ndarray) -> np.ndarray:
    """Per role code, what arriving over it gives: the relation's object kind ("year",
    "number", …) walked forwards, an entity walked backwards (and for padding, -1)."""
    return np.array([sem.kinds[c >> 1] if c >= 0 and c % 2 == 0 else "entity"
                     for c in np.asarray(codes).tolist()])  # fmt: skip




def relations_held(qa: QuestionAnalysis, anchor: str) -> np.ndarray:
    """(relations,): does the topic take part in each relation, either side (memoised)?"""
    key = ("held", anchor)
    if key not in qa._cache:
        held = np.zeros(len(qa.semantics.rel_ids), bool)
        for code in qa.semantics.kg.index.roles.get(anchor, ()):
            held[code >> 1] = True
        qa._cache[key] = held
    return qa._cache[key]


def best_at_anchor(qa: QuestionAnalysis, anchor: str) -> np.ndarray:
    """Each word's best reading (`qa.best`), lowered where the relation the word names best,
    by its form, is none of the topic's while one of the topic's own it names by meaning
    alone nearly as surely as a shared dictionary sense does (SENSE_SCORE): "who *coaches*
    X" of a club names `head coach` (a national team's) best by its form and the club's
    `manager` by the sense "coach" shares with it — the manager explains the word, not a
    detour through the club's country to that country's head coach. (A topic relation the
    word meets by form is no such reading: "the *clubs* run by coaches from X" walks on from
    the country, not over `club country`.) Memoised per question and topic."""
    key = ("best-at", anchor)
    if key not in qa._cache:
        sem, best = qa.semantics, qa.best.copy()
        n = len(sem.rel_ids)
        held = relations_held(qa, anchor)
        named, by_form = qa.named[:, :n], qa.lexical[:, :n] > 0
        if n and held.any() and len(best):
            rows = np.arange(len(best))
            top = named.argmax(axis=1)
            own = np.where(held & ~by_form, named, -np.inf).max(axis=1)
            lower = ~held[top] & by_form[rows, top] & (named[rows, top] >= best - 1e-6) \
                & (own >= SENSE_SCORE - 1e-6) & (own < best)  # fmt: skip
            best[lower] = own[lower]
        qa._cache[key] = best
    return qa._cache[key]


def explain_paths(qa: QuestionAnalysis, paths: np.ndarray, used=(), extra: np.ndarray | None = None,
                  anchor: str | None = None, first_implied: bool = False,
                  anchor_kind: np.ndarray | None = None, reach=None,
                  topic_forms: np.ndarray | None = None) -> PathFits:  # fmt: skip
    """How much of the question each path accounts for. `paths`: (n, K) role codes padded
    with -1; `extra`: (n, M) relation indices of constraint and filter relations, -1 padded.

    A word is explained by a hop whose relation it names or whose reach it describes
    ("which *city*"), relative to the best explanation any relation of the KB offers it
    (exp((got - best) / TAU)); words weigh by how much they need explaining. What a hop
    reaches is read from where the path is (`path_reach`) when the topic `anchor` is given. A hop is
    explained when some word names it well enough, or when it walks straight back over the
    relation a word just explained ("films that share actors with X"). `first_implied`: the
    topic entity takes part in one relation only ("musician" is only ever a profession), so
    the first hop needs no word. `anchor_kind` (one value per relation word, see
    `anchor_kind`): how well each word describes what the topic entity is; `topic_forms`
    (`anchor_forms`): the words that say so by their form, which need no hop's name."""
    sem = qa.semantics
    n, k = paths.shape
    rows = qa.word_rows(*used)
    words = len(rows)
    on_kind = kind_on_path(qa, paths) if anchor is not None else np.zeros(n, bool)
    if not words or n == 0:
        zero = np.zeros(n)
        unexplained = (paths >= 0).sum(axis=1) - (1 if first_implied else 0)
        return PathFits(np.ones(n), np.zeros((n, k)), np.maximum(unexplained, 0), zero, zero,
                        np.zeros((0, n), bool), [], zero, np.ones(n), zero, np.ones(n),
                        (paths >= 0).sum(axis=1), (paths >= 0).sum(axis=1), zero,
                        zero, zero, None, zero, on_kind)  # fmt: skip
    names_on_path = qa.role_names[rows][:, paths]  # (w, n, K): each hop by each word's name
    names_on_path = np.maximum(names_on_path, _clear_names(qa, rows)[:, paths])
    if anchor is not None:  # what each hop reaches, from the topic and from the hop before
        reach_vecs, pair_index = reach or path_reach(sem, anchor, paths)
        reach = REACH_WEIGHT * (qa.vectors[rows] @ reach_vecs.T)  # (w, pairs)
        by_reach = np.where(paths >= 0, reach[:, pair_index], -np.inf)
        got_hops = np.maximum(names_on_path, by_reach)
    else:
        by_reach = np.hstack([qa.reach[rows], np.full((words, 1), -np.inf)])[:, paths]
        got_hops = qa.explains[rows][:, paths]  # (w, n, K)
    focus = qa.answer.focus
    focus_row = next((i for i, r in enumerate(rows) if qa.word_tokens[r] == focus), None)
    ends = (paths >= 0).sum(axis=1) - 1  # each path's last hop
    keep = None
    if focus_row is not None and k > 1:
        # the noun the question asks about ("which *films* did X act in") names the answer:
        # only the last hop can explain it, by its name or by what it reaches
        last_rel = paths[np.arange(n), ends] >> 1
        keep = (paths >> 1) == last_rel[:, None]  # the last hop (or the same relation again:
        keep &= paths >= 0  # "grandparents" may name parent twice)
        got_hops[focus_row] = np.where(keep, got_hops[focus_row], -np.inf)
    owned_row = next((i for i, r in enumerate(rows) if qa.word_tokens[r] == qa.owned), None)
    owner_hop = np.zeros(n, bool)
    if owned_row is not None:
        # "*whose papers* appeared in J": the walk ends on the papers' owners, so the last hop
        # does not explain the noun — and a last hop on from things of its kind is named by
        # "whose"
        got_hops[owned_row, np.arange(n), ends] = -np.inf
        before = by_reach[owned_row, np.arange(n), np.maximum(ends - 1, 0)]
        final = paths[np.arange(n), ends]
        prev = paths[np.arange(n), np.maximum(ends - 1, 0)]
        # (to other things: not a value, a class, nor straight back whence the walk came)
        other = (arrival_kinds(sem, final) == "entity") & ~sem.walks_back[prev, final] & \
            ~np.isin(final >> 1, [sem.code[r] for r in sem.class_relations])  # fmt: skip
        owner_hop = (ends >= 1) & (before >= HOP_EXPLAINED) & other
    if focus_row is not None:
        # an agent noun is explained by what the answers do: "which *players* were born in
        # X" asks for people born in X who play for some club, not for their clubs
        has = focus_has(qa, rows[focus_row])[paths[np.arange(n), ends]]
        got_hops[focus_row, np.arange(n), ends] = np.maximum(
            got_hops[focus_row, np.arange(n), ends], has)
    kinds = np.zeros(n, bool)
    if focus_row is not None and qa.kind_focus is not None \
            and qa.kind_focus[0] == rows[focus_row]:  # fmt: skip
        kinds = on_kind
        at = ends[kinds]
        got_hops[focus_row, kinds, at] = np.maximum(got_hops[focus_row, kinds, at],
                                                    qa.kind_focus[1])  # fmt: skip
    # paths whose last hop ends on the literal kind a "when" / "how many" question asks for
    literal = literal_kinds(qa)
    on_literal = (np.isin(arrival_kinds(sem, paths[np.arange(n), np.maximum(ends, 0)]), literal)
                  & (ends >= 0)) if literal else np.zeros(n, bool)  # fmt: skip
    verbs = _time_verbs(qa, rows, used[0].end) if qa.answer.wh == "time" and used else []
    on_focus = np.zeros(n, bool)
    if not verbs and used and focus_row is not None:
        verbs = _object_verbs(qa, rows, used[0], focus_row)
        if verbs:  # the paths whose last hop the noun asked about names by its form
            on_focus = qa.role_lex[rows[focus_row]][paths[np.arange(n), np.maximum(ends, 0)]]
            on_focus = (on_focus > 0) & (on_focus >= qa.lexical[focus_row].max() - 1e-6)
        elif anchor is not None and (
                verbs := _object_verbs(qa, rows, used[0], focus_row, by_form=False)) \
                and not (relations_held(qa, anchor) & (qa.lexical[rows[verbs[0]]] > 0)).any():
            # ... or, a noun that names none, whose last hop arrives at what the verb is said
            # of, where the topic takes no part in what the verb names ("what *papers* did X
            # *publish*": X's papers, which are `published in` some journal — not the papers
            # of X's journals; "which movie did X *write*" walks over `written by` itself)
            last = paths[np.arange(n), np.maximum(ends, 0)]
            on_focus = patient_arrivals(qa, rows[verbs[0]])[last]
        else:
            verbs = []
    if verbs:  # "*when* was X *founded*": a last hop on a year explains the verb (and "what
        # *position* does X *play*": one the noun asked about names)
        idx = np.flatnonzero(on_literal | on_focus)[None, :]
        verbs, at = np.asarray(verbs)[:, None], ends[idx]
        got_hops[verbs, idx, at] = np.maximum(got_hops[verbs, idx, at], qa.best[rows][verbs])
    roles = role_verbs(qa, rows, used)
    for row, of_topic in roles:
        # "employed *as* a banker", "plays *as* forward": the verb says how the answers are
        # linked to that name — the first hop from the topic, or a constraint's own relation
        # — not whatever relation it names by itself (`employer`)
        best_row = qa.best[rows[row]]
        if not of_topic and used and _said_for(qa, qa.word_tokens[rows[row]], used[0]):
            # ... and, said with the topic too ("plays as a defender *for Nigeria*"), its
            # own reading of the first hop from it
            got_hops[row, :, 1:] = -np.inf
            continue
        got_hops[row] = -np.inf
        if of_topic:
            got_hops[row, :, 0] = np.where(paths[:, 0] >= 0, best_row, -np.inf)
    got = got_hops.max(axis=2)
    for row, of_topic in roles:
        if not of_topic:
            got[row] = qa.best[rows[row]]
    on_genus = np.zeros(n, bool)
    if focus_row is not None and qa.genus_focus is not None \
            and qa.genus_focus[0] == rows[focus_row]:  # fmt: skip
        # "which *teams* …" of a KB of clubs: the answers are of a kind the noun is the
        # dictionary's genus of — the word is explained, though it names no hop
        on_genus = kind_on_path(qa, paths, qa.genus_focus[1], first=True)
        got[focus_row] = np.where(on_genus, np.maximum(got[focus_row], qa.best[rows[focus_row]]),
                                  got[focus_row])  # fmt: skip
    if extra is not None and extra.size:
        by_name = qa.named[rows]  # (w, R + 1)
        got = np.maximum(got, by_name[:, extra].max(axis=2))
        if focus_row is not None:  # the noun asked about, said of the answers by a
            # constraint's relation, by its name or what it reaches ("Wexley Medal *winners*
            # educated at T": those who received that award)
            per_rel = np.append(qa.relation_reading(rows[focus_row]), -np.inf)
            got[focus_row] = np.maximum(got[focus_row], per_rel[extra].max(axis=1))
    if anchor_kind is not None:  # "the *film* X": words that say what the topic is
        kind = anchor_kind[rows]
        if focus_row is not None:
            kind[focus_row] = -np.inf
        got = np.maximum(got, kind[:, None])
    best = (qa.best if anchor is None else best_at_anchor(qa, anchor))[rows][:, None]
    explained = np.exp(np.minimum(0.0, got - best) / TAU)  # (w, n)
    need = qa.need[rows]
    total = float(need.sum())
    coverage = (need @ explained) / total if total > 1e-6 else np.ones(n)
    soft = np.exp(np.minimum(0.0, got - best) / TAU_SOFT)
    coverage_soft = (need @ soft) / total if total > 1e-6 else np.ones(n)
    # by word forms alone: the share of the words with a morphological match to some
    # relation whose best such relation is on the path, and hops no word names by form
    lex = qa.role_lex[rows][:, paths]  # (w, n, K)
    if focus_row is not None and k > 1:
        lex[focus_row] = np.where(keep, lex[focus_row], -1.0)
    if focus_row is not None:
        has = focus_has(qa, rows[focus_row], lexical=True)[paths[np.arange(n), ends]]
        lex[focus_row, np.arange(n), ends] = np.maximum(lex[focus_row, np.arange(n), ends], has)
        if kinds.any():
            lex[focus_row, kinds, ends[kinds]] = np.maximum(lex[focus_row, kinds, ends[kinds]],
                                                            qa.kind_focus[1])  # fmt: skip
    lex_best = qa.lexical[rows].max(axis=1) if qa.lexical.size else np.zeros(words)
    if len(verbs):
        lex[verbs, idx, at] = np.maximum(lex[verbs, idx, at], lex_best[verbs])
    lex_need = np.maximum(lex_best, 0.0)
    # (a word read by a relation of the topic's own, its form naming one the topic has none
    # of, is not asked to be read by its form: `best_at_anchor` lowered its best)
    lex_need[best[:, 0] < qa.best[rows]] = 0.0
    lex_got = lex.max(axis=2)  # (w, n)
    if topic_forms is not None:  # ... and the words that say by their form what the topic
        # is ("the Italy *national team*": Italy is one, so no hop need name `national team`)
        of_topic = topic_forms[rows].copy()
        if focus_row is not None:
            of_topic[focus_row] = False
        lex_got[of_topic] = np.maximum(lex_got[of_topic], lex_best[of_topic, None])
    if extra is not None and extra.size:
        lex_got = np.maximum(lex_got, np.hstack([qa.lexical[rows], np.full((words, 1), -1.0)])[
            :, extra].max(axis=2))  # fmt: skip
    lex_total = float(lex_need.sum())
    coverage_lex = (
        (lex_need @ (lex_got >= lex_best[:, None] - 1e-6)) / lex_total
        if lex_total > 1e-6 else np.ones(n)
    )  # fmt: skip
    unnamed_lex = ((lex.max(axis=0) <= 0) & (paths >= 0)).sum(axis=1)
    # each hop's word, in path order, preferring a word no earlier hop took ("the movies
    # *written* by the *writer* of X": one word per hop); a word explains a second hop only
    # when no other word can ("grandparents")
    support = np.zeros((n, k))
    word_row = np.zeros((n, k), np.int64)
    taken = np.zeros((words, n), bool)
    cols = np.arange(n)
    # ties go to the word the structure puts first (see order_ranks)
    tie = ORDER_PULL * np.minimum(order_ranks(qa, used[0])[np.asarray(qa.word_tokens)[rows]],
                                  10.0) if used else 0.0  # fmt: skip
    for j in range(k):
        col = got_hops[:, :, j]  # (w, n)
        free = np.where(taken, -np.inf, col - (tie[:, None] if used else 0.0))
        own = free.max(axis=0) >= HOP_EXPLAINED
        word_row[:, j] = np.where(own, free.argmax(axis=0), col.argmax(axis=0))
        support[:, j] = col[word_row[:, j], cols]
        real = paths[:, j] >= 0  # (padding takes no word)
        taken[word_row[real, j], cols[real]] = True
    # the words that are parts of a chain ("X's *brother*'s *siblings*", "the *siblings* of
    # X's *brother*"): each is a hop of its own, even on a walk straight back
    chain_word = np.zeros(words, bool)
    if used:
        chain = chain_tokens(qa, used[0])
        chain_word = np.array([qa.word_tokens[r] in chain for r in rows], bool)
    for b in range(1, k):  # a hop that had to reuse an earlier hop's word has it to itself
        for a in range(b):  # where that hop has another word nearly as good ("X's *son*'s
            shared = (word_row[:, a] == word_row[:, b]) & (paths[:, b] >= 0)  # *spouse*":
            back = sem.walks_back[paths[:, a], paths[:, b]] if b == a + 1 else np.zeros(n, bool)
            alt_col = np.where(taken, -np.inf, got_hops[:, :, a])  # "spouse" reaches the
            alt = alt_col.argmax(axis=0)  # son too, a little better than "son" names it)
            got = alt_col[alt, cols]
            # (not a walk straight back, whose shape the one word explains — unless both
            # words are parts of a chain, which are a hop each however unlike)
            parts = chain_word[alt] & chain_word[word_row[:, b]]
            shared &= ~back | parts
            do = shared & (got >= HOP_EXPLAINED) & ((got >= support[:, a] - SWAP_COST) | parts)
            word_row[do, a] = alt[do]
            support[do, a] = got_hops[alt[do], cols[do], a]
            taken[alt[do], cols[do]] = True
    if used and k > 1:  # hops that took their words in the wrong order swap them when the
        rank = order_ranks(qa, used[0])[np.asarray(qa.word_tokens)[rows]]  # swap costs little
        for a in range(k):
            for b in range(a + 1, k):
                wa, wb = word_row[:, a], word_row[:, b]
                real = (paths[:, a] >= 0) & (paths[:, b] >= 0) & (rank[wa] > rank[wb])
                swapped = got_hops[wb, cols, a] + got_hops[wa, cols, b]
                kept = got_hops[wa, cols, a] + got_hops[wb, cols, b]
                do = real & (swapped >= kept - SWAP_COST)
                word_row[do, a], word_row[do, b] = wb[do], wa[do]
                support[do, a] = got_hops[wb[do], cols[do], a]
                support[do, b] = got_hops[wa[do], cols[do], b]
    support = np.maximum(support, 0.0)
    support[paths < 0] = 0.0
    word_at = np.asarray(qa.word_tokens)[rows][word_row]  # (n, K) token index
    if first_implied:
        support[:, 0] = np.maximum(support[:, 0], HOP_EXPLAINED)
    # "*when* …", "how *many* …" names the last hop when it ends on a time/number, "*whose*"
    # the last hop on to the owners
    hit = on_literal | owner_hop
    support[cols[hit], ends[hit]] = np.maximum(support[cols[hit], ends[hit]], HOP_EXPLAINED)
    named = (support >= HOP_EXPLAINED) & (paths >= 0)
    unexplained = np.zeros(n, np.int64)
    shares = np.zeros(n, np.int64)
    shaped = np.zeros((n, k), bool)  # hops explained by walking back over a named one
    # ... the last hop, whose word is the one the hop before took, where no second word of the
    # question names that relation ("the films *directed* by the *director*"); in the middle of
    # a path it is the way on ("who starred in films for the *writer* of X")
    echoes = np.zeros(n, np.int64)
    cued = np.zeros(n, np.int64)  # walks back over a named hop, when a cue asks for others
    # the words of one place: a head noun and the verb of the clause said of it with the
    # topic ("the *awards* that X *won*" name one hop, X's awards, however both name it)
    mates = np.zeros(len(qa.words) + 1, bool)
    clause = subject_clause(qa.words, used[0]) if used else None
    if clause is not None:
        mates[[*clause[0], used[0].end]] = True
    naming = names_on_path >= PLACE_NAMES  # (w, n, K)
    mate_rows = mates[np.asarray(qa.word_tokens)[rows]]
    namers = naming.sum(axis=0) - np.maximum(naming[mate_rows].sum(axis=0) - 1, 0)  # (n, K)
    back = sem.walks_back
    hops_n = (paths >= 0).sum(axis=1)
    chain = chain_length(qa, used[0]) if used else 0
    # (the hops a part of the grammar names: a preposition left at the end names none)
    named_parts = chain - stranded_hop(qa, used[0]) if used else 0
    kind, best_kind, focus_at = asked_kind(qa, paths)
    for j in range(k):
        real = paths[:, j] >= 0
        if j == 0:
            unexplained += (real & ~named[:, 0]).astype(np.int64)
            continue
        is_back = real & back[paths[:, j - 1], paths[:, j]]
        # a hop named by the same word as the hop it walks back over is explained by shape
        same_word = (word_at[:, j] == word_at[:, j - 1]) | (mates[word_at[:, j]]
                                                            & mates[word_at[:, j - 1]])
        by_shape = is_back & named[:, j - 1] & (~named[:, j] | same_word)
        shares += by_shape.astype(np.int64)
        # (not back over a relation that is its own inverse: "X's *rivals*" are X's
        # competitors, not the competitors of X's competitors)
        cued += (is_back & named[:, j - 1] & ~sem.self_inverse[paths[:, j - 1] >> 1]
                 ).astype(np.int64)  # fmt: skip
        shaped[:, j] = by_shape
        final = (paths[:, j + 1] < 0) if j + 1 < k else np.ones(n, bool)
        # (not where the grammar has a part per hop: "X's *brother*'s *siblings*"; nor where
        # the walk back arrives at the kind asked for, as the hop before did not: "*which
        # group* is X's frontman in" — unless the noun asked about named that hop itself)
        asked = (kind[:, j] - kind[:, j - 1] >= ECHO_KIND_LEAD) & (kind[:, j] >= best_kind) \
            & (word_at[:, j - 1] != focus_at)  # fmt: skip
        # ... or of the kind the noun asked about is the dictionary's genus of ("what *teams*
        # make up the league X is in": clubs, each "a team of …")
        asked |= on_genus & (j == hops_n - 1)
        echo = by_shape & same_word & (namers[:, j] < 2) & final & (hops_n > named_parts) \
            & ~asked
        if echo.any():
            # (nor where another word, not the one asked about, names what the walk passes:
            # "who *performed* the *albums* by X" is X — the walk back is what it says)
            passed = by_reach[:, :, j - 1] >= HOP_EXPLAINED
            passed &= np.arange(words)[:, None] != word_row[:, j][None, :]
            passed &= arrival_kinds(sem, paths[:, j - 1]) == "entity"  # (a number: no thing)
            if focus_row is not None:
                passed[focus_row] = False
            echo &= ~passed.any(axis=0)
        echoes += echo.astype(np.int64)
        unexplained += (real & ~named[:, j] & ~by_shape).astype(np.int64)
        if qa.asks_for_others:  # "films that *share* directors": the shape is asked for
            support[by_shape, j] = np.maximum(support[by_shape, j], 1.0)
    if not qa.asks_for_others:  # no "other", "same", "share" in the question: a weaker reading
        bare, shares = shares, np.zeros(n, np.int64)
        cued[:] = 0
    else:
        bare = np.zeros(n, np.int64)
        echoes[:] = 0
    inversions = np.zeros(n, np.int64)
    chain_inversions = np.zeros(n, np.int64)
    if used:
        rank = order_ranks(qa, used[0])[word_at]  # (n, K): where each hop's word says it goes
        # "X's *child*'s *husband*": the parts of a possessive chain (ranks 1 …) are walked
        # in the order they are written, whatever the KB's statistics say
        in_chain = (rank >= 1) & (rank <= len(possessive_parts(qa.words, used[0].end)))
        for a in range(k):
            for b in range(a + 1, k):
                inverted = named[:, a] & named[:, b] & (rank[:, a] > rank[:, b])
                inversions += inverted.astype(np.int64)
                chain_inversions += (inverted & in_chain[:, a] & in_chain[:, b]).astype(np.int64)
    # places of the question that name relations, against the hops that took a word: more
    # places than hops means one hop stands for two ("the *spouse* of X's *husband*"). Words
    # within two tokens of each other are one place ("the *director* that *directed* X").
    split = np.zeros(n, np.int64)
    if used and words > 1:
        tokens_at = np.asarray(qa.word_tokens)[rows]
        order = np.argsort(tokens_at)
        at = tokens_at[order].astype(float)[:, None]  # (w, 1), in question order
        # words that name a relation of the path by its name (not a kind of node: "the
        # *movies* directed by"), need explaining and are explained
        names_a_hop = names_on_path.max(axis=2) >= PLACE_NAMES  # (w, n)
        strong = (need > 0.5)[:, None] & names_a_hop & (explained > 0.5)
        if focus_row is not None:  # the noun asked about names the answers, not a hop
            strong[focus_row] = False
        strong = strong[order]  # (w, n)
        # the token of the previous strong word, per path: a gap over two starts a new place
        # the previous strong word, per path; close words are one place only when they name
        # the same relation and no possessive parts them ("X's *mother*'s *father*")
        idx = np.arange(words)[:, None]
        seen = np.maximum.accumulate(np.where(strong, idx, -1), axis=0)
        prev = np.vstack([np.full((1, n), -1), seen[:-1]])  # (w, n) row in `order`, -1: none
        ptok = tokens_at[order][np.maximum(prev, 0)]
        marks = np.cumsum([w == "'s" for w in qa.words])
        rel_of = qa.scores[rows].argmax(axis=1)[order] if qa.scores.size else np.zeros(words)
        same_place = (prev >= 0) & (at - ptok <= 2) & (marks[tokens_at[order]][:, None]
                      == marks[ptok]) & (rel_of[:, None] == rel_of[np.maximum(prev, 0)])
        n_places = (strong & ~same_place).sum(axis=0)
        took = np.zeros(n, np.int64)
        for j in range(k):
            took += ((paths[:, j] >= 0) & ((support[:, j] >= HOP_EXPLAINED) | shaped[:, j])
                     ).astype(np.int64)  # fmt: skip
        split = np.maximum(0, n_places - np.maximum(took, 1))
    left_mask = (need[:, None] > 0.5) & (explained < 0.5)  # (w, n): said in the judge's reason
    row_words = [qa.words[qa.word_tokens[r]] for r in rows]
    return PathFits(coverage, support, unexplained, shares, inversions, left_mask, row_words,
                    bare, coverage_soft, split, coverage_lex, unnamed_lex,
                    hops_n, echoes, cued, np.maximum(0, chain - hops_n),
                    np.where(support >= HOP_NAMED_WORD, word_at, -1), chain_inversions, on_kind)


def _clear_names(qa: QuestionAnalysis, rows: list[int]) -> np.ndarray:
    """(words, role codes + 1): HOP_EXPLAINED for the roles of the one relation a word clearly
    prefers though weakly (NAMED_WEAK, NAMED_CLEAR: "who *studied* in X" is `education`, 0.33
    and 0.15 above the next), -inf elsewhere; not for the noun asked about, which says what
    the answer is (see `_score_words`). Memoised per rows."""
    key = ("clear", *rows)
    if key in qa._cache:
        return qa._cache[key]
    out = np.full((len(rows), qa.role_names.shape[1]), -np.inf)
    clear, best = clear_choice(qa.named[rows][:, :-1])
    focus = -1 if qa.answer.focus is None else qa.answer.focus
    clear &= np.asarray(qa.word_tokens)[rows] != focus
    for w in np.flatnonzero(clear):
        r = int(best[w])
        out[w, 2 * r] = HOP_EXPLAINED
        if qa.semantics.rel_ids[r] not in qa.semantics.inverse:  # (else the other
            out[w, 2 * r + 1] = HOP_EXPLAINED  # direction has the inverse's name)
    qa._cache[key] = out
    return out


def clear_choice(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of a (words, relations) table: does the word clearly prefer one relation,
    though weakly (at least NAMED_WEAK and NAMED_CLEAR above its next best), and which."""
    if table.shape[1] < 2:
        return np.zeros(len(table), bool), np.zeros(len(table), np.int64)
    order = np.argsort(-table, axis=1, kind="stable")
    rows = np.arange(len(table))
    top, second = table[rows, order[:, 0]], table[rows, order[:, 1]]
    return (top >= NAMED_WEAK) & (top - second >= NAMED_CLEAR), order[:, 0]


def _time_verbs(qa: QuestionAnalysis, rows: list[int], after: int) -> list[int]:
    """ "*When* was X *founded*": the time asked for is the time of the predicate's verb, so
    a path's last hop that ends on a time explains the verb, however well the verb names
    another relation by its form (`founded by`, a person). The rows (of `rows`) of the verb:
    participles after the topic, or else the word after the subject of a do-question ("when
    did X *open*")."""
    after_rows = [row for row, r in enumerate(rows) if qa.word_tokens[r] >= after]
    verbs = [row for row in after_rows if verb_form(qa.words[qa.word_tokens[rows[row]]])]
    if after_rows and not verbs and do_question(qa.words, after):
        verbs = after_rows[:1]
    return verbs


def _object_verbs(qa: QuestionAnalysis, rows: list[int], topic: EntityMention,
                  focus_row: int, by_form: bool = True) -> list[int]:  # fmt: skip
    """ "What *position* does X *play*", "X *plays* in which *position*": where the noun
    asked about is the verb's object, the verb says nothing of its own — a last hop the noun
    names explains it too, however well the verb names another relation by its form (`plays
    for club`). The row (of `rows`) of the verb: the one word after the subject of a
    do-question that ends the question (no stranded preposition: "which team does X play
    *for*" asks for what the verb names), or the word right after the subject, followed by
    "in" / "as" and the wh-word. Only where the noun names a relation by its form (with
    `by_form`; without, only where it names none)."""
    words, focus = qa.words, qa.word_tokens[rows[focus_row]]
    if qa.answer.wh != "thing" or (qa.lexical[rows[focus_row]].max() > 0) != by_form:
        return []
    after = [row for row, r in enumerate(rows) if qa.word_tokens[r] >= topic.end]
    if not after:
        return []
    verb = qa.word_tokens[rows[after[0]]]
    rest = [w for w in words[verb + 1 :] if w]
    if focus < topic.start and not rest and do_question(words, topic.start):
        return after[:1]
    between = tuple(w for w in words[verb + 1 : focus] if w)
    if verb == topic.end and focus > verb and between in _OBJECT_LINKS:
        return after[:1]
    return []


def patient_arrivals(qa: QuestionAnalysis, row: int) -> np.ndarray:
    """Per role code (+ padding): does a walk over it arrive at nodes that mostly are the
    subjects of a relation the word of score row `row` names by its form (papers, which are
    `published in` journals, for "publish")? Memoised per question and row."""
    key = ("patients", row)
    if key not in qa._cache:
        sem = qa.semantics
        named = np.flatnonzero(qa.lexical[row] > 0)
        out = np.zeros(2 * len(sem.rel_ids) + 1, bool)
        for code, nexts in sem.kg.index.follow.items():
            if code < len(out) - 1:
                out[code] = any(reaches_subjects(nexts, int(r)) for r in named)
        qa._cache[key] = out
    return qa._cache[key]


# what may stand between a verb and the noun asked about as its object: "X plays *in which*
# position", "X works *as what*"
_OBJECT_LINKS = frozenset((*pre, wh) for pre in ((), ("in",), ("as",)) for wh in ("which", "what"))


def _said_for(qa: QuestionAnalysis, verb: int, topic: EntityMention) -> bool:
    """Is the topic a complement of the verb at token `verb` after a preposition ("plays as
    a defender *for X*": `complement_names`)?"""
    return any(set(nodes) & set(topic.ids[:2]) for nodes in complement_names(qa, verb).values())


def focus_has(qa: QuestionAnalysis, row: int, lexical: bool = False) -> np.ndarray:
    """Per role (+ padding): how well the word names (by meaning, or by word form alone) a
    relation that most nodes arriving over the role have themselves (`KGIndex.follow`)."""
    key = ("focus-has", row, lexical)
    if key not in qa._cache:
        share = qa.semantics.follow_share
        names = (qa.role_lex if lexical else qa.role_names)[row]  # (codes + 1)
        held = share >= HAS_SHARE
        n = len(names) - 1
        held[np.arange(n), np.arange(n) ^ 1] = False  # not the relation just walked, back
        # (nor anything a value "has": an age of 26 is some player's shirt number too)
        held[:n][arrival_kinds(qa.semantics, np.arange(n)) != "entity"] = False
        qa._cache[key] = np.where(held, names[None, :], -1.0).max(axis=1)
    return qa._cache[key]


def kind_on_path(qa: QuestionAnalysis, paths: np.ndarray, forms: frozenset[str] | None = None,
                 first: bool = False) -> np.ndarray:  # fmt: skip
    """(n,) bool: does the type noun asked about (`QuestionAnalysis.kind_focus`) name what
    the path's last hop reaches, where the path reaches it — the nodes the relations it
    names point at? "which *nation* is the employer of X headquartered in": from cities
    `located in` reaches nations, though over all its subjects it reaches cities as often
    (`RelationSemantics.kind_after`). The first hop is read by the relation alone, unless
    `first` (then by the kinds its relation reaches: `RelationSemantics.kind_heads`).
    `forms`: another noun's forms than the type noun's."""
    out = np.zeros(len(paths), bool)
    if forms is None:
        forms = qa.kind_focus[2] if qa.kind_focus is not None else frozenset()
    if not forms or not len(paths):
        return out
    sem = qa.semantics
    last = (paths >= 0).sum(axis=1) - 1
    for i in np.flatnonzero(last >= (0 if first else 1)).tolist():
        if last[i] >= 1:
            out[i] = bool(forms & sem.kind_after(int(paths[i, last[i] - 1]),
                                                 int(paths[i, last[i]])))  # fmt: skip
        elif first:
            out[i] = bool(forms & sem.kind_heads[int(paths[i, 0])])
    return out


def path_reach(sem: RelationSemantics, anchor: str, paths: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """What each hop of each path reaches: the first from the topic's actual neighbours, the
    later ones from the nodes the hop before reached (`sem.reach_after`). Returns the distinct
    vectors and, per (path, hop), the row of its vector (padding: row 0)."""
    n, k = paths.shape
    if n == 0 or k == 0:
        return np.zeros((1, sem.model.dim), np.float32), np.zeros(paths.shape, np.int64)
    prev = np.full((n, k), -1, np.int64)  # -1: the hop starts at the topic entity
    prev[:, 1:] = paths[:, :-1]
    width = 2 * len(sem.rel_ids) + 2
    keys = np.where(paths >= 0, (prev + 1) * width + paths, -1)
    unique, inverse = np.unique(keys, return_inverse=True)
    inverse = inverse.reshape(n, k)
    vecs = []
    for key in unique.tolist():
        if key < 0:
            vecs.append(np.zeros(sem.model.dim, np.float32))
            continue
        before, code = divmod(key, width)
        vecs.append(hop_reach(sem, anchor, before - 1, code))
    return np.stack(vecs), np.where(paths >= 0, inverse, 0)


def reached_vector(kg: KnowledgeGraph, anchor: str, hops: list[tuple[str, str]]) -> np.ndarray:
    """What the last hop of a path from `anchor` reaches (`path_reach`'s vector for it)."""
    sem = semantics_for(kg)
    codes = role_codes(sem, hops)
    return hop_reach(sem, anchor, codes[-2] if len(codes) > 1 else -1, codes[-1])


def hop_reach(sem: RelationSemantics, anchor: str, prev: int, code: int) -> np.ndarray:
    """What a hop over role `code` reaches: from the topic's actual neighbours for the first
    hop (`prev` -1), else from the nodes the hop before, over role `prev`, reached."""
    return sem.reach_from(anchor, code) if prev < 0 else sem.reach_after(prev, code)


def explain(qa: QuestionAnalysis, hops: list[tuple[str, str]], used=(), extra_rels=(),
            anchor: str | None = None, first_implied: bool = False,
            kind: np.ndarray | None = None) -> Explanation:  # fmt: skip
    """`explain_paths` for one path given as (relation, direction) hops (memoised: the
    planner leaves the explanations of the plans it scored, which the judge then reads)."""
    key = explain_key(anchor, hops, extra_rels, used)
    cached = qa._cache.get(key)
    if cached is not None:
        fits, i = cached
        return fits.explanation(i)
    sem = qa.semantics
    paths = np.array([role_codes(sem, hops)], dtype=np.int64).reshape(1, -1)
    extra = [sem.code[r] for r in extra_rels if r in sem.code]
    extra_arr = np.array([extra], dtype=np.int64) if extra else None
    fits = explain_paths(qa, paths, used, extra_arr, anchor, first_implied, kind)
    qa._cache[key] = (fits, 0)
    return fits.explanation(0)


def asked_kind(qa: QuestionAnalysis, paths: np.ndarray, which: bool = True
               ) -> tuple[np.ndarray, float, int]:  # fmt: skip
    """(per hop: how much the noun asked by "which"/"what" reads like what it reaches; the
    least a hop must reach to give one of the kinds it reads most like — a "*squad*" reads
    more like clubs than players; that noun's token). Zeros, inf and -2 where no such noun
    is asked about (not a noun a garbled ask ends on). `which=False`: any noun asked about
    ("name X's fellow *alumni*"), not only one right after "which" / "what"."""
    row, at = qa.focus_row, qa.answer.focus
    if row is None or qa.reach is None or not qa.reach.size or at is None or at < 1 \
            or (which and qa.words[at - 1] not in ("which", "what")):  # fmt: skip
        return np.zeros(paths.shape), np.inf, -2
    return np.append(qa.reach[row], 0.0)[paths], qa.reach[row].max() - ECHO_KIND_SLACK, at


def explain_key(anchor, hops, extra_rels, used) -> tuple:
    return ("explain", anchor, tuple(hops), tuple(extra_rels), *((u.start, u.end) for u in used))


def anchor_kind(qa: QuestionAnalysis, kg: KnowledgeGraph, node: str,
                mention: EntityMention | None = None) -> np.ndarray:  # fmt: skip
    """Per relation word: how much it sounds like the kind of thing the topic entity is —
    what the other nodes in the topic's roles are ("the *film* X": X is one of the subjects
    of `starred actors`, which are films). Only the words in one noun phrase with the
    topic's mention can say so — right before it (an apposition: "the *film* X", "the *city*
    of X") or right after it ("the X *national team*"); -inf for the others."""
    key = ("anchor-kind", node, mention and mention.start)
    if key not in qa._cache:
        roles = kg.index.roles.get(node, ())
        out = np.full(len(qa.word_tokens), -np.inf, np.float32)
        by_form = np.zeros(len(qa.word_tokens), bool)
        if roles and qa.reach is not None and len(qa.reach):
            kind = qa.reach[:, [c ^ 1 for c in roles]].max(axis=1)
            # ... or, in a noun phrase with the name, names by its form a relation whose name
            # names the topic (`named_by_head`: its object, or the subject of an "N of"), in a
            # role the topic holds and never its other, as its head noun or its whole name
            # ("the city of X": X is a birth *city* and has none; "the X *national team*";
            # not "the parent of X", who has parents)
            if mention is not None:
                sem = qa.semantics
                objects = {c >> 1 for c in roles if sem.named_by_head(c) and c ^ 1 not in roles}
                whole = {(r, i) for r, span in whole_names(qa.words, sem) for i in span}
                for row, t in enumerate(qa.word_tokens):
                    if not _apposed(qa.words, mention, t):
                        continue
                    if t == mention.start - 1 and qa.lexical[row].max() <= 0:
                        # "the *film* Polyester", a noun naming no relation by its form: it
                        # says what X is, however well its meaning also matches a relation
                        # or its documentation ("the film's director")
                        kind[row] = max(kind[row], qa.best[row])
                    forms = word_forms(qa.words[t])
                    for r in objects:
                        lex = qa.lexical[row, r]
                        if lex > 0 and (forms & sem.head_forms[r] or (r, t) in whole):
                            kind[row] = max(kind[row], lex)
                            by_form[row] = t >= mention.end  # (see anchor_forms)
            near = [
                mention is None or mention.start - APPOSITION <= t < mention.start
                or _compound_after(qa.words, mention, t)
                or _possessed_modifier(qa.words, mention, t)
                for t in qa.word_tokens
            ]
            out = np.where(near, kind, -np.inf).astype(np.float32)
            by_form &= np.array(near, bool)
        qa._cache[key] = out
        qa._cache[("anchor-forms", *key[1:])] = by_form
    return qa._cache[key].copy()


def anchor_forms(qa: QuestionAnalysis, kg: KnowledgeGraph, node: str,
                 mention: EntityMention | None = None) -> np.ndarray:  # fmt: skip
    """Per relation word: does it say by its form what the topic is, as a compound after
    its name ("the X *national team* coach", "X's *national team* coach": the head of a
    relation the topic is the object of)? Not an apposition before the name: "the clubs of
    managers of the *nationality* of X" walks the relation that word names."""
    anchor_kind(qa, kg, node, mention)
    return qa._cache[("anchor-forms", node, mention and mention.start)]


APPOSITION = 2  # "the film X", "club X": the words this close before a name say what it is


def _apposed(words: list[str], mention: EntityMention, t: int) -> bool:
    """Is token t a noun in one noun phrase with the name: "the *club* X", "the *city* of X",
    "the X *national team*" (not "*employs* X", "*headquarters* in X")?"""
    at = mention.start
    if mention.end < len(words) and words[mention.end] == "'s":
        # "the captain of *X's club*": the phrase is X's club, not X — but for the modifier
        # of a compound X owns ("X's *club* captain": X is the club)
        return _possessed_modifier(words, mention, t)
    if t == at - 1:
        return at >= 2 and words[at - 2] in ARTICLES
    if t == at - 2 and words[at - 1] == "of":
        return at >= 3 and words[at - 3] in ARTICLES
    return _compound_after(words, mention, t)


def _possessed_modifier(words: list[str], mention: EntityMention, t: int) -> bool:
    """Is token t a modifier of a compound right after the name's possessive ("X's
    *club* captain", "X's *national team* coach"; not "X's *wife* born …", nor the
    compound's head)? It may say what X is, as "the *club* X" does."""
    def noun(k: int) -> bool:
        return k < len(words) and words[k].isalpha() and words[k] not in STOPWORDS \
            and words[k] not in WH_WORDS

    first = mention.end + 1
    return (mention.end < len(words) and words[mention.end] == "'s"
            and first <= t < first + APPOSITION and all(noun(k) for k in range(first, t + 2))
            and not verb_form(words[t + 1]))  # fmt: skip


def _compound_after(words: list[str], mention: EntityMention, t: int) -> bool:
    """Is token t a noun right after the name, in the noun phrase the name opens ("the
    France *national team*", "the Sweden *squad* is …")? Only after an article: "X's
    films" or "Tom Hanks films" without one ask about X's things, not about X."""
    if not (mention.end <= t < mention.end + APPOSITION) or mention.start == 0:
        return False
    if words[mention.start - 1] != "the":
        return False
    return all(w.isalpha() and w not in STOPWORDS and w not in WH_WORDS
               for w in words[mention.end : t + 1])
