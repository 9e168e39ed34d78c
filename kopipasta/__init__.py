"""kopipasta: apply an LLM's reply to a codebase structurally."""

from __future__ import annotations

__version__ = "0.1.0"
