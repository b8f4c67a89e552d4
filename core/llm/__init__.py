"""Every LLM call of KnowLoop goes through `core.llm.client.LLM` (litellm underneath)."""

from core.llm.client import (
    LLM,
    Budget,
    BudgetExhausted,
    Choice,
    Completion,
    LLMFault,
    LLMSettings,
)

__all__ = ["LLM", "Budget", "BudgetExhausted", "Choice", "Completion", "LLMFault", "LLMSettings"]
