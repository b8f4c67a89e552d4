"""Knowledge sources beside the KG: tables (DuckDB, SQL) and documents (passages, BM25).

The bundled default KB brings one of each (kb_data/metaqa/movies.csv and the Wikipedia leads
in kb_data/metaqa/docs/); they are imported into the workspace on first use."""

from __future__ import annotations

import threading
from pathlib import Path

from core.sources.documents import Collection, import_documents, list_collections, search
from core.sources.tables import SQLRefused, TableInfo, import_table, list_tables, run_sql

__all__ = [
    "Collection",
    "SQLRefused",
    "TableInfo",
    "ensure_bundled",
    "import_documents",
    "import_table",
    "list_collections",
    "list_tables",
    "run_sql",
    "search",
]

_lock = threading.Lock()


def ensure_bundled(home: Path) -> None:
    """Import the bundled table and documents once (seconds) into a workspace that holds the
    bundled KB (they describe its films) and lacks them."""
    from core.locks import file_lock
    from core.workspace import DEFAULT_KB, bundled_kb_dir

    root = Path(home)
    if not (root / "kbs" / DEFAULT_KB).is_dir():
        return
    data = bundled_kb_dir()
    with _lock:
        root.mkdir(parents=True, exist_ok=True)
        with file_lock(root / ".sources.lock"):
            table = data / "movies.csv"
            if table.is_file() and "movies" not in {t.name for t in list_tables(root)}:
                import_table(table, "movies", home=root)
            docs = data / "docs" / "movie_leads.jsonl"
            if docs.is_file() and "movie_docs" not in {c.name for c in list_collections(root)}:
                import_documents(docs, "movie_docs", home=root)


class Sources:
    """The tables and documents of one workspace, for callers that hold an Engine (the pages,
    the CLI): every call goes to this workspace's files, never a default home."""

    def __init__(self, home: Path):
        self.home = Path(home)

    def ensure_bundled(self) -> None:
        ensure_bundled(self.home)

    def list_tables(self) -> list[TableInfo]:
        return list_tables(self.home)

    def list_collections(self) -> list[Collection]:
        return list_collections(self.home)

    def import_table(self, path: Path | str, name: str | None = None, **kwargs):
        return import_table(path, name, home=self.home, **kwargs)

    def import_documents(self, path: Path | str, collection: str | None = None, **kwargs):
        return import_documents(path, collection, home=self.home, **kwargs)

    def drop_table(self, name: str) -> None:
        from core.sources.tables import drop_table

        drop_table(name, self.home)

    def drop_collection(self, name: str) -> None:
        from core.sources.documents import drop_collection

        drop_collection(name, self.home)

    def run_sql(self, sql: str, **kwargs):
        return run_sql(sql, self.home, **kwargs)

    def search(self, query: str, k: int = 5, collection: str | None = None):
        return search(query, self.home, k, collection)
