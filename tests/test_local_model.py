"""The bundled local model, for real: Gemma 3 270M through llama-cpp-python behind litellm's
custom provider. These tests load the model (≈ 1 s) and run it on the 2-core CI machine."""

from __future__ import annotations

import pytest

from core.engine import Engine
from core.llm.client import LLM, LLMSettings
from core.llm.local import LOCAL_MODEL, model_path, status
from core.loop import LoopSettings

pytestmark = pytest.mark.slow  # the fast loop (`pytest -m 'not slow'`) leaves it out


@pytest.fixture(scope="module")
def llm(tmp_path_factory) -> LLM:
    return LLM(LLMSettings(model=LOCAL_MODEL))


def test_the_model_is_assembled_into_the_workspace_and_verified() -> None:
    path = model_path()
    assert path.is_file() and path.stat().st_size > 200 * 2**20
    info = status()
    assert info["assembled"] and info["runtime"].startswith("llama-cpp-python")


def test_generation_through_litellm(llm: LLM) -> None:
    ledger = []
    out = llm.complete("Question: what is the capital of France?\nAnswer:", purpose="t",
                       ledger=ledger, max_tokens=8, stop=["\n"])  # fmt: skip
    assert out.text.strip()
    (call,) = ledger
    assert call.model == LOCAL_MODEL and call.cost_usd == 0.0
    assert call.prompt_tokens > 5 and 0 < call.completion_tokens <= 8


def test_option_scoring_reads_the_context(llm: LLM) -> None:
    """Calibrated log-likelihood: the option the facts support wins, in either order."""
    prompt = (
        "Facts:\n- Blue Harbor directed by Mara Quint\n- Blue Harbor starred actors Ode Varga\n\n"
        "Question: who directed Blue Harbor?\nAnswer:"
    )
    for options in (["Mara Quint", "Ode Varga"], ["Ode Varga", "Mara Quint"]):
        ledger = []
        choice = llm.choose(prompt, options, purpose="t", ledger=ledger)
        assert choice.method == "loglik" and sum(choice.probs) == pytest.approx(1.0)
        assert choice.options[choice.best] == "Mara Quint"
        assert ledger[0].prompt_tokens > 0


def test_llmxkg_end_to_end_with_the_local_model(football_engine: Engine) -> None:
    trace = football_engine.ask(
        "who coaches the club Mohamed Salah plays for",
        kb="football",
        paradigm="llmxkg",
        settings=LoopSettings(llm=LLMSettings(model=LOCAL_MODEL)),
    )
    assert trace.answer_labels == ["Arne Slot"]
    usage = trace.usage()
    assert usage["llm_calls"] >= 1 and usage["prompt_tokens"] > 0 and usage["cost_usd"] == 0
    choice = trace.steps[0].action.details["relation_choice"]
    assert choice["method"] == "loglik" and choice["fault"] is None


def test_llm_only_end_to_end_with_the_local_model(football_engine: Engine) -> None:
    trace = football_engine.ask(
        "where was Erling Haaland born", kb="football", paradigm="llm-only",
        settings=LoopSettings(llm=LLMSettings(model=LOCAL_MODEL)),
    )  # fmt: skip
    assert trace.error is None and trace.steps[0].passages
    assert trace.usage()["completion_tokens"] > 0
