"""kill -9 at random points of `knowloop import`, `table`, `edit` and `learn` (issue 14).

    .venv/bin/python benchmarks/kill_trials.py [--trials 100] [--seed 14]

Each trial starts one operation as a real CLI subprocess on a workspace, SIGKILLs it at a
seeded-random moment of its run, then starts a fresh process that opens the workspace
(`knowloop kbs`, `knowloop ask`, the table and knowledge stores) and checks:

- it opens: every command exits 0;
- nothing acknowledged is lost: an edit whose id was printed is in the log and the store, a
  printed import/table/learn is there whole, runs and knowledge learned before are there;
- never half: the KB or table is either its state before the trial or the complete new one;
- no `kbs/.import-*` staging survives that next start, and RocksDB's LOG.old.* stay <= 3.

Trials go round-robin over the four operations; each operation keeps one workspace for all
its trials (so leftovers and logs would pile up if they were not cleaned). The kill moment is
measured in the operation's own CPU seconds (robust to the load of a shared machine), drawn
uniformly from [0.8 x the CLI's start-up, 1.2 x the operation's calibrated CPU], so it lands
late in start-up, in the work and after the acknowledgement. Writes
`benchmarks/results/kill_trials.json`; exits 1 when any trial fails a check.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import RESULTS_DIR, machine_info, now_iso, write_json  # noqa: E402

OPS = ("import", "table", "edit", "learn")
KB = "films"
EDITS_PER_TRIAL = 3
QUESTIONS_PER_LEARN = 4
MAX_LOG_OLD = 3
CHECK_QUESTION = "who directed [Film1]"


# -- data ------------------------------------------------------------------------------------
def write_kb(path: Path, films: int, seed: int) -> None:
    """Films with a director, two actors and a year: ~4 triples a film."""
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(films):
            fh.write(f"Film{i}\tdirected_by\tPerson{rng.randrange(films // 4 + 1)}\n")
            for _ in range(2):
                fh.write(f"Film{i}\tstarred_actors\tActor{rng.randrange(films // 2 + 1)}\n")
            fh.write(f"Film{i}\trelease_year\t{1950 + rng.randrange(70)}\n")


def write_csv(path: Path, rows: int, seed: int, extra: bool) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("title,year,rating" + (",votes\n" if extra else "\n"))
        for i in range(rows):
            votes = f",{rng.randrange(10**6)}" if extra else ""
            fh.write(f"Film{i},{1950 + rng.randrange(70)},{rng.random() * 10:.1f}{votes}\n")


def write_questions(path: Path, films: list[int], kb_file: Path) -> None:
    directors = {}
    for line in kb_file.read_text(encoding="utf-8").splitlines():
        s, p, o = line.split("\t")
        if p == "directed_by":
            directors[s] = o
    rows = [f"who directed [Film{i}]\t{directors[f'Film{i}']}" for i in films]
    path.write_text("question\tanswers\n" + "\n".join(rows) + "\n", encoding="utf-8")


# -- running the CLI ---------------------------------------------------------------------------
def cli(home: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "core", "--home", str(home), *args]


def env(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "KNOWLOOP_HOME": str(home),
        "KNOWLOOP_NO_WARM_UP": "1",
    }


def run(home: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        cli(home, *args), cwd=REPO, env=env(home), capture_output=True, text=True, timeout=timeout
    )


@dataclass
class Killed:
    """One process run until it has used `cpu_budget` CPU seconds: SIGKILLed then, unless
    it ended first."""

    rc: int
    out: str
    killed: bool
    cpu_s: float


_TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, all its threads (from /proc; 0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK


def run_until(home: Path, args: list[str], cpu_budget: float) -> Killed:
    """The kill clock is the child's own CPU time, not the wall clock: on a shared 2-core
    machine wall time swings 3x with the load, CPU time hardly, so a drawn moment lands at
    the same point of the work whatever else runs."""
    proc = subprocess.Popen(
        cli(home, *args), cwd=REPO, env=env(home), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    killed, used, give_up = False, 0.0, time.monotonic() + 300  # never hang the benchmark
    while proc.poll() is None:
        used = cpu_seconds(proc.pid)
        if used >= cpu_budget or time.monotonic() > give_up:
            proc.send_signal(signal.SIGKILL)
            killed = True
            break
        time.sleep(0.002)
    out, _ = proc.communicate(timeout=60)
    return Killed(proc.returncode, out, killed, used)


def cpu_of(home: Path, args: list[str]) -> float:
    """CPU seconds of one unkilled CLI run (its own rusage, so runs may go side by side)."""
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            cli(home, *args), cwd=REPO, env=env(home), stdout=subprocess.DEVNULL, stderr=err
        )
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        assert proc.returncode == 0, f"{args[0]}: {err.read()[-500:]}"
    return usage.ru_utime + usage.ru_stime


# -- what the workspace holds, read without opening it through KnowLoop -------------------------
def staging_entries(home: Path) -> list[str]:
    kbs = home / "kbs"
    return sorted(e for e in os.listdir(kbs) if e.startswith(".")) if kbs.is_dir() else []


def log_old_count(home: Path, kb: str = KB) -> int:
    store = home / "kbs" / kb / "store"
    return sum(1 for n in os.listdir(store) if n.startswith("LOG.old.")) if store.is_dir() else 0


def kb_state(home: Path, name: str) -> tuple | None:
    """(content hash, quads in the store, triples in the index) of a KB, None when absent."""
    import pyoxigraph as ox

    from core.kg.store import load_index

    kb_dir = home / "kbs" / name
    if not (kb_dir / "meta.json").is_file():
        return None
    meta = json.loads((kb_dir / "meta.json").read_text())
    store = ox.Store.read_only(str(kb_dir / "store"))
    quads = sum(1 for _ in store.quads_for_pattern(None, None, None, ox.DefaultGraph()))
    return (meta["sha256"], quads, load_index(kb_dir / "index.pickle").n_triples)


def table_state(home: Path, name: str) -> tuple | None:
    import duckdb

    db = home / "sources.duckdb"
    with duckdb.connect(str(db), read_only=True) as con:
        cols = con.execute(
            "SELECT column_name FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index",
            [name],
        ).fetchall()
        if not cols:
            return None
        rows = con.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
    return (rows, tuple(c for (c,) in cols))


def learned_questions(home: Path) -> set[str]:
    import duckdb

    with duckdb.connect(str(home / "knowloop.duckdb"), read_only=True) as con:
        rows = con.execute(
            "SELECT question FROM wkm_trajectories WHERE kb = ? AND origin = 'learn'", [KB]
        ).fetchall()
    return {q for (q,) in rows}


def run_ids(home: Path) -> set[int]:
    import duckdb

    with duckdb.connect(str(home / "knowloop.duckdb"), read_only=True) as con:
        return {i for (i,) in con.execute("SELECT id FROM runs").fetchall()}


def log_entries(home: Path) -> list[dict]:
    """Complete lines of the edit log (a torn last line was never acknowledged)."""
    path = home / "kbs" / KB / "edits.jsonl"
    entries = []
    for line in path.read_bytes().splitlines(keepends=True) if path.exists() else []:
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            break
    return entries


def store_holds(home: Path, triples: list[dict]) -> bool:
    import pyoxigraph as ox

    from core.kg.terms import term_from_id

    store = ox.Store.read_only(str(home / "kbs" / KB / "store"))
    for t in triples:
        s, p, o = (term_from_id(t[k]) for k in ("s", "p", "o"))
        if next(iter(store.quads_for_pattern(s, p, o, ox.DefaultGraph())), None) is None:
            return False
    return True


def store_version_of(home: Path) -> int:
    import pyoxigraph as ox

    from core.kg.store import store_version

    return store_version(ox.Store.read_only(str(home / "kbs" / KB / "store")))


# -- the next start ----------------------------------------------------------------------------
NEXT_START = f"""
import sys
from core.cli import main
home = sys.argv[1]
for args in (["kbs"], ["ask", {CHECK_QUESTION!r}, "--kb", {KB!r}]):
    rc = main(["--home", home, *args])
    if rc:
        sys.exit(f"knowloop {{args[0]}} exited {{rc}}")
"""


def next_start(home: Path, problems: list[str]) -> None:
    """A fresh process opens the workspace as a user would: `knowloop kbs`, then `knowloop
    ask` on the KB (which also stores a run), both through the CLI's main in one interpreter
    (one start-up instead of two); then the staging must be gone and the store logs bounded."""
    done = subprocess.run(
        [sys.executable, "-c", NEXT_START, str(home)], cwd=REPO, env=env(home),
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if done.returncode != 0:
        problems.append(f"next start exited {done.returncode}: {done.stderr[-300:]}")
    left = staging_entries(home)
    if left:
        problems.append(f"staging survived the next start: {left}")
    if log_old_count(home) > MAX_LOG_OLD:
        problems.append(f"{log_old_count(home)} LOG.old files in the store")


# -- the operations ----------------------------------------------------------------------------
@dataclass
class Trial:
    op: str
    index: int
    kill_at_s: float  # CPU seconds of the operation's process(es)
    outcome: str = ""  # killed_before_ack | killed_after_ack | finished
    staging_left_by_kill: int = 0
    acked: int = 0
    problems: list[str] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)


def _old_or_new(trial: Trial, what: str, after: Any) -> None:
    """An import, killed or not, leaves the old state or the complete new one, and an
    acknowledged one the new; the trial's detail then records which."""
    before, new = trial.detail["before"], trial.detail["new"]
    if after not in (before, new):
        trial.problems.append(f"{what} is neither its old nor its new state: {after}")
    if trial.acked and after != new:
        trial.problems.append(f"acknowledged {what} lost: {after}")
    trial.detail = {"name": trial.detail["name"], "state": "new" if after == new else "old"}


class Bench:
    """The data, the per-operation workspaces and their reference states."""

    def __init__(self, tmp: Path, seed: int):
        self.tmp, self.rng = tmp, random.Random(seed)
        self.kb_a, self.kb_b = tmp / "films_a.tsv", tmp / "films_b.tsv"
        write_kb(self.kb_a, 1_500, seed)  # ~6k triples: the KB the other operations use
        write_kb(self.kb_b, 8_000, seed + 1)  # ~32k triples: an import that takes a while
        self.csv_a, self.csv_b = tmp / "small.csv", tmp / "big.csv"
        write_csv(self.csv_a, 200, seed, extra=False)
        write_csv(self.csv_b, 100_000, seed + 1, extra=True)
        self.homes = {op: tmp / f"ws-{op}" for op in OPS}
        self.next_film = 100  # learn questions: fresh films for every trial
        self.acked_edits: list[dict] = []
        self.acked_questions: set[str] = set()
        self.kb_states: dict[str, tuple] = {}
        self.table_states: dict[str, tuple] = {}
        self.durations: dict[str, float] = {}
        self.startup_s = 0.0
        self.edit_processes = 0

    def build(self, jobs: int) -> None:
        """One template (KB, two tables, a stored run, knowledge learned), copied per op."""
        template = self.tmp / "template"
        for args in (
            ("import", str(self.kb_a), "--name", KB),
            ("table", str(self.csv_a), "--name", "films_t"),
            ("table", str(self.csv_a), "--name", "keep_t"),
            ("ask", CHECK_QUESTION, "--kb", KB),
        ):
            done = run(template, *args)
            assert done.returncode == 0, done.stderr
        questions = self.tmp / "seed_q.tsv"
        write_questions(questions, list(range(10, 13)), self.kb_a)
        assert run(template, "learn", "--kb", KB, "--questions", str(questions)).returncode == 0
        self.seed_runs = run_ids(template)
        self.acked_questions = learned_questions(template)
        for op in OPS:
            shutil.copytree(template, self.homes[op])
        self.calibrate(template, jobs)

    def calibrate(self, template: Path, jobs: int, rounds: int = 2) -> None:
        """Reference states of the complete new KB/table, and each operation's CPU time: the
        most of `rounds` unkilled runs, made `jobs` operations at a time as the trials are
        (contention costs CPU time too)."""
        probes = {op: self.tmp / f"probe-{op}" for op in OPS}
        for probe in probes.values():
            shutil.copytree(template, probe)
        self.kb_states["a"] = kb_state(template, KB)
        self.table_states["a"] = table_state(template, "keep_t")
        self.startup_s = max(cpu_of(template, ["kbs"]) for _ in range(rounds))

        def measure(op: str) -> float:
            runs = [self.calibration_runs(op, r) for r in range(rounds)]
            return max(sum(cpu_of(probes[op], args) for args in seq) for seq in runs)

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            self.durations = dict(zip(OPS, pool.map(measure, OPS), strict=True))
        self.kb_states["b"] = kb_state(probes["import"], "calibrate0")
        self.table_states["b"] = table_state(probes["table"], "cal0_t")
        for probe in probes.values():
            shutil.rmtree(probe)

    def calibration_runs(self, op: str, r: int) -> list[list[str]]:
        if op == "import":
            return [["import", str(self.kb_b), "--name", f"calibrate{r}"]]
        if op == "table":
            return [["table", str(self.csv_b), "--name", f"cal{r}_t"]]
        if op == "edit":
            return [self.edit_args(-1 - r, k) for k in range(EDITS_PER_TRIAL)]
        questions = self.tmp / f"calibrate_q{r}.tsv"
        first = 20 + r * QUESTIONS_PER_LEARN
        write_questions(questions, list(range(first, first + QUESTIONS_PER_LEARN)), self.kb_a)
        return [["learn", "--kb", KB, "--questions", str(questions)]]

    def edit_args(self, trial: int, k: int) -> list[str]:
        tag = f"t{trial}e{k}"
        return ["edit", "--kb", KB, "--add", f"Film1|starred_actors|Actor_{tag}", "--why", tag]

    def kill_at(self, op: str) -> float:
        return self.rng.uniform(0.8 * self.startup_s, 1.2 * self.durations[op])

    # -- one trial per operation ---------------------------------------------------------------
    def trial(self, op: str, index: int, kill_at: float) -> Trial:
        trial = Trial(op, index, round(kill_at, 3))
        home = self.homes[op]
        getattr(self, f"_{op}")(home, trial)
        next_start(home, trial.problems)
        getattr(self, f"_check_{op}")(home, trial)
        return trial

    def _import(self, home: Path, trial: Trial) -> None:
        replace = trial.index % 2 == 0  # replace the KB, or import under a new name
        name = KB if replace else f"new{trial.index}"
        before = kb_state(home, name)
        source = self.kb_b if before is None or before == self.kb_states["a"] else self.kb_a
        args = ["import", str(source), "--name", name] + (["--replace"] if replace else [])
        done = run_until(home, args, trial.kill_at_s)
        self._outcome(trial, done, "imported ")
        trial.staging_left_by_kill = len(staging_entries(home))
        new = self.kb_states["b" if source == self.kb_b else "a"]
        trial.detail = {"name": name, "before": before, "new": new}

    def _check_import(self, home: Path, trial: Trial) -> None:
        name = trial.detail["name"]
        if name != KB and kb_state(home, KB) is None:
            trial.problems.append(f"the other KB {KB} is gone")
        _old_or_new(trial, f"KB {name}", kb_state(home, name))

    def _table(self, home: Path, trial: Trial) -> None:
        replace = trial.index % 2 == 0
        name = "films_t" if replace else f"new{trial.index}_t"
        before = table_state(home, name)
        source = self.csv_b if before != self.table_states["b"] else self.csv_a
        args = ["table", str(source), "--name", name] + (["--replace"] if replace else [])
        done = run_until(home, args, trial.kill_at_s)
        self._outcome(trial, done, f"table {name}:")
        new = self.table_states["b" if source == self.csv_b else "a"]
        trial.detail = {"name": name, "before": before, "new": new}

    def _check_table(self, home: Path, trial: Trial) -> None:
        name = trial.detail["name"]
        if table_state(home, "keep_t") != self.table_states["a"]:
            trial.problems.append("the untouched table keep_t changed")
        _old_or_new(trial, f"table {name}", table_state(home, name))

    def _edit(self, home: Path, trial: Trial) -> None:
        """A sequence of CLI edits; the one running at the kill moment (CPU time summed over
        the sequence) is SIGKILLed."""
        budget = trial.kill_at_s
        trial.outcome = "finished"
        for k in range(EDITS_PER_TRIAL):
            args = self.edit_args(trial.index, k)
            self.edit_processes += 1
            done = run_until(home, args, budget)
            budget -= done.cpu_s
            if "saved #" in done.out:  # the id reached us: acknowledged
                edit_id = int(done.out.split("saved #", 1)[1].split()[0])
                self.acked_edits.append({"id": edit_id, "why": args[-1]})
                trial.acked += 1
            elif not done.killed:
                trial.problems.append(f"edit {k} exited {done.rc}: {done.out[-200:]}")
            if done.killed:
                trial.outcome = "killed_after_ack" if "saved #" in done.out else "killed_before_ack"
                break
        trial.staging_left_by_kill = len(staging_entries(home))

    def _check_edit(self, home: Path, trial: Trial) -> None:
        entries = log_entries(home)
        ids = [e["id"] for e in entries]
        if ids != list(range(1, len(ids) + 1)):
            trial.problems.append(f"log ids not contiguous: {ids[-5:]}")
        by_id = {e["id"]: e for e in entries}
        for acked in self.acked_edits:
            entry = by_id.get(acked["id"])
            if entry is None or entry["why"] != acked["why"]:
                trial.problems.append(f"acknowledged edit #{acked['id']} missing from the log")
            elif not store_holds(home, entry["added"]):
                trial.problems.append(f"acknowledged edit #{acked['id']} missing from the store")
        if ids and store_version_of(home) != ids[-1]:
            trial.problems.append(f"store at version {store_version_of(home)}, log at {ids[-1]}")
        trial.detail = {"log_entries": len(ids), "log_old": log_old_count(home)}

    def _learn(self, home: Path, trial: Trial) -> None:
        films = list(range(self.next_film, self.next_film + QUESTIONS_PER_LEARN))
        self.next_film += QUESTIONS_PER_LEARN
        questions = self.tmp / f"learn_{trial.index}.tsv"
        write_questions(questions, films, self.kb_a)
        args = ["learn", "--kb", KB, "--questions", str(questions)]
        done = run_until(home, args, trial.kill_at_s)
        self._outcome(trial, done, "paradigm:")
        asked = {f"who directed [Film{i}]" for i in films}
        if trial.acked:
            self.acked_questions |= asked
        trial.detail = {"asked": sorted(asked)}

    def _check_learn(self, home: Path, trial: Trial) -> None:
        learned = learned_questions(home)
        lost = self.acked_questions - learned
        if lost:
            trial.problems.append(f"acknowledged learning lost: {sorted(lost)[:3]}")
        missing_runs = self.seed_runs - run_ids(home)
        if missing_runs:
            trial.problems.append(f"stored runs lost: {sorted(missing_runs)}")
        partial = len(set(trial.detail["asked"]) & learned)
        trial.detail = {"questions_learned_of_this_trial": partial}

    def _outcome(self, trial: Trial, done: Killed, ack: str) -> None:
        acked = ack in done.out  # printed and flushed to us, killed after or not
        trial.acked = int(acked)
        if done.killed:
            trial.outcome = "killed_after_ack" if acked else "killed_before_ack"
        else:
            trial.outcome = "finished"
            if done.rc != 0:
                trial.problems.append(f"{trial.op} exited {done.rc} unkilled: {done.out[-200:]}")


def run_trials(bench: Bench, n: int, jobs: int) -> list[Trial]:
    """Trials round-robin over the operations; each operation's trials run in order on its
    own workspace, `jobs` operations at a time. Kill moments are drawn up front, so a seed
    gives the same moments whatever the scheduling."""
    plan = [(OPS[i % len(OPS)], i, bench.kill_at(OPS[i % len(OPS)])) for i in range(n)]

    def one_op(op: str) -> list[Trial]:
        done = []
        for _, i, kill_at in (p for p in plan if p[0] == op):
            trial = bench.trial(op, i, kill_at)
            mark = "FAIL " + "; ".join(trial.problems) if trial.problems else "ok"
            print(f"#{i:3d} {op:<6} kill@{kill_at:5.2f} cpu-s {trial.outcome:<18} {mark}",
                  file=sys.stderr, flush=True)  # fmt: skip
            done.append(trial)
        return done

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = [t for ts in pool.map(one_op, OPS) for t in ts]
    return sorted(results, key=lambda t: t.index)


# -- report ------------------------------------------------------------------------------------
def summarize_trials(trials: list[Trial]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for op in OPS:
        mine = [t for t in trials if t.op == op]
        table[op] = {
            "trials": len(mine),
            "killed_before_ack": sum(t.outcome == "killed_before_ack" for t in mine),
            "killed_after_ack": sum(t.outcome == "killed_after_ack" for t in mine),
            "finished_before_kill": sum(t.outcome == "finished" for t in mine),
            "staging_left_by_kill": sum(t.staging_left_by_kill > 0 for t in mine),
            "acknowledged": sum(t.acked for t in mine),
            "failures": sum(bool(t.problems) for t in mine),
        }
    return table


def print_table(table: dict[str, dict[str, int]]) -> None:
    keys = list(next(iter(table.values())))
    print(f"{'operation':<10}" + "".join(f"{k:>22}" for k in keys))
    for op, row in table.items():
        print(f"{op:<10}" + "".join(f"{row[k]:>22}" for k in keys))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100, help="total, round-robin over ops")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "kill_trials.json")
    parser.add_argument("--jobs", type=int, default=2, help="operations run side by side")
    parser.add_argument("--keep", action="store_true", help="keep the temporary workspaces")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="knowloop-kill-"))
    started = time.monotonic()
    try:
        bench = Bench(tmp, args.seed)
        bench.build(args.jobs)
        print(
            f"calibrated CPU: start-up {bench.startup_s:.2f} s; "
            + ", ".join(f"{op} {s:.2f} s" for op, s in bench.durations.items()),
            file=sys.stderr,
        )
        trials = run_trials(bench, args.trials, args.jobs)
        table = summarize_trials(trials)
        print_table(table)
        log_old = log_old_count(bench.homes["edit"])
        print(f"edit workspace: {bench.edit_processes} edit processes, {log_old} LOG.old left")
        write_json(
            args.out,
            {
                "date": now_iso(),
                "machine": machine_info(),
                "seed": args.seed,
                "jobs": args.jobs,
                "wall_s": round(time.monotonic() - started, 1),
                "calibration_cpu_s": {"startup": round(bench.startup_s, 3)}
                | {op: round(s, 3) for op, s in bench.durations.items()},
                "kb_triples": {"a": bench.kb_states["a"][2], "b": bench.kb_states["b"][2]},
                "summary": table,
                "edit_processes": bench.edit_processes,
                "log_old_after_all_edits": log_old,
                "trials": [asdict(t) for t in trials],
            },
        )
        return 1 if any(t.problems for t in trials) else 0
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
