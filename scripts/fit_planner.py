"""Fit the rule planner's feature weights on the tuning files of the dev sets.

For every tuning question the planner enumerates its plans with their features; each plan is
executed on the KB and scored by the set F1 of its answers against gold. The weights maximise
the likelihood that a softmax over plan scores puts its mass on the best plans (listwise,
L2-regularised, plain gradient ascent in numpy). Held-out wordings and the bundled KB's
reviewers' sets are never read here.

    python scripts/fit_planner.py                 # writes core/agents/planner_weights.json
    python scripts/fit_planner.py --limit 300 --dry-run
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from devsets import dev_sets, ensure_kb  # noqa: E402

from core.agents.plan_ranker import PlanRanker  # noqa: E402
from core.agents.planner import (  # noqa: E402
    CONTEXT,
    CONTEXT_GATE,
    CONTEXT_READ,
    COVERAGE,
    FEATURES,
    RANKER,
    RERANK,
    RULE_WEIGHTS,
    UNMARKED,
    WEIGHTS_FILE,
    Planner,
    load_weights,
    rank_order,
)
from core.analysis import analyse  # noqa: E402
from core.engine import Engine  # noqa: E402
from core.evaluate import read_questions  # noqa: E402
from core.metrics import f1, hits_at_1  # noqa: E402
from core.workspace import Workspace  # noqa: E402

TUNING_SETS = ("family", "football", "business", "metaqa-bare-", "metaqa-1", "metaqa-2",
               "metaqa-3", "metaqa-ntm", "filters")  # fmt: skip
MAX_PLANS = 40
MAX_FRONTIER = 400  # enough to score a plan; keeps 3-hop walks over big fan-outs cheap


def plan_answers(kg, plan) -> list[str]:
    """Labels of a plan's answers, ranked as the rule agent ranks them."""
    from core.constraints import Comparison  # noqa: F401
    from core.kg.source import literal_number

    frontier = {plan.anchor: 1}
    for i, (rel, direction) in enumerate(plan.hops):
        last = i == len(plan.hops) - 1
        nxt: dict[str, int] = {}
        for node, w in frontier.items():
            for other in kg.edges(node, rel, direction):
                if other == plan.anchor and not (last and not plan.exclude_topic):
                    continue
                nxt[other] = nxt.get(other, 0) + w
        frontier = dict(list(nxt.items())[:MAX_FRONTIER])
        if not frontier:
            return []
    for anchor, rel, direction in plan.constraints:
        linked = set(kg.edges(anchor, rel, "in" if direction == "out" else "out"))
        kept = {n: w for n, w in frontier.items() if n in linked}
        frontier = kept or frontier
    for f in plan.filters:
        values = {}
        for n in frontier:
            for lit in kg.edges(n, f.relation, "out"):
                v = literal_number(lit)
                if v is not None:
                    values.setdefault(n, v)
        if f.comparison.op in ("max", "min"):
            pick = max if f.comparison.op == "max" else min
            best = pick(values.values(), default=None)
            kept = {n: frontier[n] for n, v in values.items() if v == best}
        else:
            kept = {n: frontier[n] for n, v in values.items() if f.comparison.holds(v)}
        frontier = kept or frontier
    anchors = {i for m in plan.constraint_mentions for i in m.ids}
    topic = set(plan.mention.ids)
    nodes = [n for n in frontier if n not in anchors]
    if plan.exclude_topic:
        others = [n for n in nodes if n not in topic]
        nodes = others or nodes
    nodes.sort(key=lambda n: (n in topic, -frontier[n], -kg.degree(n), kg.label(n)))
    return [kg.label(n) for n in nodes]


def collect(engine: Engine, limit: int
            ) -> tuple[list[np.ndarray], list[np.ndarray], list[str], list[str]]:  # fmt: skip
    """Per question: the feature matrix of its plans, each plan's quality, its dev set."""
    feats, quals, names, origin = [], [], None, []
    for ds in dev_sets():
        if not ds.name.startswith(TUNING_SETS):
            continue
        questions = read_questions(ds.tuning)
        if limit and len(questions) > limit:
            step = len(questions) / limit
            questions = [questions[int(i * step)] for i in range(limit)]
        kb = ensure_kb(engine.workspace, ds)
        kg = engine.kg(kb)
        planner = Planner(kg, context_gate=np.inf, context_read=RERANK)  # the encoder reads all
        t0, kept, reachable = time.perf_counter(), 0, 0
        for item in questions:
            qa = analyse(item.question, kg)
            plans = planner.plans(qa, limit=MAX_PLANS)
            if not plans:
                continue
            names = names or list(plans[0].features)
            answers = [plan_answers(kg, p) for p in plans]
            q = np.array([f1(a, item.answers) for a in answers])
            top1 = np.array([1.0 if a and hits_at_1(a, item.answers) else 0.0 for a in answers])
            quality = 0.5 * q + 0.5 * top1
            if quality.max() <= 0:
                continue
            reachable += 1
            feats.append(np.array([[p.features[n] for n in names] for p in plans], float))
            quals.append(quality)
            origin.append(ds.name)
            kept += 1
        print(f"{ds.name}: {kept}/{len(questions)} questions with a useful plan "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)  # fmt: skip
    return feats, quals, names, origin


def fit(feats, quals, names, start: dict[str, float], l2: float = 0.01, steps: int = 3000,
        lr: float = 0.05) -> dict[str, float]:  # fmt: skip
    """Listwise: maximise sum_q log sum_{p in best(q)} softmax(w·x_p); best = plans within
    0.05 of the best quality. Features are standardised for the descent, weights mapped back."""
    feats = [np.nan_to_num(x, posinf=0.0, neginf=0.0) for x in feats]
    allx = np.vstack(feats)
    mu, sd = allx.mean(axis=0), allx.std(axis=0) + 1e-6
    xs = [(x - mu) / sd for x in feats]
    best = [(q >= q.max() - 0.05).astype(float) for q in quals]
    w = np.array([start.get(n, 0.0) for n in names]) * sd
    for step in range(steps):
        grad = -l2 * w
        ll = 0.0
        for x, b in zip(xs, best, strict=True):
            s = x @ w
            s -= s.max()
            p = np.exp(s)
            p /= p.sum()
            pb = (p * b).sum()
            ll += np.log(max(pb, 1e-12))
            # d log sum_b p / dw = E_{p|b}[x] - E_p[x]
            grad += (x.T @ (p * b)) / max(pb, 1e-12) - x.T @ p
        w += lr * grad / len(xs)
        if step % 500 == 0:
            acc = np.mean([b[int(np.argmax(x @ w))] for x, b in zip(xs, best, strict=True)])
            print(f"step {step}: mean log-lik {ll / len(xs):.4f}, top-1 best {acc:.4f}")
    w = refine_top1(xs, best, w)
    raw = w / sd
    return {n: round(float(v), 4) for n, v in zip(names, raw, strict=True)}


def top1(xs, best, w) -> float:
    """Share of questions whose highest-scoring plan is one of their best plans."""
    return float(np.mean([b[int(np.argmax(x @ w))] for x, b in zip(xs, best, strict=True)]))


def refine_top1(xs, best, w, passes: int = 4) -> np.ndarray:
    """Coordinate search on what is measured (the best plan ranked first), from the
    likelihood solution: each weight in turn is scaled or shifted while that helps."""
    w = w.copy()
    score = top1(xs, best, w)
    print(f"likelihood solution: top-1 best {score:.4f}")
    for _ in range(passes):
        improved = False
        for j in range(len(w)):
            for change in (0.5, 0.8, 1.25, 2.0, -0.25, 0.25, -1.0, 1.0):
                trial = w.copy()
                trial[j] = w[j] * change if change > 0.3 else w[j] + change
                got = top1(xs, best, trial)
                if got > score + 1e-9:
                    w, score, improved = trial, got, True
        print(f"coordinate pass: top-1 best {score:.4f}")
        if not improved:
            break
    return w


def fit_ranker(feats, quals, names, hidden: int = 8, epochs: int = 400, lr: float = 0.01,
               l2: float = 1e-2, seed: int = 0, drop=()) -> PlanRanker:  # fmt: skip
    """The network of core.agents.plan_ranker, listwise like `fit` (the same target: the
    softmax's mass on the best plans), with Adam over all questions at once. The rules'
    columns are left out (their weights are added as they are)."""
    feats = [np.nan_to_num(x, posinf=0.0, neginf=0.0) for x in feats]
    allx = np.vstack(feats)
    mu, sd = allx.mean(axis=0), allx.std(axis=0) + 1e-6
    unseen = [i for i, n in enumerate(names) if n in RULE_WEIGHTS or n in drop]
    mu[unseen], sd[unseen] = 0.0, 1e9  # z = 0: the fit does not see them
    z = (allx - mu) / sd
    b_all = np.concatenate([(q >= q.max() - 0.05).astype(float) for q in quals])
    sizes = np.array([len(x) for x in feats])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    group = np.repeat(np.arange(len(feats)), sizes)
    rng = np.random.default_rng(seed)
    params = [np.zeros(len(names)),  # w
              rng.normal(0, 0.1, (len(names), hidden)), np.zeros(hidden),  # A, b
              rng.normal(0, 0.1, hidden)]  # v  # fmt: skip
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    for t in range(1, epochs + 1):
        w, a, b, v = params
        h = np.maximum(0.0, z @ a + b)
        s = z @ w + h @ v
        e = np.exp(s - np.maximum.reduceat(s, starts)[group])
        p = e / np.add.reduceat(e, starts)[group]
        pb = np.maximum(np.add.reduceat(p * b_all, starts), 1e-12)
        g = (p - p * b_all / pb[group]) / len(feats)  # d(-mean log pb)/ds
        gh = np.outer(g, v) * (h > 0)
        grads = [z.T @ g + l2 * w, z.T @ gh + l2 * a, gh.sum(axis=0), h.T @ g + l2 * v]
        for i, (param, grad) in enumerate(zip(params, grads, strict=True)):
            moments[i] = 0.9 * moments[i] + 0.1 * grad
            squares[i] = 0.999 * squares[i] + 0.001 * grad * grad
            param -= lr * (moments[i] / (1 - 0.9**t)) / (
                np.sqrt(squares[i] / (1 - 0.999**t)) + 1e-8)  # fmt: skip
        if t % 100 == 0:
            print(f"ranker epoch {t}: mean -log-lik {-np.log(pb).mean():.4f}", flush=True)
    w, a, b, v = params
    return PlanRanker(tuple(names), mu, sd, w, a, b, v,
                      np.array([RULE_WEIGHTS.get(n, 0.0) for n in names]))  # fmt: skip


def blend(ranker: PlanRanker, weights: dict[str, float], share: float) -> PlanRanker:
    """(1 - share) x the linear weights + share x the network, as one network: the linear
    score is linear in the standardised features too (up to a constant, which ranks nothing).
    Averaging the two carries better to a KB left out of the fit than either alone."""
    linear = np.array([0.0 if n in RULE_WEIGHTS else weights.get(n, 0.0)
                       for n in ranker.features]) * ranker.sd  # fmt: skip
    return PlanRanker(ranker.features, ranker.mu, ranker.sd,
                      (1 - share) * linear + share * ranker.w, ranker.A, ranker.b,
                      share * ranker.v, ranker.rules)  # fmt: skip


def refit_linear(kept, names, steps: int, drop=()) -> tuple[dict[str, float], float, float]:
    """The first stage refitted on the plans the rules keep, without the rules' columns (and
    `drop`): its weights, and how often the best plan ranked first before and after."""
    keep = [i for i, n in enumerate(names) if n not in RULE_WEIGHTS and n not in drop]
    cols = tuple(names[i] for i in keep)
    feats = [x[:, keep] for x, _ in kept]
    quals = [q for _, q in kept]
    start = {n: load_weights().get(n, 0.0) for n in cols}
    weights = fit(feats, quals, list(cols), start, steps=steps)
    before, after = (ranker_top1(PlanRanker.linear(cols, w), feats, quals)
                     for w in (start, weights))  # fmt: skip
    return weights, before, after


def ranker_top1(ranker: PlanRanker, feats, quals) -> float:
    """Share of questions whose best-scored plan is one of their best plans."""
    return float(np.mean([q[int(np.argmax(ranker.scores(np.nan_to_num(x))))] >= q.max() - 0.05
                          for x, q in zip(feats, quals, strict=True)]))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=400, help="questions per tuning file")
    parser.add_argument("--home", type=Path, default=ROOT / ".knowloop-bench")
    parser.add_argument("--steps", type=int, default=3000, help="of the linear fit")
    parser.add_argument("--linear", action="store_true",
                        help="refit the linear first stage instead of the ranker (then refit "
                             "the ranker: the first stage chooses the plans it sees)")
    parser.add_argument("--hidden", type=int, default=8, help="the ranker's hidden units")
    parser.add_argument("--share", type=float, default=0.5,
                        help="the network's share of the final score (the rest: the linear "
                             "weights); 0.5 carried best to a KB left out of the fit")
    parser.add_argument("--leave-out", nargs="*", default=[],
                        help="dev sets (prefixes) left out of the fit: a check of how it "
                             "carries to a KB it never saw (implies --dry-run)")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--reuse", action="store_true", help="fit the last collected plans")
    parser.add_argument("--drop", nargs="*", default=[], help="features left out (an ablation)")
    parser.add_argument("--gate", action="store_true",
                        help="report, per lead of the first stage, how often skipping the "
                             "second stage would change the chosen plan's quality (the shipped "
                             "weights; see CONTEXT_GATE in core/agents/planner.py)")
    args = parser.parse_args()
    engine = Engine(Workspace(args.home))
    cache = args.home / "fit-plans.pickle"
    if args.reuse and cache.is_file():
        feats, quals, names, origin = pickle.loads(cache.read_bytes())
    else:
        feats, quals, names, origin = collect(engine, args.limit)
        cache.write_bytes(pickle.dumps((feats, quals, names, origin)))
    if args.gate:
        gate_report(feats, quals, names, origin)
        return
    if args.leave_out:
        args.dry_run = True
        keep_q = [not o.startswith(tuple(args.leave_out)) for o in origin]
        left = [(x, q) for x, q, k in zip(feats, quals, keep_q, strict=True) if not k]
        feats = [x for x, k in zip(feats, keep_q, strict=True) if k]
        quals = [q for q, k in zip(quals, keep_q, strict=True) if k]
    # the rules' weights stay fixed: the plans a penalty rule rules out leave the fit, then the
    # rules' columns do (a bonus rule is not seen by the fit: it ranks as if it were absent)
    rules = [i for i, n in enumerate(names) if n in RULE_WEIGHTS]
    kept = []
    for x, q in zip(feats, quals, strict=True):
        ok = (x[:, rules] @ np.array([RULE_WEIGHTS[names[i]] for i in rules]) > -1.0
              if rules else np.ones(len(x), bool))  # fmt: skip
        kept.append((x[ok], q[ok]) if ok.any() else (x, q))
    if not args.linear:
        fit_the_ranker(args, kept, names, left if args.leave_out else None)
        return
    weights, before, after = refit_linear(kept, names, args.steps, args.drop)
    print(f"best plan ranked first: {before:.4f} -> {after:.4f} on {len(kept)} questions")
    if after < before:  # a fit that ranks worse than the weights it started from is not kept
        print("the fit ranks worse than the current weights: keeping them")
        return
    print(json.dumps(weights, indent=2))
    if not args.dry_run:
        data = json.loads(WEIGHTS_FILE.read_text()) if WEIGHTS_FILE.is_file() else {}
        data.pop("ranker", None)  # fitted on the old first stage's plans: refit it
        data.update({"fitted_on": FITTED_ON, "questions": len(kept), "weights": weights})
        WEIGHTS_FILE.write_text(json.dumps(data, indent=2) + "\n")
        print("the ranker was fitted on the old first stage: run this script again without "
              "--linear")


def gate_report(feats, quals, names, origin) -> None:
    """How often the chosen plan is a best one (top-1) when the second stage runs on every
    question and reads all plans, against skipping it where the first stage leads by >= g
    and letting the encoder read only the first stage's k best: per dev set, and the share
    of questions that skip the encoder (Planner's CONTEXT_GATE and CONTEXT_READ)."""
    cols = [names.index(f) for f in FEATURES]
    linear = PlanRanker.linear(FEATURES, load_weights())
    hops = FEATURES.index("hops")

    def chosen(scores, x) -> int:  # as Planner.plans orders the plans
        return int(rank_order(scores, x[:, COVERAGE], x[:, hops], x[:, UNMARKED] > 0)[0])

    rows = []  # (dev set, lead, best plans, first-stage choice, first-stage order, x)
    for x, q, name in zip(feats, quals, origin, strict=True):
        x = np.nan_to_num(x[:, cols])
        blind = x.copy()
        blind[:, CONTEXT] = 0.0  # what the first stage sees
        base = linear.scores(blind)
        top = np.sort(base)[::-1]
        lead = top[0] - top[1] if len(top) > 1 else np.inf
        rows.append((name.split("-")[0], lead, q >= q.max() - 0.05, chosen(base, blind),
                     np.argsort(-base, kind="stable"), x))  # fmt: skip
    sets = np.array([r[0] for r in rows])
    always = np.array([good[chosen(RANKER.scores(x), x)] for _, _, good, _, _, x in rows])
    gate, read_k = CONTEXT_GATE, CONTEXT_READ
    for g, k in ((np.inf, 5), (np.inf, read_k), (1.0, read_k), (1.5, read_k), (gate, 5),
                 (gate, read_k), (gate, RERANK)):  # fmt: skip
        top1, skipped = [], []
        for _, lead, good, first, order, x in rows:
            skipped.append(lead >= g)
            if lead >= g:
                top1.append(good[first])
                continue
            read = x.copy()
            read[order[k:], CONTEXT] = 0.0  # the plans the encoder does not read
            top1.append(good[chosen(RANKER.scores(read), read)])
        top1 = np.array(top1)
        per = " ".join(f"{s} {top1[sets == s].mean():.3f}/{always[sets == s].mean():.3f}"
                       for s in sorted(set(sets)))  # fmt: skip
        print(f"lead >= {g}, read {k}: skipped {np.mean(skipped):.2f}, top-1 {top1.mean():.4f} "
              f"(always, all read: {always.mean():.4f}); per set: {per}")


def fit_the_ranker(args, kept, names, left) -> None:
    """Fit the network on the collected plans; with `left` (questions of dev sets left out),
    report how it ranks those against the linear weights instead of writing it."""
    feats = [x for x, _ in kept]
    quals = [q for _, q in kept]
    start = load_weights()
    if left is not None:  # the linear weights saw the left-out KB: refit them without it
        start = {**refit_linear(kept, names, args.steps, args.drop)[0], **RULE_WEIGHTS}
    linear = PlanRanker.linear(tuple(names), start)
    ranker = fit_ranker(feats, quals, names, hidden=args.hidden, drop=args.drop)
    ranker = blend(ranker, start, args.share)
    before, after = ranker_top1(linear, feats, quals), ranker_top1(ranker, feats, quals)
    print(f"best plan ranked first on the fit's questions: linear {before:.4f} -> ranker "
          f"{after:.4f} ({len(feats)} questions)")
    if left is not None:
        lx = [x for x, _ in left]
        lq = [q for _, q in left]
        print(f"left out ({', '.join(args.leave_out)}, {len(lx)} questions), best plan ranked "
              f"first: linear {ranker_top1(linear, lx, lq):.4f} -> ranker "
              f"{ranker_top1(ranker, lx, lq):.4f} (both fitted without it)")
        return
    if not args.dry_run:
        data = json.loads(WEIGHTS_FILE.read_text())
        data["ranker"] = ranker.to_dict()
        data["ranker_fitted_on"] = f"{FITTED_ON}; {len(feats)} questions"
        WEIGHTS_FILE.write_text(json.dumps(data, indent=2) + "\n")
        print(f"wrote the ranker ({args.hidden} hidden units) to {WEIGHTS_FILE}")


FITTED_ON = ("tuning files of benchmarks/data/{family,football,business,filters} and the MetaQA "
             "dev sets (bare KB and with relations.ttl; NTM 1-hop)")


if __name__ == "__main__":
    main()
