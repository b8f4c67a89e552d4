"""Load run: concurrent CLI processes and app sessions on one workspace, with KG edits
interleaved; afterwards every answered question must have its stored run and every
acknowledged edit must be in the edit log.

    .venv/bin/python benchmarks/load_run.py [--clients 8] [--questions 50] [--app-clients N]
        [--app-driver apptest|browser] [--edits 20] [--llm-questions 2] [--busy-timeout S]

Clients (half of them app sessions by default), each asking its own questions from
kb_data/metaqa/qa_dev_1hop.tsv one after another:
- a CLI client runs `knowloop ask Q --kb metaqa --paradigm P --json` per question, a fresh
  process each time as a user or a script would (through this script's `--cli` entry, which
  only adds the store clock below); a few use llm+kg / llm-only with the bundled local model
  (offline), the rest kg-only;
- an app client drives the real Ask page: `apptest` runs Streamlit's AppTest in a process of
  its own (AppTest is not thread-safe, so one session per process); `browser` starts
  `streamlit run` once and drives one Chromium page per client (sessions are threads of one
  server process, as in production; needs /usr/bin/chromium and Playwright, and costs much
  more CPU);
- an editor client makes `--edits` CLI edits (`knowloop edit --add ...`), spread over the run
  by progress.

Latency is wall time per question as the client sees it (a CLI question includes starting
the process). The store clock adds up, in each client process, how long run-store calls
waited for the store's lock file and how long they held it. Results: a table on stdout, JSON
in benchmarks/results/load_run.json; exit status 1 when a run or an acknowledged edit was
lost.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    REPO_ROOT,
    RESULTS_DIR,
    loadavg,
    machine_info,
    now_iso,
    summarize,
    write_json,
)

QUESTIONS = REPO_ROOT / "kb_data" / "metaqa" / "qa_dev_1hop.tsv"
APP = REPO_ROOT / "streamlit_app.py"
KB = "metaqa"
LLM_PARADIGMS = ("llm+kg", "llm-only")


@dataclass
class Result:
    """One question as a client saw it."""

    kind: str  # "cli" or "app" (also the run's source in the store)
    client: int
    question: str
    latency_s: float = 0.0
    answered: bool = False  # an answer (possibly "no answer found") was shown
    run_id: int | None = None  # the stored run the client was told about
    spooled: bool = False  # the store was busy: the run went to runs-pending/
    error: str = ""
    paradigm: str = "kg-only"
    store_wait_s: float = 0.0  # waiting in line for the run store (its lock file)
    store_held_s: float = 0.0  # holding it (connect, transaction, close)


@dataclass
class EditResult:
    k: int
    latency_s: float
    acknowledged: bool
    edit_id: int | None
    why: str
    added: str
    error: str = ""


@dataclass
class Progress:
    """Shared by the clients (one event loop, so no locking)."""

    done: int = 0
    total: int = 0
    clients_left: int = 0
    results: list[Result] = field(default_factory=list)


# -- setup -----------------------------------------------------------------------------------


def child_env(home: Path, busy_timeout: float | None) -> dict[str, str]:
    env = {**os.environ, "KNOWLOOP_HOME": str(home), "KNOWLOOP_NO_WARM_UP": "1"}
    env["PYTHONPATH"] = str(REPO_ROOT)
    if busy_timeout is not None:
        env["KNOWLOOP_BUSY_TIMEOUT"] = str(busy_timeout)
    return env


def prepare(home: Path, llm: bool) -> None:
    """A fresh workspace with the bundled KB imported (and the local model assembled when LLM
    questions are asked), as conftest's metaqa_home builds it; not timed."""
    from core.workspace import Workspace

    assert Workspace(home).resolve(None) == KB
    if llm:
        env = child_env(home, None)
        subprocess.run(
            [sys.executable, "-m", "core", "model"],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            cwd=REPO_ROOT,
        )


def pick_questions(clients: int, per_client: int) -> list[list[str]]:
    """Distinct questions, dealt round robin so every client gets a mix of kinds."""
    with open(QUESTIONS, newline="", encoding="utf-8") as fh:
        rows = [r["question"] for r in csv.DictReader(fh, delimiter="\t")]
    unique = list(dict.fromkeys(rows))
    need = clients * per_client
    if need > len(unique):
        raise SystemExit(f"only {len(unique)} distinct questions; ask for fewer")
    return [unique[i:need:clients] for i in range(clients)]


# -- the run store's clock, inside each client process ---------------------------------------

STORE_CLOCK = {"wait": 0.0, "held": 0.0}


def clock_the_store() -> None:
    """Add up how long run-store calls wait for their lock file and how long they hold it, by
    wrapping `core.runs.file_lock` in this process; the code under test is otherwise as is."""
    from core import runs

    inner = runs.file_lock

    @contextmanager
    def timed(*args: Any, **kwargs: Any) -> Iterator[None]:
        t0 = time.perf_counter()
        with inner(*args, **kwargs):
            t1 = time.perf_counter()
            STORE_CLOCK["wait"] += t1 - t0
            try:
                yield
            finally:
                STORE_CLOCK["held"] += time.perf_counter() - t1

    runs.file_lock = timed


# -- CLI clients -----------------------------------------------------------------------------


async def cli_client(
    i: int, questions: list[str], paradigms: list[str], env: dict[str, str], progress: Progress
) -> None:
    for question, paradigm in zip(questions, paradigms, strict=True):
        t0 = time.perf_counter()
        code, out, err = await spawn(
            env, "ask", question, "--kb", KB, "--paradigm", paradigm, "--json"
        )
        latency = time.perf_counter() - t0
        err, wait, held = _store_clock(err)
        answered = code in (0, 4) and _trace_question(out) == question
        error = "" if code == 0 else f"exit {code}: {err[-300:]}"
        result = Result("cli", i, question, latency, answered, None, code == 4, error, paradigm,
                        wait, held)  # fmt: skip
        progress.results.append(result)
        progress.done += 1


async def spawn(env: dict[str, str], *argv: str) -> tuple[int, str, str]:
    """`knowloop ARGV...` in a process of its own (through `cli_worker`, which only adds the
    store clock): exit status, stdout, stderr."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(Path(__file__).resolve()), "--cli", *argv, env=env, cwd=REPO_ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace").strip()


def cli_worker(argv: list[str]) -> int:
    """Child process: exactly `knowloop ARGV`, then the store clock as stderr's last line."""
    clock_the_store()
    from core.cli import main as knowloop

    code = knowloop(argv)
    print(f"store-clock {STORE_CLOCK['wait']:.4f} {STORE_CLOCK['held']:.4f}", file=sys.stderr)
    return code


def _store_clock(stderr: str) -> tuple[str, float, float]:
    """stderr without the clock line, and the clock's wait and held seconds."""
    rest, _, last = stderr.rpartition("\n") if "\n" in stderr else ("", "", stderr)
    if not last.startswith("store-clock "):
        return stderr, 0.0, 0.0
    _, wait, held = last.split()
    return rest.strip(), float(wait), float(held)


def _trace_question(stdout: str) -> str | None:
    try:
        return json.loads(stdout)["question"]
    except (ValueError, KeyError, TypeError):
        return None


# -- app clients: AppTest, one session per process -------------------------------------------


def app_worker(questions_file: Path) -> int:
    """Child process: one app session asking its questions on the Ask page; one JSON line
    per question on stdout."""
    from streamlit.testing.v1 import AppTest

    clock_the_store()
    questions = json.loads(questions_file.read_text())
    at = AppTest.from_file(str(APP), default_timeout=600).run()
    if at.exception:
        print(json.dumps({"fatal": str(at.exception[0].message)}), flush=True)
        return 1
    for question in questions:
        t0, clock = time.perf_counter(), dict(STORE_CLOCK)
        at.text_input(key="question").input(question)
        at = at.form_submit_button[0].click().run()
        latency = time.perf_counter() - t0
        trace = _state(at, "ask_trace", None)
        run_id, error = _state(at, "ask_run", (None, ""))
        if trace is None:
            error = _state(at, "ask_error", "") or "the page shows no answer"
        if at.exception:
            error = f"page exception: {at.exception[0].message}"
        answered = trace is not None and trace.question == question
        spooled = "is kept in" in (error or "")
        wait, held = (STORE_CLOCK[k] - clock[k] for k in ("wait", "held"))
        line = Result("app", 0, question, latency, answered, run_id, spooled, error or "",
                      "kg-only", wait, held)  # fmt: skip
        print(json.dumps(asdict(line)), flush=True)
    return 0


def _state(at, key: str, default: Any) -> Any:
    try:
        return at.session_state[key]
    except KeyError:
        return default


async def apptest_client(
    i: int, questions: list[str], env: dict[str, str], progress: Progress, tmp: Path
) -> None:
    qfile = tmp / f"app-{i}.json"
    qfile.write_text(json.dumps(questions))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(Path(__file__).resolve()), "--app-worker", str(qfile), env=env,
        cwd=REPO_ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    seen = 0
    async for line in proc.stdout:
        data = json.loads(line)
        if "fatal" in data:
            break
        progress.results.append(Result(**{**data, "client": i}))
        progress.done += 1
        seen += 1
    _, err = await proc.communicate()
    for question in questions[seen:]:  # the session died: what it did not answer is counted
        died = f"session died: {err.decode(errors='replace').strip()[-300:]}"
        progress.results.append(Result("app", i, question, error=died))


# -- app clients: Chromium pages on one `streamlit run` server --------------------------------

WATCH = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.__sawRunning = false;
  new MutationObserver(() => {
    if (app.getAttribute('data-test-script-state') === 'running') window.__sawRunning = true;
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""
DONE = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!window.__sawRunning || app.getAttribute('data-test-script-state') !== 'notRunning')
    return null;
  const fb = document.querySelector('.st-key-feedback');
  const run = fb && fb.innerText.match(/Run #(\\d+) is stored/);
  if (run) return {run: Number(run[1])};
  const alerts = [...document.querySelectorAll('[data-testid="stAlert"]')].map(e => e.innerText);
  const warn = alerts.find(t => t.includes('could not be stored'));
  if (warn) return {warn};
  const err = alerts.find(t => t.includes('Cannot answer'));
  return err ? {error: err} : null;
}"""


async def browser_client(i: int, questions: list[str], browser, base: str, progress: Progress):
    context = await browser.new_context(viewport={"width": 1200, "height": 1400})
    page = await context.new_page()
    await page.goto(base)
    box = page.get_by_label("Question")
    await box.wait_for(timeout=300_000)
    for question in questions:
        await box.fill(question)
        await page.evaluate(WATCH)
        t0 = time.perf_counter()
        await page.get_by_role("button", name="Run", exact=True).click()
        try:
            handle = await page.wait_for_function(DONE, timeout=600_000, polling=50)
            seen = await handle.json_value()
        except Exception as exc:  # a timeout: counted, the session goes on
            seen = {"error": f"{type(exc).__name__}: {exc}"[:300]}
        latency = time.perf_counter() - t0
        warn = seen.get("warn", "")
        answered, spooled = "run" in seen or bool(warn), "is kept in" in warn
        error = warn or seen.get("error", "")
        result = Result("app", i, question, latency, answered, seen.get("run"), spooled, error)
        progress.results.append(result)
        progress.done += 1
    await context.close()


async def browser_clients(
    ids: list[int], questions: list[list[str]], env: dict[str, str], progress: Progress
) -> None:
    from playwright.async_api import async_playwright

    from tests.browser_util import (
        CHROMIUM,
        CHROMIUM_ARGS,
        free_port,
        streamlit_command,
        wait_healthy,
    )

    port = free_port()
    cmd = streamlit_command(port)
    log_path = Path(env["KNOWLOOP_HOME"]) / "streamlit.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=log, stderr=log)
        try:
            base = f"http://127.0.0.1:{port}"
            await asyncio.to_thread(wait_healthy, base, server, 120, log_path)
            async with async_playwright() as p:
                browser = await p.chromium.launch(
                    executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
                )
                try:
                    await asyncio.gather(
                        *(
                            browser_client(i, q, browser, base, progress)
                            for i, q in zip(ids, questions, strict=True)
                        )
                    )
                finally:
                    await browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)


# -- the editor ------------------------------------------------------------------------------


def edit_triple(k: int) -> str:
    return f"Load Run Movie {k}|directed_by|Load Run Director {k}"


async def editor(edits: int, env: dict[str, str], progress: Progress) -> list[EditResult]:
    """Edit k waits until k/(edits+1) of the questions are done, so edits land throughout."""
    results: list[EditResult] = []
    for k in range(1, edits + 1):
        while progress.done < progress.total * k / (edits + 1) and progress.clients_left:
            await asyncio.sleep(0.1)
        why = f"load run edit {k}"
        t0 = time.perf_counter()
        code, out, err = await spawn(
            env, "edit", "--add", edit_triple(k), "--why", why, "--who", "load-run", "--kb", KB
        )
        edit_id = int(out.split()[1].lstrip("#")) if out.startswith("saved #") else None
        latency = time.perf_counter() - t0
        results.append(EditResult(k, latency, code == 0, edit_id, why, edit_triple(k), err[-300:]))
    return results


# -- the run and its checks ------------------------------------------------------------------


async def run_load(args: argparse.Namespace, home: Path, tmp: Path) -> dict[str, Any]:
    env = child_env(home, args.busy_timeout)
    questions = pick_questions(args.clients, args.questions)
    app_ids = set(range(args.clients - args.app_clients, args.clients))
    cli_ids = [i for i in range(args.clients) if i not in app_ids]
    paradigms = {i: ["kg-only"] * args.questions for i in cli_ids}
    for n in range(min(args.llm_questions, len(cli_ids) * args.questions)):
        client = cli_ids[n % len(cli_ids)]  # early in the run, spread over the CLI clients
        at = (1 + n // len(cli_ids)) % args.questions
        paradigms[client][at] = LLM_PARADIGMS[n % len(LLM_PARADIGMS)]
    progress = Progress(total=args.clients * args.questions)

    tasks = [cli_client(i, questions[i], paradigms[i], env, progress) for i in cli_ids]
    if args.app_driver == "browser" and app_ids:  # one task drives every page
        ids = sorted(app_ids)
        tasks.append(browser_clients(ids, [questions[i] for i in ids], env, progress))
    else:
        tasks += [apptest_client(i, questions[i], env, progress, tmp) for i in sorted(app_ids)]
    progress.clients_left = len(tasks)

    async def client(task) -> None:
        try:
            await task
        finally:
            progress.clients_left -= 1

    t0 = time.perf_counter()
    edit_task = asyncio.ensure_future(editor(args.edits, env, progress))
    await asyncio.gather(*(client(t) for t in tasks))
    edit_results = await edit_task
    wall = time.perf_counter() - t0
    return {"wall_s": wall, "results": progress.results, "edits": edit_results}


def check_runs(home: Path, results: list[Result]) -> dict[str, Any]:
    """What the clients were answered against what the store holds once the spool is merged
    (reading the store merges it): the same (question, source) pairs, none missing or extra."""
    from core.runs import RunStore

    store = RunStore(home)
    left_in_spool = store.pending()
    stored = store.list(limit=1_000_000)
    have = Counter((r.question, r.source) for r in stored)
    want = Counter((r.question, r.kind) for r in results if r.answered)
    by_id = {r.id: r.question for r in stored}
    told = [r for r in results if r.run_id is not None]
    return {
        "answered": sum(want.values()),
        "stored_runs": len(stored),
        "lost_runs": sum((want - have).values()),
        "lost_examples": sorted((want - have).elements())[:5],
        "unexpected_runs": sum((have - want).values()),
        "run_ids_not_matching": sum(by_id.get(r.run_id) != r.question for r in told),
        "runs_through_spool": _spooled_rows(store.path),
        "spool_files_left_at_end": left_in_spool,
        "spool_files_left_after_merge": store.pending(),
    }


def _spooled_rows(db: Path) -> int:
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        try:
            return con.execute("SELECT count(*) FROM run_spool").fetchone()[0]
        except duckdb.CatalogException:  # nothing was ever spooled
            return 0


def check_edits(home: Path, edits: list[EditResult]) -> dict[str, Any]:
    """Every acknowledged edit is in the log under its id, with its reason and its triple."""
    from core.workspace import Workspace

    history = {e.id: e for e in Workspace(home).editor(KB).history()}

    def logged(e: EditResult) -> bool:
        entry = history.get(e.edit_id)
        subject = f"Load Run Movie {e.k} —directed by→"
        return (
            entry is not None
            and entry.why == e.why
            and any(t.text().startswith(subject) for t in entry.added)
        )

    return {
        "edits_acknowledged": sum(e.acknowledged for e in edits),
        "edits_refused": sum(not e.acknowledged for e in edits),
        "lost_acknowledged_edits": sum(e.acknowledged and not logged(e) for e in edits),
        "edits_in_log": len(history),
    }


def summary(results: list[Result], edits: list[EditResult]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in ("cli", "app", "all"):
        rs = [r for r in results if kind in ("all", r.kind)]
        if not rs:
            continue
        out[kind] = {
            "questions": len(rs),
            "answered": sum(r.answered for r in rs),
            "failed": sum(not r.answered for r in rs),
            "spooled": sum(r.spooled for r in rs),
            "latency_s": summarize([r.latency_s for r in rs if r.answered]),
            "store_wait_s": summarize([r.store_wait_s for r in rs if r.answered]),
            "store_held_s_total": round(sum(r.store_held_s for r in rs), 1),
            "paradigms": dict(Counter(r.paradigm for r in rs)),
        }
    out["edit"] = {
        "edits": len(edits),
        "acknowledged": sum(e.acknowledged for e in edits),
        "latency_s": summarize([e.latency_s for e in edits]),
    }
    return out


def print_table(data: dict[str, Any]) -> None:
    s, v = data["summary"], data["checks"]
    print(
        f"\n{data['clients']} clients ({data['cli_clients']} CLI, {data['app_clients']} app "
        f"via {data['app_driver']}) x {data['questions_per_client']} questions, "
        f"{s['edit']['edits']} edits; {data['wall_s']:.0f} s wall"
    )
    print(
        f"{'kind':<5} {'asked':>6} {'answered':>8} {'failed':>6} {'spooled':>7} "
        f"{'p50 s':>7} {'p95 s':>7} {'max s':>7} {'store wait p50/p95 s':>21}"
    )
    for kind in ("cli", "app", "all", "edit"):
        if kind not in s:
            continue
        row, lat = s[kind], s[kind]["latency_s"]
        asked = row.get("questions", row.get("edits"))
        answered = row.get("answered", row.get("acknowledged"))
        wait = row.get("store_wait_s", {})
        waits = f"{wait['median']:.3f} / {wait['p95']:.3f}" if wait.get("n") else "-"
        print(
            f"{kind:<5} {asked:>6} {answered:>8} {row.get('failed', asked - answered):>6} "
            f"{row.get('spooled', 0):>7} {lat.get('median', 0):>7.2f} {lat.get('p95', 0):>7.2f} "
            f"{lat.get('max', 0):>7.2f} {waits:>21}"
        )
    print(
        f"lost runs: {v['lost_runs']}  unexpected runs: {v['unexpected_runs']}  "
        f"through the spool: {v['runs_through_spool']}  lost acknowledged edits: "
        f"{v['lost_acknowledged_edits']}  stored runs: {v['stored_runs']}"
    )
    reasons = Counter(_reason(f["error"]) for f in data["failures"] + data["edit_failures"])
    for reason, n in reasons.most_common(3):
        print(f"failed {n}x: {reason}")


def _reason(error: str) -> str:
    """A failure message without what differs between occurrences (file names, numbers)."""
    return re.sub(r"\d+", "N", error.splitlines()[-1] if error else "?")[:160]


def main() -> int:
    if sys.argv[1:2] == ["--cli"]:  # a CLI client's process (see spawn)
        return cli_worker(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--questions", type=int, default=50, help="per client")
    parser.add_argument("--app-clients", type=int, default=None, help="default: half")
    parser.add_argument("--app-driver", choices=("apptest", "browser"), default="apptest")
    parser.add_argument("--edits", type=int, default=20, help="CLI edits during the run")
    parser.add_argument(
        "--llm-questions",
        type=int,
        default=2,
        help="CLI questions asked with llm+kg / llm-only (local model)",
    )
    parser.add_argument(
        "--busy-timeout",
        type=float,
        default=None,
        help="KNOWLOOP_BUSY_TIMEOUT for every client (default: the store's)",
    )
    parser.add_argument("--home", type=Path, default=None, help="default: a fresh temp dir")
    parser.add_argument("--keep", action="store_true", help="keep the temporary workspace")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "load_run.json")
    parser.add_argument("--app-worker", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.app_worker is not None:
        return app_worker(args.app_worker)
    if args.app_clients is None:
        args.app_clients = args.clients // 2
    if not 0 <= args.app_clients <= args.clients:
        parser.error("--app-clients must be between 0 and --clients")

    tmp = Path(tempfile.mkdtemp(prefix="knowloop-load-"))
    home = args.home or tmp / "home"
    try:
        t0 = time.perf_counter()
        prepare(home, args.llm_questions > 0)
        print(f"workspace {home} ready in {time.perf_counter() - t0:.1f} s", flush=True)
        load_at_start = loadavg()
        run = asyncio.run(run_load(args, home, tmp))
        data = {
            "when": now_iso(),
            "command": " ".join([Path(sys.executable).name, *sys.argv]),
            "clients": args.clients,
            "cli_clients": args.clients - args.app_clients,
            "app_clients": args.app_clients,
            "app_driver": args.app_driver,
            "questions_per_client": args.questions,
            "busy_timeout_s": args.busy_timeout,
            "wall_s": round(run["wall_s"], 1),
            "summary": summary(run["results"], run["edits"]),
            "checks": {**check_runs(home, run["results"]), **check_edits(home, run["edits"])},
            "failures": [asdict(r) for r in run["results"] if not r.answered][:50],
            "edit_failures": [asdict(e) for e in run["edits"] if not e.acknowledged][:20],
            "machine": {
                **machine_info(),
                "loadavg_at_start": load_at_start,
                "loadavg_at_end": loadavg(),
            },
        }
        write_json(args.out, data)
        print_table(data)
        print(f"wrote {args.out}")
        checks = data["checks"]
        ok = checks["lost_runs"] == 0 and checks["lost_acknowledged_edits"] == 0
        return 0 if ok and checks["unexpected_runs"] == 0 else 1
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
